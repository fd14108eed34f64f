"""Pull a p5.js sketch out of a model reply and take stock of it with a real JavaScript parser.

The parser and its walk over the syntax tree are `syntax`'s; this module is the API: the reply's
sketch, and its inventory.

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
from dataclasses import dataclass, field

from tree_sitter import Node

from watercolour_env.live import dead_ranges
from watercolour_env.syntax import TreeFacts, check_budget, parse, reply_cache

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

_FENCE_MARK = re.compile(r"```|~~~")


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
        approx_tokens: characters of the code (`code_text`: no comments or dead code, whitespace
            runs as one space) / 4, the usual ratio for code under BPE tokenizers; the trainer passes exact
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
    blocks = [block.strip() for block in fenced_blocks(reply)]  # the gate then reads the same text
    for block in blocks:
        if defines_setup(block):
            return block
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
    """Parses a sketch and takes stock of its calls, names, canvas and first syntax error.

    The last inventory is kept for the reply being checked (`syntax.reply_cache`): the gate asks
    for the chosen block's twice.

    Raises:
        syntax.ParseTooSlow: inside a `syntax.parse_budget` that the parse or the walk used up.
    """
    last = reply_cache().get("inventory")
    if last is not None and last[0] == source:
        return last[1]
    data = source.encode("utf-8")
    tree = parse(data)
    facts = TreeFacts(data)
    # parents travel with their children: tree-sitter's `Node.parent` walks down from the root,
    # which made deep trees quadratic (docs/LOG.md, issue 32)
    stack: list[tuple[Node, Node | None]] = [(tree.root_node, None)]
    visited = 0
    while stack:
        node, parent = stack.pop()
        facts.visit(node, parent)
        stack.extend((child, node) for child in reversed(node.children))
        visited += 1
        if visited % 4096 == 0:
            check_budget()
    calls = facts.brush_calls
    inventory = SketchInventory(
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
        approx_tokens=len(_without_comments(data, facts.comments + dead_ranges(tree.root_node))) // 4,
    )
    reply_cache()["inventory"] = (source, inventory)
    return inventory


def code_text(source: str) -> str:
    """The sketch as the length term counts it: comments and dead code dropped, whitespace runs one space.

    Padding a sketch with comments or blank lines earns nothing (issue 33), nor with code that
    never runs (`live.dead_ranges`: declarations nothing reachable names, code after a return,
    branches a literal condition never takes; issue 54): the length term counts this text, in the
    policy's tokens where the trainer sends them, else its characters / 4.

    Args:
        source: JavaScript source; text that is not valid UTF-8 is read with replacement.

    Returns:
        The code, e.g. "function setup() { brush.circle(1, 2, 3); }" for the same with a comment.
    """
    data = source.encode("utf-8", errors="replace")
    root = parse(data).root_node
    stack, comments = [root], []
    while stack:
        node = stack.pop()
        if node.type == "comment":
            comments.append((node.start_byte, node.end_byte))
        else:
            stack.extend(node.children)
    return _without_comments(data, comments + dead_ranges(root))


def _without_comments(data: bytes, comments: list[tuple[int, int]]) -> str:
    """`data` with the byte ranges `comments` (and dead code) cut out, whitespace runs one space, stripped."""
    kept, at = [], 0
    for start, end in sorted(comments):
        kept.append(data[at:start])
        at = max(at, end)
    kept.append(data[at:])
    return " ".join(b" ".join(kept).decode("utf-8", errors="replace").split())
