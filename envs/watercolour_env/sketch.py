"""Pull a p5.js sketch out of a model reply and take stock of it with a real JavaScript parser.

Pure functions, no browser: the environment gates on them before rendering and the trainer
imports them to log rollouts. The parser is tree-sitter with tree-sitter-javascript (maintained
by the tree-sitter organisation, prebuilt wheels, error-tolerant: a cut-off reply still yields a
tree and the position of its first error, and parsing a typical sketch takes well under 1 ms).
Because names are read from the syntax tree, a word in a comment or a string is never a call:
the regex gate of the public reproduction rejected a third of a 35B model's sketches for "the
centre point (300, 300)" in a comment.
"""

from __future__ import annotations

import re
import threading
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

import tree_sitter_javascript
from tree_sitter import Language, Node, Parser

ALLOWED_BRUSH_METHODS = (
    "scaleBrushes",
    "noStroke",
    "fill",
    "noFill",
    "fillBleed",
    "fillTexture",
    "beginShape",
    "vertex",
    "endShape",
    "circle",
)
"""The ten p5.brush methods of the system prompt's allowlist (decision 0003, "The recipe")."""

BRUSH_PAINT_METHODS = frozenset(
    {"circle", "endShape", "rect", "polygon", "line", "flowLine", "spline", "arc", "endStroke"}
)
"""p5.brush calls that put paint on the canvas; the others only set state."""

# Objects whose members are globals: `window.fetch(...)` is `fetch(...)`; in p5's global mode
# `this` inside setup and draw is the window too.
GLOBAL_OBJECTS = frozenset({"window", "self", "globalThis", "top", "parent", "frames", "this"})

_FENCE_MARK = re.compile(r"```|~~~")
_LANGUAGE = Language(tree_sitter_javascript.language())
_local = threading.local()


@dataclass(frozen=True)
class SketchInventory:
    """What a sketch's syntax tree contains.

    Attributes:
        brush_calls: call sites per p5.brush method, e.g. {"fill": 12, "circle": 3}.
        global_calls: call sites per plain or global function, e.g. {"createCanvas": 1, "fetch": 1}.
        member_calls: call sites per `object.method` of objects other than `brush`.
        constructed: names used with `new`, e.g. {"Worker"}.
        references: every identifier the code reads or writes (globals via `window.` included).
        declared: names the sketch declares itself (variables, functions, parameters, classes);
            a call or reference to one of them is to the sketch's own code, not a global.
        computed: objects whose members the code reaches by a computed name (`window[name]`,
            `brush["li" + "ne"]`): the names cannot be read, so no check of names holds there.
        urls: string literals that look like a URL or a data URI.
        dynamic_import: whether the code calls `import(...)`.
        has_setup: whether the sketch defines `setup`.
        canvas: the `createCanvas` arguments as (width, height, renderer) with None where not a
            literal, or None when the sketch never creates a canvas.
        syntax_error: "line L, column C" of the first syntax error, or None.
        fills: call sites of `brush.fill`.
        shapes: call sites of p5.brush painting methods.
        lines: non-empty source lines.
        approx_tokens: characters of the code (`code_text`: no comments, whitespace runs as one
            space) / 4, the usual ratio for code under BPE tokenizers; the trainer passes exact
            counts of the same text from the policy's tokenizer when it has them.
    """

    brush_calls: dict[str, int] = field(default_factory=dict)
    global_calls: dict[str, int] = field(default_factory=dict)
    member_calls: dict[str, int] = field(default_factory=dict)
    constructed: frozenset[str] = frozenset()
    references: frozenset[str] = frozenset()
    declared: frozenset[str] = frozenset()
    computed: frozenset[str] = frozenset()
    urls: tuple[str, ...] = ()
    dynamic_import: bool = False
    has_setup: bool = False
    canvas: tuple[int | None, int | None, str | None] | None = None
    syntax_error: str | None = None
    fills: int = 0
    shapes: int = 0
    lines: int = 0
    approx_tokens: int = 0

    @property
    def paints_with_brush(self) -> bool:
        """True when at least one p5.brush painting method is called."""
        return self.shapes > 0


def extract_sketch(reply: str) -> str | None:
    """Returns the JavaScript of a model reply, or None when it holds no sketch.

    Fenced blocks (```js, ```javascript, ```p5, bare ``` or ~~~) win over bare code; of several
    blocks, the first that defines `setup` is taken, else the longest (so the gate can name
    the missing `setup`). A reply without fences is taken whole only if it defines `setup`, so
    prose is never mistaken for code. An unterminated fence (a reply cut off by the token
    budget) yields what was written.

    Args:
        reply: the model's raw completion text.

    Returns:
        The sketch source, stripped, or None.
    """
    blocks = fenced_blocks(reply)
    for block in blocks:
        if defines_setup(block):
            return block.strip()
    if blocks:
        longest = max(blocks, key=len).strip()
        return longest or None
    if defines_setup(reply):
        return reply.strip()
    return None


def fenced_blocks(reply: str) -> list[str]:
    """The bodies of a reply's fenced blocks, in order, in time linear in the reply's length.

    A fence is three backticks or tildes anywhere, then the rest of its line (a language tag or
    anything else); the body runs to the next fence of the same kind, or to the end of the reply
    when it is cut off. A fence with no line break after it opens nothing, and neither can any
    later one. A scan, not a backtracking pattern: the pattern it replaces took 11 s on a
    256 KiB reply of one fence and a letter repeated (docs/LOG.md, issue 32).

    Args:
        reply: the model's raw completion text.

    Returns:
        Each block's text between its opening line and its closing fence, untrimmed.
    """
    blocks, at = [], 0
    while (opening := _FENCE_MARK.search(reply, at)) is not None:
        mark = opening.group()
        line_end = reply.find("\n", opening.end())
        if line_end < 0:
            break
        closing = reply.find(mark, line_end + 1)
        end = len(reply) if closing < 0 else closing
        blocks.append(reply[line_end + 1 : end])
        at = end + len(mark)
    return blocks


def defines_setup(source: str) -> bool:
    """True when the code (not a comment or a string) defines a `setup` function."""
    return inspect_sketch(source).has_setup


def inspect_sketch(source: str) -> SketchInventory:
    """Parses a sketch and takes stock of its calls, names, canvas and first syntax error."""
    data = source.encode("utf-8")
    tree = _parser().parse(data)
    facts = _Facts(data)
    # parents travel with their children: tree-sitter's `Node.parent` walks down from the root,
    # which made deep trees quadratic (docs/LOG.md, issue 32)
    stack: list[tuple[Node, Node | None]] = [(tree.root_node, None)]
    while stack:
        node, parent = stack.pop()
        facts.visit(node, parent)
        stack.extend((child, node) for child in reversed(node.children))
    calls = facts.brush_calls
    return SketchInventory(
        brush_calls=dict(calls),
        global_calls=dict(facts.global_calls),
        member_calls=dict(facts.member_calls),
        constructed=frozenset(facts.constructed),
        references=frozenset(facts.references),
        declared=frozenset(facts.declared),
        computed=frozenset(facts.computed),
        urls=tuple(facts.urls),
        dynamic_import=facts.dynamic_import,
        has_setup=facts.has_setup,
        canvas=facts.canvas,
        syntax_error=facts.syntax_error,
        fills=calls.get("fill", 0),
        shapes=sum(n for name, n in calls.items() if name in BRUSH_PAINT_METHODS),
        lines=sum(1 for line in source.splitlines() if line.strip()),
        approx_tokens=len(_without_comments(data, facts.comments)) // 4,
    )


def code_text(source: str) -> str:
    """The sketch as the length term counts it: comments dropped, each run of whitespace one space.

    Padding a sketch with comments or blank lines earns nothing (issue 33): the length term counts
    this text, in the policy's tokens where the trainer sends them, else its characters / 4.

    Args:
        source: JavaScript source; text that is not valid UTF-8 is read with replacement.

    Returns:
        The code, e.g. "function setup() { brush.circle(1, 2, 3); }" for the same with a comment.
    """
    data = source.encode("utf-8", errors="replace")
    stack, comments = [_parser().parse(data).root_node], []
    while stack:
        node = stack.pop()
        if node.type == "comment":
            comments.append((node.start_byte, node.end_byte))
        else:
            stack.extend(node.children)
    return _without_comments(data, comments)


def _without_comments(data: bytes, comments: list[tuple[int, int]]) -> str:
    """`data` with the byte ranges `comments` cut out and whitespace runs made one space, stripped."""
    kept, at = [], 0
    for start, end in sorted(comments):
        kept.append(data[at:start])
        at = max(at, end)
    kept.append(data[at:])
    return " ".join(b" ".join(kept).decode("utf-8", errors="replace").split())


def _parser() -> Parser:
    """One parser per thread: tree-sitter parsers are not safe to share between threads."""
    parser = getattr(_local, "parser", None)
    if parser is None:
        parser = _local.parser = Parser(_LANGUAGE)
    return parser


def _text(node: Node | None) -> str:
    return node.text.decode("utf-8", errors="replace") if node is not None and node.text is not None else ""


HEAD_BYTES = 200
"""The most of a node's text the walk reads where the node may be large (a URL literal's start, an
expression's name): enough for every check, and no node read whole more than once."""
_URL = re.compile(r"^\s*(?:https?:|wss?:|data:|blob:|//[\w.-])", re.IGNORECASE)
_FUNCTION_VALUES = frozenset({"function_expression", "function", "arrow_function", "generator_function"})


class _Facts:
    """Accumulates what one walk over the syntax tree finds."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.brush_calls: Counter[str] = Counter()
        self.global_calls: Counter[str] = Counter()
        self.member_calls: Counter[str] = Counter()
        self.constructed: set[str] = set()
        self.references: set[str] = set()
        self.declared: set[str] = set()
        self.computed: set[str] = set()
        self.urls: list[str] = []
        self.dynamic_import = False
        self.has_setup = False
        self.canvas: tuple[int | None, int | None, str | None] | None = None
        self.syntax_error: str | None = None
        self.comments: list[tuple[int, int]] = []  # byte ranges

    def head(self, node: Node | None, limit: int = HEAD_BYTES) -> str:
        """The first `limit` bytes of a node's text.

        Nested nodes read whole would copy their text again and again (`x.a().a()...` made the
        walk quadratic; docs/LOG.md, issue 32).
        """
        if node is None:
            return ""
        return self.data[node.start_byte : min(node.end_byte, node.start_byte + limit)].decode("utf-8", "replace")

    def visit(self, node: Node, parent: Node | None) -> None:
        if (node.is_error or node.is_missing) and self.syntax_error is None:
            row, column = node.start_point
            self.syntax_error = f"line {row + 1}, column {column + 1}"
        kind = node.type
        if kind == "comment":
            self.comments.append((node.start_byte, node.end_byte))
        elif kind == "call_expression":
            self._call(node)
        elif kind == "new_expression":
            constructor = node.child_by_field_name("constructor")
            self.constructed.add(self._global_name(constructor) or self.head(constructor))
        elif kind in ("identifier", "shorthand_property_identifier_pattern", "shorthand_property_identifier"):
            self.references.add(_text(node))
            if _declares(node, parent):
                self.declared.add(_text(node))
        elif kind == "subscript_expression":
            obj = node.child_by_field_name("object")
            if obj is not None and obj.type in ("identifier", "this") and _text(obj) in GLOBAL_OBJECTS | {"brush"}:
                self.computed.add(_text(obj))
        elif kind == "member_expression":
            name = self._global_name(node)
            if name:
                self.references.add(name)
        elif kind in ("string", "template_string"):
            text = self.head(node)
            literal = text[1:-1] if node.end_byte - node.start_byte <= HEAD_BYTES else text[1:]
            if _URL.match(literal):
                self.urls.append(literal[:80])
        elif kind in ("function_declaration", "generator_function_declaration"):
            self.has_setup |= _text(node.child_by_field_name("name")) == "setup"
        elif kind == "variable_declarator":
            value = node.child_by_field_name("value")
            if _text(node.child_by_field_name("name")) == "setup" and value is not None:
                self.has_setup |= value.type in _FUNCTION_VALUES
        elif kind == "assignment_expression":
            left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
            if (self.head(left) == "setup" or self._global_name(left) == "setup") and right is not None:
                self.has_setup |= right.type in _FUNCTION_VALUES

    def _call(self, node: Node) -> None:
        function = node.child_by_field_name("function")
        if function is None:
            return
        if function.type == "import":
            self.dynamic_import = True
        elif function.type == "identifier":
            name = _text(function)
            self.global_calls[name] += 1
            if name == "createCanvas":
                self.canvas = _canvas_arguments(node.child_by_field_name("arguments"), self.head)
        elif function.type == "member_expression":
            obj, prop = function.child_by_field_name("object"), _text(function.child_by_field_name("property"))
            if obj is not None and obj.type == "identifier" and _text(obj) == "brush":
                self.brush_calls[prop] += 1
            elif obj is not None and obj.type in ("identifier", "this") and _text(obj) in GLOBAL_OBJECTS:
                self.global_calls[prop] += 1
            else:
                self.member_calls[f"{self.head(obj)}.{prop}"] += 1

    @staticmethod
    def _global_name(node: Node | None) -> str | None:
        """`window.fetch` -> "fetch"; None for any other expression."""
        if node is None or node.type != "member_expression":
            return None
        obj = node.child_by_field_name("object")
        if obj is not None and obj.type in ("identifier", "this") and _text(obj) in GLOBAL_OBJECTS:
            return _text(node.child_by_field_name("property"))
        return None


_DECLARING_PARENTS = frozenset(
    {
        "formal_parameters",
        "array_pattern",
        "object_pattern",
        "rest_pattern",
        "pair_pattern",
        "catch_clause",
        "class_declaration",
        "function_declaration",
        "generator_function_declaration",
        "function_expression",
        "import_specifier",
        "namespace_import",
        "import_clause",
    }
)


def _declares(node: Node, parent: Node | None) -> bool:
    """Whether this identifier (a child of `parent`) is the name being declared, not a use."""
    if parent is None:
        return False
    if parent.type in ("variable_declarator", "assignment_pattern"):
        return parent.child_by_field_name("name" if parent.type == "variable_declarator" else "left") == node
    if parent.type == "arrow_function":
        return parent.child_by_field_name("parameter") == node
    if parent.type in ("for_in_statement",):
        return parent.child_by_field_name("left") == node
    if parent.type in ("function_declaration", "function_expression", "class_declaration"):
        return parent.child_by_field_name("name") == node
    return parent.type in _DECLARING_PARENTS


def _canvas_arguments(
    arguments: Node | None, head: Callable[[Node | None], str]
) -> tuple[int | None, int | None, str | None]:
    """(width, height, renderer) of a createCanvas call; None where not a literal."""
    values = [child for child in (arguments.named_children if arguments else []) if child.type != "comment"]

    def number(i: int) -> int | None:
        if i < len(values) and values[i].type == "number":
            try:
                return int(float(_text(values[i])))
            except (ValueError, OverflowError):  # 1e999 is a JavaScript number, not a Python int
                return None
        return None

    renderer = None
    if len(values) > 2:
        node = values[2]
        renderer = head(node.child_by_field_name("property")) if node.type == "member_expression" else head(node)
    return number(0), number(1), renderer
