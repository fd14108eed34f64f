"""Compose the warm start's jellyfish: 24 short p5.brush sketches of "a jellyfish" (`jelly-01` … `jelly-24`).

One small template, as compose.py's hibiscus: a title, `setup`, `draw` (paper, faint water washes,
one `jelly(...)` call per jellyfish) and three helpers: `jelly` (the tentacles, the oral arms, then
the bell in washes from large and pale to smaller and deeper), `dome` (a bell with a scalloped rim)
and `trail` (a thin wavy closed shape hanging down, for tentacles and arms). The choices vary:
palette (six, four sketches each), bell size, flatness and place, 1-3 washes, tentacles and arms,
water washes, a second smaller jellyfish, a moon jelly's four rings. One wash is rated "okay".

compose.py writes these with the hibiscus (`python trainer/corpus/compose.py`). Stdlib only and
deterministic: the same seed writes the same 24 files.
"""

from __future__ import annotations

import random

from compose import fmt

PREFIX = "jelly"
COUNT = 24
SEED = 2417
SUBJECT = "a jellyfish"
REDRAW: dict[str, int] = {}
"""Sketch id -> how many times its choices were drawn again (warmstart/README.md says why)."""

# name -> (bell washes from pale to deep, oral arms, tentacles)
PALETTES = {
    "pink": (["#f5c6d6", "#ea92b6", "#c95b8f"], "#dc7ea9", "#eab36c"),
    "lilac": (["#e0d3f0", "#bba2dd", "#8b68bd"], "#a98bd1", "#e6b5c8"),
    "blue": (["#cde3f3", "#8ec0e5", "#4d8cc4"], "#6ba7d8", "#d8c07a"),
    "amber": (["#fadcad", "#f0b566", "#d88a36"], "#e29a52", "#d8704a"),
    "moon": (["#dce8f1", "#b5cee2", "#86a9c8"], "#a4c0d8", "#c2aad6"),
    "coral": (["#f9cdb9", "#f29b79", "#d8623f"], "#e07b57", "#c84d3b"),
}
WATERS = ["#d5e6ef", "#dbeae6", "#e2e4f1", "#d9e9f0"]
PAPERS = [(249, 246, 240), (247, 244, 236), (250, 248, 244), (245, 243, 237)]

TEMPLATE = """\
// {title}
function setup() {{
  createCanvas(600, 600, WEBGL);
  angleMode(DEGREES);
  noLoop();
}}

function draw() {{
  translate(-width / 2, -height / 2);
  background({paper});
  brush.scaleBrushes(3);
  brush.noStroke();
{painting}
}}

function jelly(x, y, size, drift) {{
  brush.fillBleed(0.05);
  brush.fillTexture(0.3, 0.1);
  brush.fill("{tentacle}", 150);
  for (let k = -{reach}; k <= {reach}; k++) {{
    trail(x + k * size * {spread}, y, size * {length}, 2, drift + k * 50);
  }}
  brush.fill("{arm}", 160);
  for (let k = -1; k <= 1; k++) {{
    trail(x + k * size * 0.2, y - size * 0.1, size * {arm_length}, {arm_width}, drift + k * 70 + 40);
  }}
  brush.fillBleed({bleed}, "out");
  brush.fillTexture({grain});
{washes}
{rings}}}

function dome(x, y, w, frill) {{
  brush.beginShape(0.5);
  for (let a = 180; a <= 360; a += 15) {{
    brush.vertex(x + cos(a) * w, y + sin(a) * w * {flat});
  }}
  for (let s = 1; s < 8; s++) {{
    brush.vertex(x + w - s * w / 4, y + frill * (s % 2));
  }}
  brush.endShape(true);
}}

function trail(x, y, len, wide, phase) {{
  brush.beginShape(0.8);
  for (let t = 0; t <= 1.01; t += 0.1) {{
    brush.vertex(x + t * {sway} * sin(phase + t * 300) - wide * (1 - t * 0.7), y + len * t);
  }}
  for (let t = 1; t >= -0.01; t -= 0.1) {{
    brush.vertex(x + t * {sway} * sin(phase + t * 300) + wide * (1 - t * 0.7), y + len * t);
  }}
  brush.endShape(true);
}}
"""

RINGS = """\
  brush.fill("{colour}", 200);
  for (let a = 215; a < 340; a += 40) {{
    brush.circle(x + cos(a) * size * 0.4, y + sin(a) * size * 0.3, size * 0.1);
  }}
"""


def plan(index: int, rng: random.Random) -> dict:
    """The choices of sketch `index` (0-based): palette, jellies, washes, tentacles, water."""
    name = list(PALETTES)[index % len(PALETTES)]
    tints, arm, tentacle = PALETTES[name]
    layers = rng.choice([2, 2, 3, 3, 3]) if index % 4 else 1  # every fourth is one wash: 6 okay
    size = rng.uniform(95, 125)
    flat = rng.uniform(0.6, 0.85) if name != "moon" else rng.uniform(0.45, 0.55)
    length = rng.uniform(2.0, 2.6)
    top = rng.uniform(150, 200)  # the bell's rim; the tentacles hang below it
    x = rng.uniform(250, 350)
    jellies = [(x, top + size * flat, size, rng.uniform(-60, 60))]
    two = rng.random() < 0.25
    if two:
        side = -1 if x > 300 else 1
        small = size * rng.uniform(0.45, 0.55)
        jellies.insert(0, (x + side * rng.uniform(150, 190), top + rng.uniform(170, 230), small, rng.uniform(-60, 60)))
    shares = {1: [1.0], 2: [1.0, rng.uniform(0.65, 0.75)], 3: [1.0, rng.uniform(0.7, 0.8), rng.uniform(0.4, 0.5)]}
    colours = {1: [tints[1]], 2: [tints[0], tints[2]], 3: tints}[layers]
    washes = [
        (c, rng.randint(150, 170) + 25 * i, s, rng.uniform(10, 16) * s)
        for i, (c, s) in enumerate(zip(colours, shares[layers], strict=True))
    ]
    rings = name == "moon" or rng.random() < 0.15
    spare = 2 - (layers == 3) - rings  # a third wash or the rings leave room for one water wash at most
    waters = [
        (rng.choice(WATERS), rng.randint(75, 105), rng.uniform(200, 400), rng.uniform(250, 420), rng.uniform(170, 250))
        for _ in range(min(spare, rng.choice([0, 1, 1, 2])))
    ]
    title = f"{'two ' if two else 'a '}{name} jellyfish"
    return {
        "title": title,
        "jellies": jellies,
        "washes": washes,
        "arm": arm,
        "tentacle": tentacle,
        "rings": tints[2] if rings else None,
        "reach": rng.choice([2, 3, 3, 4]),
        "length": length,
        "arm_length": length * rng.uniform(0.6, 0.75),
        "arm_width": rng.randint(6, 10),
        "flat": flat,
        "sway": rng.randint(18, 36),
        "waters": waters,
        "bleed": round(rng.uniform(0.2, 0.32), 2),
        "grain": (round(rng.uniform(0.45, 0.65), 2), round(rng.uniform(0.2, 0.35), 2)),
        "paper": rng.choice(PAPERS),
        "tier": "love" if layers > 1 else "okay",
    }


def render(sketch_id: str, p: dict) -> str:
    """The sketch's source: every number written where it is used, no tables, so it stays short."""
    n = lambda values: ", ".join(str(round(v)) for v in values)  # noqa: E731
    waters = []
    if p["waters"]:
        waters += ["  brush.fillBleed(0.4);", "  brush.fillTexture(0.6, 0.2);"]  # "out" is the default
    for colour, alpha, x, y, r in p["waters"]:
        waters += [f'  brush.fill("{colour}", {alpha});', f"  brush.circle({n((x, y, r))});"]
    washes = []
    for colour, alpha, share, frill in p["washes"]:
        lift = "y" if share == 1 else f"y - size * {fmt(round(0.35 * (1 - share), 2))}"
        w = "size" if share == 1 else f"size * {fmt(round(share, 2))}"
        washes += [f'  brush.fill("{colour}", {alpha});', f"  dome(x, {lift}, {w}, {round(frill)});"]
    return TEMPLATE.format(
        title=p["title"],
        paper=", ".join(str(c) for c in p["paper"]),
        painting="\n".join(waters + [f"  jelly({n(j)});" for j in p["jellies"]]),
        tentacle=p["tentacle"],
        arm=p["arm"],
        reach=p["reach"],
        spread=fmt(round(0.85 / p["reach"], 2)),
        length=fmt(round(p["length"], 1)),
        arm_length=fmt(round(p["arm_length"], 1)),
        arm_width=p["arm_width"],
        bleed=fmt(p["bleed"]),
        grain=", ".join(fmt(g) for g in p["grain"]),
        washes="\n".join(washes),
        rings=RINGS.format(colour=p["rings"]) if p["rings"] else "",
        flat=fmt(round(p["flat"], 2)),
        sway=p["sway"],
    )


def plans() -> dict[str, dict]:
    """Sketch id -> its choices, for all `COUNT` sketches; each sketch has its own seeded draw."""
    out = {}
    for i in range(COUNT):
        sketch_id = f"{PREFIX}-{i + 1:02d}"
        out[sketch_id] = plan(i, random.Random(f"{SEED}-{sketch_id}-{REDRAW.get(sketch_id, 0)}"))
    return out
