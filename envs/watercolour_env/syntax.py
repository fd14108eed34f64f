"""The JavaScript parser and the one walk over a sketch's syntax tree that the gate reads.

`sketch.inspect_sketch` turns what the walk finds (`TreeFacts`) into a `SketchInventory`;
`tokens` reads the same tree for its own counts. tree-sitter with tree-sitter-javascript: one
parser per thread, error-tolerant (a cut-off reply still yields a tree). `parse` bounds a parse
in CPU time and keeps the last few trees, so one reply is parsed once. The walk reads at most
`HEAD_BYTES` of a node that may be large, so no node is read whole more than once.
"""

from __future__ import annotations

import re
import threading
import time
from collections import Counter, OrderedDict
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import tree_sitter_javascript
from tree_sitter import Language, Node, Parser, Tree

# Objects whose members are globals: `window.fetch(...)` is `fetch(...)`; in p5's global mode
# `this` inside setup and draw is the window too.
GLOBAL_OBJECTS = frozenset({"window", "self", "globalThis", "top", "parent", "frames", "this"})

_LANGUAGE = Language(tree_sitter_javascript.language())
_local = threading.local()


def parser() -> Parser:
    """One parser per thread: tree-sitter parsers are not safe to share between threads."""
    parser = getattr(_local, "parser", None)
    if parser is None:
        parser = _local.parser = Parser(_LANGUAGE)
    return parser


PARSE_CPU_S = 2.0
"""The CPU seconds one reply's source check may take (its parses and walks together). An honest
sketch takes milliseconds (the hibiscus 5-10 ms; 150 KB of plain statements 0.5 s); 256 KiB of
`a<b ` took tree-sitter's error recovery 4.7 s a parse, holding the server's other threads
meanwhile (docs/LOG.md, 2026-12-07). CPU time, not wall time: a verdict must not depend on load."""
TREES_KEPT = 4
"""Trees kept per thread: the gate, the length term and the token counts read one reply's tree.
Each `parse_budget` (one reply's check) starts with none, so a reply's verdict never depends on
what the thread checked before: a tree kept from a check that ran out of budget made the same
reply's second check free of its parse and flipped `unparseable` to passed (docs/LOG.md)."""
_CHUNK = 1024
"""Bytes the parser reads a call. A tree parsed through a callback reads a node's text through it
too: 64 KiB slices made each identifier's text cost 26 us, 1 KiB ones 1.1 us (0.26 from bytes)."""


class ParseTooSlow(ValueError):
    """The parser used up `PARSE_CPU_S`: the reply's doing (the gate's `unparseable`)."""


@contextmanager
def parse_budget(cpu_s: float | None = None) -> Iterator[None]:
    """Every `parse` and `check_budget` inside shares `cpu_s` seconds of this thread's CPU time.

    One reply's check: each fenced block is parsed and walked, and many blocks must not each have
    the whole budget. `cpu_s` defaults to `PARSE_CPU_S`, read at each call.
    """
    reply_cache().clear()
    _local.until = time.thread_time() + (PARSE_CPU_S if cpu_s is None else cpu_s)
    try:
        yield
    finally:
        _local.until = None


def reply_cache() -> dict:
    """This thread's cache of one reply's parse and walk results, emptied by each `parse_budget`."""
    return _local.__dict__.setdefault("cache", {})


def check_budget() -> None:
    """Raises `ParseTooSlow` when this thread's `parse_budget` is spent (a walk calls it now and then)."""
    until = getattr(_local, "until", None)
    if until is not None and time.thread_time() > until:
        raise ParseTooSlow(f"the source check used up its {PARSE_CPU_S:g} CPU seconds")


def parse(data: bytes) -> Tree:
    """The syntax tree of `data`; the last `TREES_KEPT` are kept per thread (see there).

    The parser reads through a callback, so the interpreter runs between its steps: a long parse
    no longer holds the GIL (and with it `/health` and every other session) until it ends.
    Inside `parse_budget` (the gate) the parse stops when the budget is spent; outside it
    (analysis of recorded rollouts) it runs to the end.

    Raises:
        ParseTooSlow: inside `parse_budget`, the budget ran out.
    """
    trees: OrderedDict[bytes, Tree] = reply_cache().setdefault("trees", OrderedDict())
    if (tree := trees.get(data)) is not None:
        trees.move_to_end(data)
        return tree
    until = getattr(_local, "until", None)
    try:
        tree = parser().parse(
            lambda at, _point: data[at : at + _CHUNK],
            progress_callback=lambda *_: until is not None and time.thread_time() > until,
        )
    except ValueError as err:  # tree-sitter's "Parsing failed": the callback stopped it
        parser().reset()
        raise ParseTooSlow(f"the source check used up its {PARSE_CPU_S:g} CPU seconds ({len(data)} bytes)") from err
    trees[data] = tree
    if len(trees) > TREES_KEPT:
        trees.popitem(last=False)
    return tree


def node_text(node: Node | None) -> str:
    """A node's source text, decoded with replacement; "" for no node."""
    return node.text.decode("utf-8", errors="replace") if node is not None and node.text is not None else ""


HEAD_BYTES = 200
"""The most of a node's text the walk reads where the node may be large (a URL literal's start, an
expression's name): enough for every check, and no node read whole more than once."""
_URL = re.compile(r"^\s*(?:https?:|wss?:|data:|blob:|//[\w.-])", re.IGNORECASE)
_FUNCTION_VALUES = frozenset({"function_expression", "function", "arrow_function", "generator_function"})


class TreeFacts:
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
        """Takes in one node; `parent` is the node the walk reached it from (None at the root)."""
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
            self.references.add(node_text(node))
            if declares(node, parent):
                self.declared.add(node_text(node))
        elif kind == "subscript_expression":
            obj = node.child_by_field_name("object")
            if obj is not None and obj.type in ("identifier", "this") and node_text(obj) in GLOBAL_OBJECTS | {"brush"}:
                self.computed.add(node_text(obj))
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
            self.has_setup |= node_text(node.child_by_field_name("name")) == "setup"
        elif kind == "variable_declarator":
            value = node.child_by_field_name("value")
            if node_text(node.child_by_field_name("name")) == "setup" and value is not None:
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
            name = node_text(function)
            self.global_calls[name] += 1
            if name == "createCanvas":
                self.canvas = _canvas_arguments(node.child_by_field_name("arguments"), self.head)
        elif function.type == "member_expression":
            obj, prop = function.child_by_field_name("object"), node_text(function.child_by_field_name("property"))
            if obj is not None and obj.type == "identifier" and node_text(obj) == "brush":
                self.brush_calls[prop] += 1
            elif obj is not None and obj.type in ("identifier", "this") and node_text(obj) in GLOBAL_OBJECTS:
                self.global_calls[prop] += 1
            else:
                self.member_calls[f"{self.head(obj)}.{prop}"] += 1

    @staticmethod
    def _global_name(node: Node | None) -> str | None:
        """`window.fetch` -> "fetch"; None for any other expression."""
        if node is None or node.type != "member_expression":
            return None
        obj = node.child_by_field_name("object")
        if obj is not None and obj.type in ("identifier", "this") and node_text(obj) in GLOBAL_OBJECTS:
            return node_text(node.child_by_field_name("property"))
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


def declares(node: Node, parent: Node | None) -> bool:
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
                return int(float(node_text(values[i])))
            except (ValueError, OverflowError):  # 1e999 is a JavaScript number, not a Python int
                return None
        return None

    renderer = None
    if len(values) > 2:
        node = values[2]
        renderer = head(node.child_by_field_name("property")) if node.type == "member_expression" else head(node)
    return number(0), number(1), renderer
