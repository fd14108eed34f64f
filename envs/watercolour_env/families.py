"""Formless probe families: sketches that paint no subject, to check that a reward does not pay them.

Each family is painted with the ten allowed p5.brush methods only, so the gate passes it and the
reward alone decides. A reward that ranks any of these above its pool's okay median pays a policy
for something that is not a painting (issue 33; numbers in docs/LOG.md).

Families (`FAMILIES`): stripes (swatch cards), grids, scatters, concentric rings, clouds of
circles, single blobs, washes, many-hue patches, and rays (starbursts and asterisks: a radial form
with a dark centre that is not a bloom); each in several sizes and palettes.

    >>> sources = family_sketches()
    >>> sorted({name.split("-")[0] for name in sources}) == sorted(FAMILIES)
    True
"""

from __future__ import annotations

import math
import random

FAMILIES = ("stripes", "grid", "scatter", "rings", "cloud", "blob", "wash", "patches", "rays")
"""In draw order: a new family goes last, so that the earlier families' seeded probes stay the same."""

PALETTES = {
    "pale": [
        "#f7c8b8",
        "#f9dcb0",
        "#fbeeb4",
        "#d6ebc4",
        "#c4e3e6",
        "#c9d3f0",
        "#dccbee",
        "#f3c6dc",
        "#f4d2c4",
        "#e8e0b8",
        "#cfe6d8",
        "#d8d4e8",
    ],
    "hibiscus": ["#f7b39a", "#ee7a5c", "#c93a3a", "#7a1026", "#5b8a45", "#f2c230"],
    "rose": ["#f6c1d0", "#e56b9f", "#b0245c", "#5c0a2e", "#8db580"],
    "bright": [
        "#e63946",
        "#f4a261",
        "#e9c46a",
        "#2a9d8f",
        "#264653",
        "#8338ec",
        "#ff006e",
        "#3a86ff",
        "#fb5607",
        "#06d6a0",
        "#ffbe0b",
        "#118ab2",
    ],
    "mono": ["#e89a86", "#d97a66", "#c65b48", "#a8432f"],
}
PAPER = "250, 246, 238"

HEAD = f"""function setup() {{
  createCanvas(600, 600, WEBGL);
  angleMode(DEGREES);
  noLoop();
}}

function draw() {{
  translate(-width / 2, -height / 2);
  background({PAPER});
  brush.scaleBrushes(3);
  brush.noStroke();
"""


def _sketch(title: str, lines: list[str]) -> str:
    return f"// {title}\n" + HEAD + "".join(f"  {line}\n" for line in lines) + "}\n"


def _fill(colour: str, opacity: int, bleed: float = 0.2, texture: float = 0.3) -> list[str]:
    return [f'brush.fill("{colour}", {opacity});', f"brush.fillBleed({bleed});", f"brush.fillTexture({texture}, 0.2);"]


def _rect(x: float, y: float, w: float, h: float, curvature: float = 0.0) -> list[str]:
    corners = [(x, y), (x + w, y), (x + w, y + h), (x, y + h)]
    return [
        f"brush.beginShape({curvature});",
        *(f"brush.vertex({a:.0f}, {b:.0f});" for a, b in corners),
        "brush.endShape(true);",
    ]


def _colours(palette: str, n: int, rng: random.Random, palettes: dict[str, list[str]] = PALETTES) -> list[str]:
    colours = palettes[palette]
    return (
        [colours[i % len(colours)] for i in range(n)] if n <= len(colours) else [rng.choice(colours) for _ in range(n)]
    )


def stripes(
    size: int, n: int, palette: str, vertical: bool, rng: random.Random, palettes: dict[str, list[str]] = PALETTES
) -> list[str]:
    """A swatch card: n strips side by side filling a centred square of `size` px.

    The palette's colours are used in turn; `palettes` maps names to colour lists.
    """
    x0 = y0 = (600 - size) / 2
    lines = []
    for i, colour in enumerate(_colours(palette, n, rng, palettes)):
        lines += _fill(colour, 150)
        w = size / n
        lines += _rect(x0 + i * w, y0, w, size) if vertical else _rect(x0, y0 + i * w, size, w)
    return lines


def grid(size: int, n: int, palette: str, gap: float, rng: random.Random) -> list[str]:
    """An n x n grid of squares in a centred square of `size` px."""
    x0 = (600 - size) / 2
    cell = size / n
    colours = _colours(palette, n * n, rng)
    lines = []
    for i in range(n):
        for j in range(n):
            lines += _fill(colours[i * n + j], 150)
            lines += _rect(x0 + i * cell + gap / 2, x0 + j * cell + gap / 2, cell - gap, cell - gap)
    return lines


def scatter(count: int, radius: float, palette: str, spread: float, rng: random.Random) -> list[str]:
    """`count` circles scattered at random within `spread` px of the centre."""
    lines = []
    for colour in _colours(palette, count, rng):
        lines += _fill(colour, 140)
        x, y = 300 + rng.uniform(-spread, spread), 300 + rng.uniform(-spread, spread)
        lines.append(f"brush.circle({x:.0f}, {y:.0f}, {radius * rng.uniform(0.6, 1.4):.0f});")
    return lines


def rings(count: int, outer: float, palette: str, rng: random.Random) -> list[str]:
    """`count` concentric circles, largest first, each in its own colour (a target)."""
    lines = []
    for i, colour in enumerate(_colours(palette, count, rng)):
        lines += _fill(colour, 120)
        lines.append(f"brush.circle(300, 300, {outer * (1 - i / count):.0f});")
    return lines


def cloud(count: int, radius: float, palette: str, rng: random.Random) -> list[str]:
    """`count` overlapping circles clustered round the centre (a cumulus of paint)."""
    lines = []
    for colour in _colours(palette, count, rng):
        lines += _fill(colour, 110, bleed=0.3)
        r = radius * math.sqrt(rng.random())
        t = rng.uniform(0, 2 * math.pi)
        x, y = 300 + r * math.cos(t), 300 + r * math.sin(t)
        lines.append(f"brush.circle({x:.0f}, {y:.0f}, {radius * 0.45:.0f});")
    return lines


def blob(radius: float, colour: str, layers: int, rng: random.Random) -> list[str]:
    """One round blob, laid in `layers` translucent washes."""
    lines = []
    for layer in range(layers):
        lines += _fill(colour, 90 + 40 * layer, bleed=0.35)
        x, y = 300 + rng.uniform(-20, 20), 300 + rng.uniform(-20, 20)
        lines.append(f"brush.circle({x:.0f}, {y:.0f}, {radius * (1 - 0.25 * layer):.0f});")
    return lines


def wash(height: float, colours: list[str], rng: random.Random) -> list[str]:
    """Horizontal bands of wash across the sheet (a sky, a landscape without a subject)."""
    lines = []
    y = 300 - height / 2
    band = height / len(colours)
    for colour in colours:
        lines += _fill(colour, 80, bleed=0.4, texture=0.5)
        lines += _rect(20, y, 560, band * 1.1, curvature=0.3)
        y += band
    return lines


def patches(count: int, size: float, palette: str, rng: random.Random) -> list[str]:
    """`count` irregular patches of different hues, touching, in a centred field."""
    lines = []
    side = math.ceil(math.sqrt(count))
    x0 = 300 - side * size / 2
    for k, colour in enumerate(_colours(palette, count, rng)):
        i, j = k % side, k // side
        cx, cy = x0 + (i + 0.5) * size, x0 + (j + 0.5) * size
        lines += _fill(colour, 140, bleed=0.25)
        lines.append("brush.beginShape(0.6);")
        for a in range(0, 360, 60):
            r = size * 0.55 * rng.uniform(0.8, 1.2)
            x, y = cx + r * math.cos(math.radians(a)), cy + r * math.sin(math.radians(a))
            lines.append(f"brush.vertex({x:.0f}, {y:.0f});")
        lines.append("brush.endShape(true);")
    return lines


def rays(count: int, reach: float, palette: str, spread: float, washes: bool, rng: random.Random) -> list[str]:
    """A starburst: `count` wedge-shaped rays from the centre, in two washes, round a dark centre.

    Each ray is a wedge of half-angle `spread` x (180 / count) degrees (spread < 1 leaves a gap
    between rays, so it is a star, not a disc), reaching `reach` px, with a flat or a pointed end;
    `washes` lays a pale wash behind it first, as the red team's starbursts did (docs/LOG.md,
    issue 33). The centre is the palette's darkest colour.
    """
    lines = wash(560, _colours("pale", 3, rng), rng) if washes else []
    colours = PALETTES[palette]
    turn, half, tip = rng.uniform(0, 360 / count), spread * 180 / count, rng.choice([1.0, 1.15])
    for layer, length in enumerate((1.0, 0.65)):
        lines += _fill(colours[layer % len(colours)], 130 + 50 * layer, bleed=0.2)
        for k in range(count):
            a = turn + 360 * k / count
            ends = [_polar(reach * length, a - half), _polar(reach * length * tip, a), _polar(reach * length, a + half)]
            lines.append("brush.beginShape(0);")
            lines += [f"brush.vertex({x:.0f}, {y:.0f});" for x, y in [(300, 300), *ends]]
            lines.append("brush.endShape(true);")
    lines += _fill(min(colours, key=_lightness), 235, bleed=0.05)
    lines.append(f"brush.circle(300, 300, {reach * rng.uniform(0.08, 0.16):.0f});")
    return lines


def _lightness(colour: str) -> int:
    return sum(int(colour[i : i + 2], 16) for i in (1, 3, 5))


def _polar(r: float, degrees: float) -> tuple[float, float]:
    return 300 + r * math.cos(math.radians(degrees)), 300 + r * math.sin(math.radians(degrees))


def _probe(family: str, rng: random.Random) -> tuple[str, list[str]]:
    """One probe of `family` with parameters drawn from `rng`: (variant name, draw lines)."""
    palette = rng.choice(sorted(PALETTES))
    if family == "stripes":
        size, n = rng.choice([140, 180, 220, 260, 300]), rng.choice([4, 6, 8, 12])
        return f"{n}-{palette}-{size}", stripes(size, n, palette, rng.random() < 0.5, rng)
    if family == "grid":
        size, n, gap = rng.choice([160, 200, 240, 300]), rng.choice([3, 4, 5, 6]), rng.choice([0, 4, 10])
        return f"{n}x{n}-{palette}-{size}", grid(size, n, palette, gap, rng)
    if family == "scatter":
        count, spread = rng.choice([12, 20, 30, 45, 60]), rng.choice([90, 120, 160, 200])
        return f"{count}-{palette}-{spread}", scatter(count, rng.choice([12, 20, 30, 40]), palette, spread, rng)
    if family == "rings":
        count, outer = rng.choice([3, 4, 5, 6, 8]), rng.choice([90, 120, 160, 200])
        return f"{count}-{palette}-{outer}", rings(count, outer, palette, rng)
    if family == "cloud":
        count, radius = rng.choice([8, 12, 16, 20]), rng.choice([70, 90, 110, 130])
        return f"{count}-{palette}-{radius}", cloud(count, radius, palette, rng)
    if family == "blob":
        colour, radius = rng.choice(PALETTES[palette][:4]), rng.choice([60, 90, 120, 150])
        return f"{radius}-{colour[1:]}", blob(radius, colour, rng.choice([1, 2, 3]), rng)
    if family == "wash":
        height = rng.choice([200, 300, 400, 500, 560])
        return f"{palette}-{height}", wash(height, _colours(palette, rng.choice([2, 3, 4]), rng), rng)
    if family == "patches":
        count, size = rng.choice([6, 9, 12, 16, 25]), rng.choice([45, 60, 75, 90])
        return f"{count}-{palette}-{size}", patches(count, size, palette, rng)
    count, reach, washes = rng.choice([12, 16, 20, 24, 32]), rng.choice([110, 140, 170, 200]), rng.random() < 0.5
    spread = rng.choice([0.2, 0.35, 0.5])
    return f"{count}-{palette}-{reach}{'-washed' if washes else ''}", rays(count, reach, palette, spread, washes, rng)


def family_sketches(per_family: int = 6, seed: int = 0, title: str = "formless probe: {name}") -> dict[str, str]:
    """`per_family` probes of every family, name -> p5.js source; deterministic for a seed.

    Names are `<family>-<variant>`, e.g. `stripes-12-pale-240`; `title` is the first line's
    comment. The audit sends seed 0; the starter pool's formless `nope` paintings are seed 1
    (other sizes, palettes and positions).
    """
    rng = random.Random(seed)
    out: dict[str, str] = {}
    for family in FAMILIES:
        while sum(name.startswith(family + "-") for name in out) < per_family:
            variant, lines = _probe(family, rng)
            name = f"{family}-{variant}"
            out.setdefault(name, _sketch(title.format(name=name), lines))
    return out
