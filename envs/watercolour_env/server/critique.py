"""The critique a painter reads between revisions: what the picture shows, never how it scored.

An episode with revisions (issue 37) answers each painting but the last with a few sentences in
the words a teacher would use: what the gate refused and why, where the paint sits on the paper,
how much of it is covered, and the palette. It is a description of this picture only. It never
names the pool's paintings, the tiers, the score or its components. Telling a policy how to
please the scorer would pay it for reading the scorer, not for painting. This module's
guarantee is structural: it reads only the gate's verdict (`GateResult`: the sketch, the
violations, the render), imports nothing of the reward or the pool, and a test holds that
(tests/watercolour_env/test_revisions.py).

    >>> critique(GateResult(False, [Violation.NO_SKETCH]))
    'The gate refused this reply: it holds no sketch; reply with one JavaScript code block.'
"""

from __future__ import annotations

import io
import re

import numpy as np
from PIL import Image

from watercolour_env.server.gate import GateResult
from watercolour_env.server.sandbox.picture import PAINT_DELTA, paper_colour
from watercolour_env.terms import Violation

MAX_CRITIQUE_CHARS = 1200
"""A critique is a few sentences: the refusal, the composition, the coverage, the palette."""

REASONS = {
    Violation.NO_SKETCH: "it holds no sketch; reply with one JavaScript code block",
    Violation.REPLY_TOO_LONG: "it is longer than this server reads",
    Violation.UNPARSEABLE: "its code could not be read",
    Violation.SYNTAX_ERROR: "its JavaScript has a syntax error",
    Violation.NO_SETUP: "it defines no setup()",
    Violation.CANVAS_NOT_WEBGL: "its canvas is not createCanvas(600, 600, WEBGL)",
    Violation.CANVAS_SIZE: "its canvas is not 600 by 600",
    Violation.UNKNOWN_BRUSH_METHOD: "it calls a brush method that does not exist",
    Violation.BRUSH_METHOD_NOT_ALLOWED: "it calls a brush method outside the ten allowed",
    Violation.BARE_PRIMITIVE: "it draws with p5's own shapes, not the ten brush methods",
    Violation.EXTERNAL_ACCESS: "it reaches outside the sketch (network, storage or the page)",
    Violation.TEXT_ON_CANVAS: "it writes text on the canvas",
    Violation.CANVAS_CHANGE: "it changes the canvas after setup()",
    Violation.NO_BRUSH_PAINT: "it paints nothing with the brush methods",
    Violation.SKETCH_ERROR: "the sketch threw an error before it finished a frame",
    Violation.RENDER_TIMEOUT: "the sketch did not finish in time",
    Violation.BLANK_CANVAS: "the paper stayed nearly blank",
    Violation.COMPUTED_ACCESS: "it calls methods through computed names",
    Violation.OFFSCREEN_LAYER: "it paints on an offscreen layer",
    Violation.DIRECT_CONTEXT: "it draws on the WebGL context directly",
    Violation.P5_NOT_ALLOWED: "it calls a p5 function that is not allowed",
    Violation.IMAGE_OR_PIXELS: "it loads images or writes pixels",
    Violation.SHADER_OR_3D: "it uses shaders or 3D drawing",
    Violation.BRUSH_ARGUMENT: "it passes a brush method something other than numbers and colours",
    Violation.TAMPERING: "it tampers with the page it runs in",
    Violation.INVALID_FRAME: "its picture could not be read",
    Violation.UNENCODABLE_OBSERVATION: "its report could not be sent",
    Violation.COPIED_REFERENCE: "it reproduces an existing painting; paint one of your own",
}
"""Why the gate refused a reply, in a painter's words (no painting of the pool is named)."""

HUES = (
    (15, "red"),
    (45, "orange"),
    (70, "yellow"),
    (160, "green"),
    (200, "teal"),
    (255, "blue"),
    (290, "violet"),
    (345, "pink"),
    (360, "red"),
)
"""Hue names by the upper bound of their range, in degrees."""

HASH_LITERAL = re.compile(
    r"""(//[^\n]*|/\*.*?(?:\*/|\Z))|(["'`])(#[^"'`\n]{1,64})\2|"[^"\n]*"|'[^'\n]*'|`[^`]*`""", re.DOTALL
)
"""Read left to right: a comment (group 1), a string literal that starts with "#" as a colour
does, with something after it (group 3), or any other string literal; only group 3 is kept. So a
"#" string in a comment is not read as the sketch's, and a "/*" or "//" in a string is not taken
for a comment. An unclosed "/*" runs to the end (in JavaScript it is a syntax error), which keeps
the scan linear: a comment tried again at every later "/*" was quadratic (docs/LOG.md)."""

HEX_COLOUR = re.compile(r"#(?:[0-9a-fA-F]{3,4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})")
"""The hexadecimal forms a colour string may take: "#rgb", "#rgba", "#rrggbb", "#rrggbbaa"."""

EDGE_SPACE = re.compile(r"^(?:\s|\\[nrtfv])+|(?:\s|\\[nrtfv])+$")
"""White space at a string's ends, typed or escaped (a backslash and n): p5 trims it, so "#fff " is a colour."""

MAX_NAMED_COLOURS = 3
"""How many broken colour strings a critique quotes back, each cut to 16 characters."""


def critique(gate: GateResult) -> str:
    """A few sentences on one painting for the painter's next revision; at most `MAX_CRITIQUE_CHARS`.

    Args:
        gate: the gate's verdict on the reply, with its render when one was made.

    Returns:
        The refusal's reasons (when the gate refused it), the first JavaScript error (with the
        sketch's broken "#" colour strings quoted when p5 said "Invalid color string"), and, when
        the render left a picture, its composition, coverage and palette, e.g. "The paint covers
        14% of the paper, ...". Plain text; no number but the coverage and shares of the canvas,
        except in what it quotes of the sketch's own text (the JavaScript error, broken colours).
    """
    sentences = []
    if gate.violations:
        reasons = dict.fromkeys(REASONS.get(v, v.value.replace("_", " ")) for v in gate.violations)
        sentences.append(f"The gate refused this reply: {'; '.join(reasons)}.")
    render = gate.render
    if render is not None and render.js_errors:
        sentences.append(f"JavaScript said: {render.js_errors[0][:200]}.")
        if any("Invalid color string" in error for error in render.js_errors):
            sentences.extend(_broken_colours(gate.sketch or ""))
    unseen = {Violation.BLANK_CANVAS, Violation.INVALID_FRAME} & set(gate.violations)
    if render is not None and render.png is not None and not unseen:
        try:
            sentences.extend(describe(render.png))
        except (OSError, ValueError):  # never a server error for what a sketch painted
            sentences.append("The picture could not be read.")
    return " ".join(sentences)[:MAX_CRITIQUE_CHARS]


def _broken_colours(sketch: str) -> list[str]:
    """A sentence quoting the sketch's "#" strings that are not hexadecimal colours; none if none.

    p5 says only "Invalid color string", not which. A revision that breaks a colour (issue 37's
    64 episodes: "#d5472t", "#e247 0.3", "#8b2530/2"; docs/LOG.md) cannot find it from that.
    Strings in comments, strings p5 reads as colours once trimmed, a bare "#" (a colour built at
    run time) and a string cut at an escaped quote are left out; what is quoted is the sketch's
    own text, with characters that do not print as "?".
    """
    broken = dict.fromkeys(
        "".join(c if c.isprintable() else "?" for c in literal[:16])
        for _, _, literal in HASH_LITERAL.findall(sketch)
        if literal and not literal.endswith("\\") and not HEX_COLOUR.fullmatch(EDGE_SPACE.sub("", literal))
    )
    if not broken:
        return []
    quoted = ", ".join(f'"{literal}"' for literal in list(broken)[:MAX_NAMED_COLOURS])
    return [f'Not colours: {quoted}; a colour string is "#" and 3, 4, 6 or 8 hexadecimal digits.']


def describe(png: bytes) -> list[str]:
    """The composition, coverage and palette of a painting, as sentences; none for bare paper.

    The palette is read from the body of the paint: the half of the painted pixels furthest from
    the paper, since a watercolour's wide pale edges would call every palette pale and muted.
    """
    rgb = np.asarray(Image.open(io.BytesIO(png)).convert("RGB"))
    away = np.abs(rgb.astype(np.int16) - paper_colour(rgb, stride=7)).max(axis=-1)
    paint = away > PAINT_DELTA
    if paint.mean() < 0.001:
        return []
    body = paint & (away >= np.median(away[paint]))
    return [_placement(paint), _palette(rgb[body])]


def _placement(paint: np.ndarray) -> str:
    """Where the paint sits, how much it covers and which edges it touches."""
    height, width = paint.shape
    rows, cols = np.nonzero(paint)
    top, bottom = np.percentile(rows, [1, 99]) / height
    left, right = np.percentile(cols, [1, 99]) / width
    across = ("left of centre", "centred", "right of centre")[_third((left + right) / 2)]
    down = ("high", "at mid-height", "low")[_third((top + bottom) / 2)]
    edges = [
        name
        for name, near in (("top", top), ("bottom", 1 - bottom), ("left", left), ("right", 1 - right))
        if near < 0.01
    ]
    margin = (
        f"it runs off the {' and '.join(edges)} edge{'s' if len(edges) > 1 else ''}"
        if edges
        else "it keeps clear of the edges"
    )
    return (
        f"The paint covers {paint.mean():.0%} of the paper, {across} and {down}, spanning {right - left:.0%} of "
        f"its width and {bottom - top:.0%} of its height; {margin}."
    )


def _third(position: float) -> int:
    """0, 1 or 2: a position in [0, 1] before 0.42, up to 0.58, or after."""
    return 0 if position < 0.42 else 1 if position <= 0.58 else 2


def _palette(painted: np.ndarray) -> str:
    """The painted pixels' main hues, how light and how strong they are."""
    hsv = np.asarray(Image.fromarray(painted.reshape(1, -1, 3)).convert("HSV"), dtype=np.float64)[0] / 255
    hue, saturation, value = hsv[:, 0] * 360, hsv[:, 1], hsv[:, 2]
    coloured = saturation >= 0.15
    names = []
    if coloured.any():
        bounds = np.array([bound for bound, _ in HUES])
        labels = np.array([name for _, name in HUES])[
            np.searchsorted(bounds, hue[coloured], side="right").clip(0, len(HUES) - 1)
        ]
        found, counts = np.unique(labels, return_counts=True)
        shares = counts / len(hue)
        names = [name for share, name in sorted(zip(shares, found, strict=True), reverse=True) if share >= 0.1][:3]
    if coloured.mean() < 0.5:
        names.append("grey")
    light = "light" if value.mean() > 0.85 else "dark" if value.mean() < 0.45 else "mid-toned"
    strength = "muted" if saturation.mean() < 0.2 else "vivid" if saturation.mean() > 0.45 else "moderately strong"
    return f"The palette is mostly {_listed(names or ['grey'])}, {light} and {strength}."


def _listed(words: list[str]) -> str:
    """'a', 'a and b', 'a, b and c'."""
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"
