"""Edited copies of a pool sketch: what a policy that remembers the pool would send back.

Each edit keeps the painting and changes what a naive comparison looks at: colours, numbers,
names, order, padding, orientation, place. The copy guard must name every one `copied_reference`
(issue 33); `watercolour audit` makes them on the fly from the deployment's own pool.

    >>> sorted(edited_copies("function draw() { brush.circle(10, 20, 30); }")) == sorted(EDITS)
    True
"""

from __future__ import annotations

import random
import re

from watercolour_env.sketch import inspect_sketch

EDITS = ("verbatim", "recoloured", "jittered", "renamed", "reordered", "padded", "rotated", "mirrored", "moved")

_HEX = re.compile(r"#[0-9a-fA-F]{6}\b")
_NUMBER = re.compile(r"(?<![\w.#])(\d+\.?\d*)(?![\w.])")
_FUNCTION = re.compile(r"^function\s+\w+\s*\([^)]*\)\s*\{.*?^\}\s*$", re.MULTILINE | re.DOTALL)
_DRAW_TRANSLATE = re.compile(r"(function draw\(\)\s*\{\s*\n(?:.*\n)*?\s*translate\(-width / 2, -height / 2\);)")


def recoloured(source: str, rng: random.Random) -> str:
    """Every #rrggbb colour replaced by a nearby one (each channel moved by up to 40)."""

    def shift(match: re.Match) -> str:
        channels = [int(match.group(0)[i : i + 2], 16) for i in (1, 3, 5)]
        return "#" + "".join(f"{min(255, max(0, c + rng.randint(-40, 40))):02x}" for c in channels)

    return _HEX.sub(shift, source)


def jittered(source: str, rng: random.Random) -> str:
    """Every number from 20 up moved by up to 4% (positions and sizes; not 600, not opacities)."""

    def move(match: re.Match) -> str:
        value = float(match.group(1))
        if value < 20 or value in (255, 600) or "." in match.group(1):
            return match.group(1)
        return str(round(value * (1 + rng.uniform(-0.04, 0.04))))

    return _NUMBER.sub(move, source)


def renamed(source: str) -> str:
    """Every name the sketch declares, other than setup and draw, given another name."""
    names = sorted(inspect_sketch(source).declared - {"setup", "draw"}, key=len, reverse=True)
    for i, name in enumerate(names):
        source = re.sub(rf"(?<![\w.$]){re.escape(name)}(?![\w$])", f"v{i}_{name[::-1]}", source)
    return source


def reordered(source: str) -> str:
    """The top-level functions in reverse order (JavaScript hoists them: the same painting)."""
    functions = _FUNCTION.findall(source)
    rest = _FUNCTION.sub("", source).strip()
    return "\n\n".join([rest, *reversed(functions)]) if rest else "\n\n".join(reversed(functions))


def padded(source: str) -> str:
    """Dead code and comments around the copy: a function never called and a long comment."""
    dead = (
        "function unusedStudy(a, b) {\n  let total = 0;\n  for (let i = 0; i < a; i++) {\n"
        "    total += b * i;\n  }\n  return total;\n}\n"
    )
    note = "// " + "a study in translucent washes, " * 20 + "\n"
    return note + dead * 6 + source + "\n" + note


def _transformed(source: str, lines: str) -> str:
    """The copy with p5 transforms added after draw's first translate (or at draw's start)."""
    if _DRAW_TRANSLATE.search(source):
        return _DRAW_TRANSLATE.sub(lambda m: m.group(1) + "\n  " + lines, source, count=1)
    return source.replace("function draw() {", "function draw() {\n  " + lines, 1)


def edited_copies(source: str, seed: int = 0) -> dict[str, str]:
    """Edit name -> the edited copy, for each of `EDITS`; deterministic for a seed."""
    rng = random.Random(seed)
    return {
        "verbatim": source,
        "recoloured": recoloured(source, rng),
        "jittered": jittered(source, rng),
        "renamed": renamed(source),
        "reordered": reordered(source),
        "padded": padded(source),
        "rotated": _transformed(source, "translate(300, 300);\n  rotate(35);\n  translate(-300, -300);"),
        "mirrored": _transformed(source, "translate(600, 0);\n  scale(-1, 1);"),
        "moved": _transformed(source, "translate(40, 25);"),
    }
