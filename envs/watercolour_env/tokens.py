"""A sketch's tokens with what a cheap edit changes made alike: the copy guard's view of the code."""

from __future__ import annotations

from tree_sitter import Node

from watercolour_env.syntax import HEAD_BYTES, declares, node_text, parse

NAME_TOKEN, NUMBER_TOKEN, STRING_TOKEN = "$name", "$num", "$str"
_STRING_TYPES = frozenset({"string", "template_string", "regex"})
_NAME_TYPES = frozenset({"identifier", "shorthand_property_identifier", "shorthand_property_identifier_pattern"})


def code_tokens(source: str) -> list[str]:
    """The sketch's tokens with what an edit changes cheaply made alike: the copy guard's input.

    Comments are dropped; every number is `$num`, every string `$str`, and every name the sketch
    declares itself (functions, variables, parameters) `$name`, so that a copy recoloured,
    jittered or renamed has the tokens of its original. The names of the API (`brush`, `fill`,
    `cos`, `createCanvas`) and the punctuation are kept as written. Linear in the source's length.

    Args:
        source: JavaScript source; text that is not valid UTF-8 is read with replacement.

    Returns:
        e.g. ["function", "$name", "(", "$name", ")", "{", "brush", ".", "circle", "(", "$name",
        ",", "$num", ",", "$num", ")", ";", "}"] for `function f(x) { brush.circle(x, 2, 3); }`.
    """
    data = source.encode("utf-8", errors="replace")
    root = parse(data).root_node
    declared: set[bytes] = set()
    leaves: list[Node] = []
    stack: list[tuple[Node, Node | None]] = [(root, None)]
    while stack:
        node, parent = stack.pop()
        if node.type == "comment":
            continue
        if node.type == "identifier" and declares(node, parent):
            declared.add(node.text or b"")
        if node.child_count == 0 or node.type in _STRING_TYPES or node.type == "number":
            leaves.append(node)
        else:
            stack.extend((child, node) for child in reversed(node.children))
    tokens = []
    for node in leaves:
        if node.type == "number":
            tokens.append(NUMBER_TOKEN)
        elif node.type in _STRING_TYPES:
            tokens.append(STRING_TOKEN)
        elif node.type in _NAME_TYPES and (node.text or b"") in declared:
            tokens.append(NAME_TOKEN)
        elif node.type in _NAME_TYPES or node.type == "property_identifier":
            tokens.append(node_text(node)[:HEAD_BYTES])
        else:
            tokens.append(node.type if node.is_named else node_text(node)[:HEAD_BYTES])
    return tokens
