"""Code that can run: the parts of a sketch the length term counts, with dead code cut out.

Padding a sketch with code that never runs used to pay: a function never called lifted an
honest painting 0.927 -> 0.970, and a re-coded copy with dead code scored above every pool
painting (issue 54). The length term counts `sketch.code_text`, which now drops what this module
finds dead, read from the syntax tree alone (pure, no render):

- a top-level declaration (function, class, `let`/`const`/`var`) that no code reachable from
  p5's entry points (`P5_ENTRY_POINTS`) or from a top-level statement names, transitively (a
  name read only inside the dead code below does not count);
- a statement after a `return`, `throw`, `break` or `continue` of its block;
- the branch of an `if`, and the body of a `while` or `for`, that a literal condition never takes
  (`if (false)`, `if (0)`, `while (null)`, `if (!true)`, ...).

What it does not see, since it does not run the sketch: a condition that is always false but not
a literal (`if (width < 0)`), a local variable or nested function never used, and code that runs
and paints nothing. Those still count. The gate refuses computed access (`window[name]`), so a
function is only ever called by a name this walk reads.
"""

from __future__ import annotations

import bisect

from tree_sitter import Node

from watercolour_env import syntax

P5_ENTRY_POINTS = frozenset(
    {
        "preload",
        "setup",
        "draw",
        "windowResized",
        "mousePressed",
        "mouseReleased",
        "mouseClicked",
        "mouseMoved",
        "mouseDragged",
        "mouseWheel",
        "doubleClicked",
        "keyPressed",
        "keyReleased",
        "keyTyped",
        "touchStarted",
        "touchMoved",
        "touchEnded",
        "deviceMoved",
        "deviceTurned",
        "deviceShaken",
    }
)
"""Functions p5 calls by name: live whether or not the sketch names them."""

_DECLARATIONS = frozenset({"function_declaration", "generator_function_declaration", "class_declaration"})
_VARIABLES = frozenset({"lexical_declaration", "variable_declaration"})
_JUMPS = frozenset({"return_statement", "throw_statement", "break_statement", "continue_statement"})
_FALSY = frozenset({"false", "null", "undefined"})
_NAMES = frozenset({"identifier", "shorthand_property_identifier"})


def dead_ranges(root: Node) -> list[tuple[int, int]]:
    """Byte ranges (start, end) of the dead code of a parsed sketch, in source order, not overlapping.

    Args:
        root: the tree-sitter root of the sketch (`syntax.parse(data).root_node`).
    """
    local = _merged(_unrun_blocks(root))
    return _merged(_unreached_declarations(root, local) + local)


def _unrun_blocks(root: Node) -> list[tuple[int, int]]:
    """Statements after a jump, and branches and loop bodies a literal condition never runs."""
    ranges: list[tuple[int, int]] = []
    stack, visited = [root], 0
    while stack:
        node = stack.pop()
        visited += 1
        if visited % 4096 == 0:
            syntax.check_budget()
        if node.type in ("statement_block", "program", "switch_case", "switch_default"):
            ranges += _after_jumps(node)
        literal = _literal_truth(node.child_by_field_name("condition")) if node.type == "if_statement" else None
        if literal is not None:
            branch = node.child_by_field_name("consequence" if literal is False else "alternative")
            if branch is not None:
                ranges.append((branch.start_byte, branch.end_byte))
        if (
            node.type in ("while_statement", "for_statement")
            and _literal_truth(node.child_by_field_name("condition")) is False
        ):
            body = node.child_by_field_name("body")
            if body is not None:
                ranges.append((body.start_byte, body.end_byte))
        stack.extend(node.children)
    return ranges


def live_text(data: bytes, skip: list[tuple[int, int]]) -> bytes:
    """`data` without the byte ranges `skip` (comments, dead code), each cut replaced by a space."""
    kept, at = [], 0
    for start, end in sorted(skip):
        if start > at:
            kept.append(data[at:start])
        at = max(at, end)
    kept.append(data[at:])
    return b" ".join(kept)


def parse(data: bytes) -> Node:
    """The tree-sitter root of a sketch's bytes (`syntax.parse`: budgeted, kept)."""
    return syntax.parse(data).root_node


def _unreached_declarations(root: Node, unrun: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Top-level declarations that nothing reachable from the entry points or top-level code names.

    Names read inside `unrun` (merged byte ranges of code that never runs) reach nothing.
    """
    declares: dict[str, list[int]] = {}
    statements = [child for child in root.named_children if child.type != "comment"]
    names_of: list[set[str]] = []
    for i, statement in enumerate(statements):
        names = _declared_names(statement)
        names_of.append(names)
        for name in names:
            declares.setdefault(name, []).append(i)
    live = [i for i, names in enumerate(names_of) if not names or names & P5_ENTRY_POINTS]
    reached = set(live)
    starts = [start for start, _ in unrun]  # once: per statement it made many small ones quadratic
    while live:
        i = live.pop()
        syntax.check_budget()  # per statement too: many small ones never reach a walk's count
        for name in _named(statements[i], unrun, starts) - names_of[i]:
            # popped: a name's declarations are all reached at its first use (a loop over them at
            # every use was quadratic in `var a;` x n then `a;` x n; docs/LOG.md, 2026-12-07)
            for j in declares.pop(name, []):
                if j not in reached:
                    reached.add(j)
                    live.append(j)
        # a declaration naming itself (recursion) does not make itself live
    return [(s.start_byte, s.end_byte) for i, s in enumerate(statements) if i not in reached]


def _declared_names(statement: Node) -> set[str]:
    """Names a top-level statement declares; empty for anything that is not a declaration."""
    if statement.type in _DECLARATIONS:
        name = statement.child_by_field_name("name")
        return {name.text.decode("utf-8", "replace")} if name is not None and name.text else set()
    if statement.type in _VARIABLES:
        names = set()
        for declarator in statement.named_children:
            target = declarator.child_by_field_name("name") if declarator.type == "variable_declarator" else None
            if target is None or target.type != "identifier":
                return set()  # a pattern (`const [a, b] = ...`): kept as code that runs
            names.add(target.text.decode("utf-8", "replace") if target.text else "")
        return names
    return set()


def _named(node: Node, unrun: list[tuple[int, int]], starts: list[int]) -> set[str]:
    """Every identifier a subtree names (reads, calls, or declares) outside the ranges `unrun`.

    `starts` holds their start bytes, for bisection.
    """
    names, stack, visited = set(), [node], 0
    while stack:
        here = stack.pop()
        visited += 1
        if visited % 4096 == 0:
            syntax.check_budget()  # inside the gate's budget (syntax.parse_budget), a slow walk stops
        k = bisect.bisect_right(starts, here.start_byte) - 1
        if k >= 0 and here.end_byte <= unrun[k][1]:
            continue  # inside code that never runs
        if here.type in _NAMES and here.text:
            names.add(here.text.decode("utf-8", "replace"))
        stack.extend(here.children)
    return names


def _after_jumps(block: Node) -> list[tuple[int, int]]:
    """The statements of a block after its first `return`, `throw`, `break` or `continue`."""
    statements = [child for child in block.named_children if child.type != "comment"]
    for i, statement in enumerate(statements[:-1]):
        if statement.type in _JUMPS:
            return [(statements[i + 1].start_byte, statements[-1].end_byte)]
    return []


def _literal_truth(condition: Node | None) -> bool | None:
    """True or False for a condition that is a literal (in parentheses, under `!`); None otherwise."""
    node = condition
    negations = 0
    while node is not None:
        if node.type == "parenthesized_expression" and node.named_child_count == 1:
            node = node.named_children[0]
        elif node.type == "unary_expression" and node.child_count == 2 and node.children[0].type == "!":
            negations += 1
            node = node.children[1]
        else:
            break
    if node is None:
        return None
    if node.type == "true":
        value = True
    elif node.type in _FALSY or (node.type == "undefined"):
        value = False
    elif node.type == "number":
        try:
            value = float((node.text or b"0").decode().replace("_", "")) != 0.0
        except ValueError:
            return None
    elif node.type == "string":
        value = len(node.text or b"") > 2
    else:
        return None
    return value if negations % 2 == 0 else not value


def _merged(ranges: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Sorted ranges with overlaps joined."""
    out: list[tuple[int, int]] = []
    for start, end in sorted(ranges):
        if out and start <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], end))
        else:
            out.append((start, end))
    return out
