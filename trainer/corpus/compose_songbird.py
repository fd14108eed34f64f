"""Compose the warm start's songbirds: 24 p5.brush sketches of "a songbird on a branch" (`bird-01` … `bird-24`).

One small template, as compose.py's hibiscus: a title, `setup`, `draw` (paper, the branch as two
long thin lenses and maybe a twig, its leaves, one `bird(...)` call) and three helpers: `bird`
(the body in washes from large and pale to smaller and deeper, then the wing, the breast, the
beak, the eye and the legs), `body` (tail, body and head of one wash) and `leaf` (compose.py's
pointed lens: branch, leaves, tail, body, wing, beak and legs). The choices vary: palette (six
birds, four sketches each), facing left or right, bird size and place, the branch's slope and
bend, 1-3 washes, leaves, a twig. One wash is rated "okay".

compose.py writes these with the hibiscus (`python trainer/corpus/compose.py`). Stdlib only and
deterministic: the same seed writes the same 24 files.
"""

from __future__ import annotations

import math
import random

from compose import fmt

PREFIX = "bird"
COUNT = 24
SEED = 3001
SUBJECT = "a songbird on a branch"
MAX_CHARS = 1845
"""Longest sketch kept: about 935 of the policy's tokens (1.95 characters a token here); a longer
draw loses leaves, then its twig, since the policy's reply budget is what the hibiscus took, 947."""
REDRAW: dict[str, int] = {
    "bird-01": 1,
    "bird-04": 2,
    "bird-07": 1,
    "bird-08": 2,
    "bird-12": 2,
    "bird-14": 1,
    "bird-15": 2,
    "bird-18": 2,
    "bird-19": 2,
    "bird-23": 2,
}
"""Sketch id -> how many times its choices were drawn again (warmstart/README.md says why)."""

# name -> (body washes from pale to deep, wing, breast)
PALETTES = {
    "robin": (["#e8d3b6", "#c9a279", "#9a714a"], "#7d5838", "#ee6a33"),
    "bluebird": (["#c9dcf0", "#86afdd", "#4a7cc0"], "#3f6fb5", "#e0915a"),
    "goldfinch": (["#f7e7a0", "#f1d04e", "#dcaa22"], "#3d3a36", "#f4dc6a"),
    "wren": (["#f0d8b4", "#d6a56e", "#a8733c"], "#83552c", "#f0d0a0"),
    "blue tit": (["#e9efb0", "#d9df6a", "#b8c43a"], "#5b8fc9", "#f0e070"),
    "chaffinch": (["#f2d0c4", "#e09a84", "#b86a55"], "#5f7fa6", "#e8927a"),
}
BARKS = ["#7a5a42", "#6e5444", "#84634a", "#6a4e3a"]
GREENS = ["#6b903a", "#5f8a3c", "#7a9a48", "#587f4a"]
PAPERS = [(249, 245, 237), (247, 243, 234), (250, 248, 242), (246, 242, 233)]

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
  brush.fillBleed(0.05);
  brush.fillTexture(0.45, 0.35);
  brush.fill("{bark}", 210);
{branches}
{bird}
}}

function bird(x, y, size, face) {{
  brush.fillBleed({bleed}, "out");
  brush.fillTexture({grain});
{washes}
  brush.fill("{wing}", 200);
  leaf(x + face * size * 0.4, y - size * 0.3, 90 + face * 75, size * 1.2, 0.2);
  brush.fill("{breast}", 190);
  brush.circle(x + face * size * 0.5, y + size * 0.1, size * 0.4);
  brush.fillBleed(0.02);
  brush.fill("#3a2c24", 230);
  leaf(x + face * size * 1.1, y - size * 0.6, 90 - face * 90, size * 0.3, 0.2);
  brush.circle(x + face * size, y - size * 0.6, 5);
  for (let k = -1; k <= 1; k += 2) {{
    leaf(x + k * size * 0.15, y + size * 0.5, 90, size * 0.4, 0.05);
  }}
}}

function body(x, y, size, face) {{
  leaf(x - face * size * 0.8, y + size * 0.2, 90 + face * 55, size * 1.1, 0.13);
  leaf(x + face * size * 1.2, y - size * 0.45, 90 + face * 70, size * 2.6, 0.27);
  brush.circle(x + face * size * 0.8, y - size * 0.55, size * 0.45);
}}

function leaf(x, y, heading, size, fat) {{
  let c = cos(heading), d = sin(heading);
  brush.beginShape(0.9);
  for (let s = 0; s < 360; s += 45) {{
    let along = size * (1 - cos(s)) / 2, off = fat * size * sin(s);
    brush.vertex(x + along * c - off * d, y + along * d + off * c);
  }}
  brush.endShape(true);
}}
"""


def along(lens: tuple, distance: float) -> tuple[float, float]:
    """The point `distance` along a lens's axis (x, y, heading in degrees, ...); canvas y points down."""
    x, y, heading = lens[:3]
    return x + distance * math.cos(math.radians(heading)), y + distance * math.sin(math.radians(heading))


def at_x(lens: tuple, x: float) -> float:
    """The y of a lens's axis, extended, where it crosses `x`."""
    x0, y0, heading = lens[:3]
    return y0 + (x - x0) * math.tan(math.radians(heading))


def plan(index: int, rng: random.Random) -> dict:
    """The choices of sketch `index` (0-based): palette, facing, size and place, washes, branch, leaves."""
    name = list(PALETTES)[index % len(PALETTES)]
    tints, wing, breast = PALETTES[name]
    layers = rng.choice([2, 2, 3, 3, 3]) if index % 4 != 1 else 1  # one in four is one wash: 6 okay
    face = rng.choice([-1, 1])
    size = rng.uniform(56, 74)
    # the branch: two pointed lenses (`leaf`), the first from off the sheet, the second from its
    # middle with a slight bend; one lens of 600 px grows p5.brush's bleed into wide spikes
    side = rng.choice([-1, 1])  # the branch comes in from the left (1) or the right (-1)
    first = (300 - side * 420, rng.uniform(320, 400), 90 - side * 90 + rng.uniform(-10, 10), rng.uniform(440, 500))
    joint = along(first, first[3] * 0.7)
    second = (*joint, first[2] + rng.uniform(-5, 5), rng.uniform(300, 380))
    fat = [rng.uniform(10, 12) / first[3], rng.uniform(8, 10) / second[3]]
    branches = [(*first, fat[0]), (*second, fat[1])]
    x = min(410.0, max(190.0, joint[0] + side * rng.uniform(-0.1, 0.4) * first[3]))
    feet = (at_x(first, x) + at_x(second, x)) / 2
    y = feet - size * 0.9
    if rng.random() < 0.4:  # a twig rising from the branch, away from the bird
        tip = along(second, second[3] * rng.uniform(0.4, 0.7))
        if abs(tip[0] - x) > 1.6 * size and 40 < tip[0] < 560:
            branches.append((*tip, -90 + side * rng.uniform(25, 50), rng.uniform(110, 160), 0.04))
    leaves = []
    for _ in range(rng.choice([1, 2, 2, 3])):
        lens = rng.choice(branches[:2])
        lx, ly = along(lens, lens[3] * rng.uniform(0.25, 0.9))
        if abs(lx - x) < 1.5 * size or not 30 < lx < 570:
            continue
        leaves.append((lx, ly, lens[2] + rng.choice([-1, 1]) * rng.uniform(40, 75), rng.uniform(55, 80)))
    shares = {1: [1.0], 2: [1.0, rng.uniform(0.75, 0.85)], 3: [1.0, rng.uniform(0.8, 0.88), rng.uniform(0.55, 0.65)]}
    colours = {1: [tints[1]], 2: [tints[0], tints[2]], 3: tints}[layers]
    washes = [
        (c, rng.randint(165, 180) + 15 * i, s) for i, (c, s) in enumerate(zip(colours, shares[layers], strict=True))
    ]
    return {
        "title": f"a {name} on a branch",
        "bird": (x, y, size, face),
        "branches": branches,
        "leaves": leaves,
        "washes": washes,
        "wing": wing,
        "breast": breast,
        "bark": rng.choice(BARKS),
        "green": rng.choice(GREENS),
        "bleed": round(rng.uniform(0.12, 0.22), 2),
        "grain": (round(rng.uniform(0.4, 0.6), 2), round(rng.uniform(0.25, 0.4), 2)),
        "paper": rng.choice(PAPERS),
        "tier": "love" if layers > 1 else "okay",
    }


def render(sketch_id: str, p: dict) -> str:
    """The sketch's source: every number written where it is used, no tables, so it stays short."""
    n = lambda values: ", ".join(str(round(v)) for v in values)  # noqa: E731
    washes = []
    x, y, size, face = p["bird"]
    for colour, alpha, share in p["washes"]:
        lift = "y" if share == 1 else f"y - size * {fmt(round(0.3 * (1 - share), 2))}"
        w = "size" if share == 1 else f"size * {fmt(round(share, 2))}"
        washes += [f'  brush.fill("{colour}", {alpha});', f"  body(x, {lift}, {w}, face);"]
    greens = ["  brush.fillBleed(0.15);", f'  brush.fill("{p["green"]}", 180);'] if p["leaves"] else []
    greens += [f"  leaf({n(leaf)}, 0.2);" for leaf in p["leaves"]]
    return TEMPLATE.format(
        title=p["title"],
        paper=", ".join(str(c) for c in p["paper"]),
        bark=p["bark"],
        branches="\n".join(f"  leaf({n(b[:4])}, {fmt(round(b[4], 3))});" for b in p["branches"]),
        bird="\n".join(greens + [f"  bird({n((x, y, size))}, {face});"]),
        bleed=fmt(p["bleed"]),
        grain=", ".join(fmt(g) for g in p["grain"]),
        washes="\n".join(washes),
        wing=p["wing"],
        breast=p["breast"],
    )


def plans() -> dict[str, dict]:
    """Sketch id -> its choices, for all `COUNT` sketches; each sketch has its own seeded draw."""
    out = {}
    for i in range(COUNT):
        sketch_id = f"{PREFIX}-{i + 1:02d}"
        p = plan(i, random.Random(f"{SEED}-{sketch_id}-{REDRAW.get(sketch_id, 0)}"))
        while len(render(sketch_id, p)) > MAX_CHARS and (p["leaves"] or len(p["branches"]) > 2):
            (p["leaves"] if p["leaves"] else p["branches"]).pop()  # the last leaf first, then the twig
        out[sketch_id] = p
    return out
