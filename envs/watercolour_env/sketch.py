"""Pull a p5.js sketch out of a model reply and take stock of it, without a browser.

Pure functions: the environment uses them before rendering and the trainer imports them to log
rollouts. Names are read from code with comments and string literals blanked out, so "the
centre point (300, 300)" in a comment is never a call (the regex gate of the public
reproduction rejected a third of a 35B model's sketches for that). Issue 4 replaces the
scanner with a real JavaScript parser.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

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
"""The ten p5.brush methods of the system prompt's allowlist (FIELD-NOTES, "The recipe")."""

# Calls that put paint on the canvas; the rest only set state.
BRUSH_PAINT_METHODS = frozenset(
    {"circle", "endShape", "rect", "polygon", "line", "flowLine", "spline", "arc", "endStroke"}
)

_FENCE = re.compile(r"```[ \t]*([A-Za-z0-9_+-]*)[^\n]*\n(.*?)(?:```|\Z)", re.DOTALL)
_SETUP = re.compile(
    r"\bfunction\s+setup\s*\(|\b(?:const|let|var)\s+setup\s*=|\bsetup\s*=\s*(?:async\s*)?(?:function|\()"
)
_BRUSH_CALL = re.compile(r"\bbrush\s*\.\s*([A-Za-z_$][\w$]*)\s*\(")


@dataclass(frozen=True)
class SketchInventory:
    """What a sketch contains, counted on code with comments and strings blanked.

    Attributes:
        brush_calls: call sites per p5.brush method name, e.g. {"fill": 12, "circle": 3}.
        has_setup: whether the sketch defines `setup`.
        fills: call sites of `brush.fill`.
        shapes: call sites of p5.brush painting methods (`circle`, `endShape`, ...).
        lines: non-empty source lines.
        approx_tokens: length in tokens, approximated as characters / 4 (the usual ratio
            for code under BPE tokenizers; the trainer passes exact counts when it has them).
    """

    brush_calls: dict[str, int] = field(default_factory=dict)
    has_setup: bool = False
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

    Fenced blocks (```js, ```javascript, ```p5, bare ```) win over bare code; of several
    blocks, the first that defines `setup` is taken, else the longest (so the gate can name
    the missing `setup`). A reply without fences is taken whole only if it defines `setup`, so
    prose is never mistaken for code. An unterminated fence (a reply cut off by the token
    budget) yields what was written.

    Args:
        reply: the model's raw completion text.

    Returns:
        The sketch source, stripped, or None.
    """
    blocks = [m.group(2) for m in _FENCE.finditer(reply)]
    for block in blocks:
        if defines_setup(block):
            return block.strip()
    if blocks:
        longest = max(blocks, key=len).strip()
        return longest or None
    if defines_setup(reply):
        return reply.strip()
    return None


def defines_setup(source: str) -> bool:
    """True when the code (not a comment or a string) defines a `setup` function."""
    return bool(_SETUP.search(blank_comments_and_strings(source)))


def inspect_sketch(source: str) -> SketchInventory:
    """Counts p5.brush calls, fills, shapes, lines and approximate tokens of a sketch."""
    code = blank_comments_and_strings(source)
    calls = Counter(m.group(1) for m in _BRUSH_CALL.finditer(code))
    return SketchInventory(
        brush_calls=dict(calls),
        has_setup=bool(_SETUP.search(code)),
        fills=calls.get("fill", 0),
        shapes=sum(n for name, n in calls.items() if name in BRUSH_PAINT_METHODS),
        lines=sum(1 for line in source.splitlines() if line.strip()),
        approx_tokens=len(source) // 4,
    )


def blank_comments_and_strings(source: str) -> str:
    """Replaces comments and the insides of string literals with spaces, keeping offsets.

    Handles `//` and `/* */` comments, '...', "..." and `...` literals with escapes. Template
    substitutions (`${...}`) are blanked too; regex literals are read as code.
    """
    out = list(source)
    i, n = 0, len(source)
    while i < n:
        c = source[i]
        if c == "/" and source.startswith("//", i):
            end = source.find("\n", i)
            end = n if end < 0 else end
        elif c == "/" and source.startswith("/*", i):
            end = source.find("*/", i + 2)
            end = n if end < 0 else end + 2
        elif c in "'\"`":
            end = i + 1
            while end < n and source[end] != c:
                if source[end] == "\\":
                    end += 1
                elif c != "`" and source[end] == "\n":
                    break
                end += 1
            end = min(end + 1, n)
            for j in range(i + 1, end - 1):
                if out[j] != "\n":
                    out[j] = " "
            i = end
            continue
        else:
            i += 1
            continue
        for j in range(i, end):
            if out[j] != "\n":
                out[j] = " "
        i = end
    return "".join(out)
