"""Compose the warm start's own corpus: 48 hibiscus watercolours as short p5.brush sketches.

The policy's supervised warm start learns the shape of a good reply from these sketches. They are
written here, by a seeded generator, and kept apart from the reward's reference pool
(envs/watercolour_env/pool/starter): a policy fine-tuned on the pool would learn exactly what it
is judged against, and the copy guard fails replies that reproduce a pool painting.

Every sketch shares one small template so that a small model can learn it: constants on top,
then `setup`, `draw` and three helpers (`bloom`; `petals`, fans from the throat to a ruffled rim;
`leaf`, a pointed lens that also paints the stem and the staminal column). The constants vary:
palette (eight, six sketches each), bloom size and place, 5 or 6 petals, 1-3 washes (wide and pale,
then shorter, narrower and deeper), leaves, stem, one or two blooms, bleed and grain. Sketches of
one wash are rated "okay", the others "love".

Run from the repository root:

    python trainer/corpus/compose.py            # writes trainer/corpus/warmstart/sketches/*.js, all 96
    .venv/bin/watercolour pool render trainer/corpus/warmstart
    python trainer/corpus/compose.py --label    # tier, subject, author and notes in pool.jsonl
    .venv/bin/python trainer/corpus/check.py    # copy guard and taste model, per sketch

Stdlib only and deterministic: the same seed writes the same 48 files. The jellyfish and the
songbirds come from the sibling generators compose_jellyfish.py and compose_songbird.py, which this
script runs too (`subjects`), so that one command writes and labels the whole corpus.
"""

from __future__ import annotations

import argparse
import json
import math
import random
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
OUT = HERE / "warmstart"
COUNT = 48
SEED = 1307
SUBJECT = "a hibiscus"
REDRAW: dict[str, int] = {"warm-07": 2, "warm-12": 1, "warm-18": 1, "warm-22": 1, "warm-23": 1, "warm-26": 1}
"""Sketch id -> how many times its choices were drawn again. The first draws of warm-07, -12 and -18
came too close to a pool painting in the copy guard's picture check (0.85-0.87); warm-22 (a bloom
far off-centre) and warm-23 (a round bloom boxed in by three leaves) fell outside the taste model's
range and scored near 0 (warmstart/README.md); warm-26 was a copy of the pool's bloom-11 at any seed
and place (0.905, the guard's joint check of issue 54, over its 0.90; docs/LOG.md, issue 55)."""

# name -> (washes from pale to deep, throat, pollen); one palette per six sketches
PALETTES = {
    "scarlet": (["#f3a19b", "#e2473f", "#b01e2c"], "#5c0a1b", "#f2c12e"),
    "rose pink": (["#f6c3d3", "#ea7ea2", "#c43c72"], "#6e1238", "#f4d24c"),
    "coral": (["#f8bca8", "#f1806a", "#d5483e"], "#7a1a26", "#f4c646"),
    "peach": (["#fad4b8", "#f5ab84", "#e3805a"], "#8b2530", "#f2c442"),
    "yellow": (["#f8e69c", "#f3cd4f", "#e6a12c"], "#9c1d36", "#e2742a"),
    "crimson-eyed white": (["#e8c6c2", "#dfb3b6", "#c0183f"], "#55081e", "#f1cf4e"),
    "orange": (["#fbc893", "#f59648", "#da5b2c"], "#761b15", "#f6d653"),
    "lilac": (["#ddcdee", "#b99cd9", "#8c60ba"], "#491d5d", "#f0d35c"),
}
GREENS = ["#5f8a3c", "#4d7a45", "#6b903a", "#3f6c3f", "#587f4a"]
PAPERS = [(250, 246, 238), (247, 243, 233), (251, 249, 243), (246, 241, 230)]

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
  brush.fill("{leaf}", 190);
  brush.fillTexture(0.4, 0.3);
{greens}
{blooms}
}}

function bloom(x, y, reach, turn) {{
  brush.fillBleed({bleed}, "out");
  brush.fillTexture({grain});
{washes}
  brush.fillBleed({throat_bleed});
  brush.fill("{throat}", 250);
  petals(x, y, turn, reach * 0.3, 0.4);
  brush.circle(x, y, reach * 0.1);
  leaf(x, y, turn + {half}, reach * 0.8, 0.03);
  brush.fill("{pollen}", 250);
  for (let f = 0.6; f < 0.85; f += 0.05) {{
    brush.circle(x + cos(turn + {pollen_turn}) * reach * f, y + sin(turn + {pollen_turn}) * reach * f, 5);
  }}
}}

function petals(x, y, turn, reach, width) {{
  for (let k = 0; k < 360; k += {step}) {{
    brush.beginShape(0.75);
    brush.vertex(x, y);
    for (let s = -1; s <= 1.01; s += 0.2) {{
      let a = turn + k + s * width * {half};
      let r = reach * (1 - 0.2 * s * s + 0.05 * sin(s * 500 + turn + k));
      brush.vertex(x + cos(a) * r, y + sin(a) * r);
    }}
    brush.endShape(true);
  }}
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


def fmt(value: float) -> str:
    """A short number: integers bare, others to two places."""
    return str(int(round(value))) if abs(value - round(value)) < 1e-9 else f"{value:.2f}".rstrip("0")


def polar(x: float, y: float, distance: float, heading: float) -> tuple[float, float]:
    """The point `distance` from (x, y) towards `heading` degrees (canvas y points down)."""
    return x + distance * math.cos(math.radians(heading)), y + distance * math.sin(math.radians(heading))


def plan(index: int, rng: random.Random) -> dict:
    """The choices of sketch `index` (0-based): palette, layout, washes, leaves, stem."""
    name = list(PALETTES)[index % len(PALETTES)]
    tints, throat, pollen = PALETTES[name]
    petals = 6 if rng.random() < 0.2 else 5
    layers = rng.choice([1, 2, 2, 3, 3, 3])
    two = rng.random() < 0.25
    if two:
        main = (rng.uniform(220, 280), rng.uniform(220, 290), rng.uniform(100, 120))
        side = rng.choice([-1, 1])
        second = (300 + side * rng.uniform(80, 130), rng.uniform(380, 430), main[2] * rng.uniform(0.6, 0.75))
        blooms = [main, second]
    else:
        off = rng.random() < 0.3
        spot = (rng.uniform(235, 365), rng.uniform(225, 365)) if off else (rng.uniform(280, 320), rng.uniform(280, 320))
        blooms = [(*spot, rng.uniform(115, 150))]
    blooms = [(x, y, r, rng.uniform(-36, 36)) for x, y, r in blooms]
    shares = {
        1: [1.0],
        2: [1.0, rng.uniform(0.7, 0.85)],
        3: [1.0, rng.uniform(0.85, 0.92), rng.uniform(0.5, 0.65)],
    }[layers]
    if name.endswith("white"):
        shares[-1] = round(rng.uniform(0.4, 0.5), 2) if layers > 1 else 1.0
    colours = {1: [tints[1]], 2: [tints[0], tints[2]], 3: tints}[layers]
    widths = [1, round(rng.uniform(0.6, 0.75), 2), round(rng.uniform(0.45, 0.6), 2)]
    washes = [
        (c, rng.randint(185, 205) + 15 * i, s, w)
        for i, (c, s, w) in enumerate(zip(colours, shares, widths[:layers], strict=True))
    ]
    x, y, r, _ = blooms[0]
    stem = None
    if rng.random() < 0.6:
        heading = rng.uniform(70, 110)
        stem = (*polar(x, y, 0.35 * r, heading), heading, rng.uniform(180, 260))
    leaves = []
    for _ in range(rng.choice([0, 1, 2, 2, 3])):
        heading = rng.uniform(0, 360)
        size = r * rng.uniform(0.8, 1.15)
        base = r * rng.uniform(0.35, 0.6)
        leaves.append((*polar(x, y, base, heading), heading, size))
    if not leaves and stem is None:  # a bare round bloom reads as a blot: give it a leaf
        heading = rng.uniform(20, 160)
        leaves.append((*polar(x, y, 0.5 * r, heading), heading, r))
    words = {1: "1 wash", 2: "2 washes", 3: "3 washes"}[layers]
    parts = [f"{'two ' if two else ''}{name} hibiscus{'es' if two else ''}", f"{petals} petals", words]
    if leaves:
        parts.append(f"{len(leaves)} lea{'f' if len(leaves) == 1 else 'ves'}")
    if stem:
        parts.append("stem")
    return {
        "title": ", ".join(parts),
        "petals": petals,
        "blooms": blooms,
        "washes": washes,
        "throat": throat,
        "pollen": pollen,
        "leaf": rng.choice(GREENS),
        "leaves": leaves,
        "stem": stem,
        "bleed": round(rng.uniform(0.15, 0.32), 2),
        "grain": (round(rng.uniform(0.35, 0.65), 2), round(rng.uniform(0.3, 0.5), 2)),
        "paper": rng.choice(PAPERS),
        "tier": "love" if layers > 1 else "okay",
    }


def render(sketch_id: str, p: dict) -> str:
    """The sketch's source: every number written where it is used, no tables, so it stays short."""
    n = lambda values: ", ".join(str(round(v)) for v in values)  # noqa: E731
    greens = []
    if p["stem"]:
        greens += ["  brush.fillBleed(0.02);", f"  leaf({n(p['stem'])}, 0.02);"]
    greens.append("  brush.fillBleed(0.2);")
    greens += [f"  leaf({n(leaf)}, 0.3);" for leaf in p["leaves"]]
    washes = []
    for colour, alpha, share, width in p["washes"]:
        reach = "reach" if round(share, 2) == 1 else f"reach * {fmt(round(share, 2))}"
        washes += [f'  brush.fill("{colour}", {alpha});', f"  petals(x, y, turn, {reach}, {fmt(width)});"]
    return TEMPLATE.format(
        id=sketch_id,
        title=("" if p["title"].startswith("two") else "a ") + p["title"].split(",")[0],
        paper=", ".join(str(c) for c in p["paper"]),
        leaf=p["leaf"],
        greens="\n".join(greens),
        blooms="\n".join(f"  bloom({n(b)});" for b in p["blooms"]),
        bleed=fmt(p["bleed"]),
        grain=", ".join(fmt(g) for g in p["grain"]),
        washes="\n".join(washes),
        throat_bleed=fmt(p["bleed"] / 4),
        throat=p["throat"],
        pollen=p["pollen"],
        half=180 // p["petals"],
        pollen_turn=180 // p["petals"] + 6,
        step=360 // p["petals"],
    )


def plans() -> dict[str, dict]:
    """Sketch id -> its choices, for all `COUNT` sketches; each sketch has its own seeded draw."""
    out = {}
    for i in range(COUNT):
        sketch_id = f"warm-{i + 1:02d}"
        out[sketch_id] = plan(i, random.Random(f"{SEED}-{sketch_id}-{REDRAW.get(sketch_id, 0)}"))
    return out


def subjects() -> list[tuple[str, dict[str, dict], Callable[[str, dict], str]]]:
    """(subject, sketch id -> choices, render) of the three generators: this one and its two siblings."""
    import compose_jellyfish  # siblings: a script's own folder is importable
    import compose_songbird

    return [
        (SUBJECT, plans(), render),
        (compose_jellyfish.SUBJECT, compose_jellyfish.plans(), compose_jellyfish.render),
        (compose_songbird.SUBJECT, compose_songbird.plans(), compose_songbird.render),
    ]


def write() -> None:
    """Writes every sketch of the three subjects under warmstart/sketches/.

    A file whose text is already there is left untouched, so that `pool render` (which trusts a
    PNG newer than its sketch) does not render it again.
    """
    folder = OUT / "sketches"
    folder.mkdir(parents=True, exist_ok=True)
    for subject, chosen, draw in subjects():
        for sketch_id, p in chosen.items():
            path, source = folder / f"{sketch_id}.js", draw(sketch_id, p)
            if not path.exists() or path.read_text() != source:
                path.write_text(source)
        print(f"wrote {len(chosen)} sketches of {subject} to {folder}")


def label() -> None:
    """Sets tier, subject, author and notes of every row of warmstart/pool.jsonl (after the render)."""
    path = OUT / "pool.jsonl"
    known = {
        sketch_id: (p["tier"], subject, draw.__module__)
        for subject, chosen, draw in subjects()
        for sketch_id, p in chosen.items()
    }
    rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    for row in rows:
        tier, subject, module = known.get(row["id"], ("okay", SUBJECT, "compose"))
        module = "compose" if module == "__main__" else module
        row.update(tier=tier, subject=subject, author=f"watercolour team, trainer/corpus/{module}.py", notes="")
    path.write_text("".join(json.dumps(row) + "\n" for row in rows))
    print(f"labelled {len(rows)} rows of {path}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--label", action="store_true", help="label pool.jsonl after `watercolour pool render`")
    args = parser.parse_args()
    label() if args.label else write()
