"""Writes the starter pool's sketches: hibiscus watercolours in the ten allowed p5.brush methods.

Each sketch is a standalone p5.js file whose choices (palette, composition, size, layering,
bleed, texture) are written out as constants at its top, so a person can read and edit it. The
families are deliberate: some aim at the look we love (layered translucent petals, soft bleed,
a dark throat, room to breathe), some are ordinary, some are deliberately weak (muddy, flat,
cramped, garish, lost in space) so the pool has counter-examples.

    python envs/watercolour_env/pool/starter/compose.py          # rewrites envs/watercolour_env/pool/starter/sketches/*.js

Then `watercolour pool render envs/watercolour_env/pool/starter` renders them and `pool.jsonl` carries the ratings.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

from watercolour_env.families import family_sketches

HERE = Path(__file__).parent
FORMLESS_PER_FAMILY, FORMLESS_SEED = 3, 1

PALETTES = {
    "peach": ["#f7b39a", "#ee7a5c", "#c93a3a", "#7a1026"],
    "coral": ["#ffb4a2", "#f28482", "#d64550", "#6d0f1f"],
    "rose": ["#f6c1d0", "#e56b9f", "#b0245c", "#5c0a2e"],
    "apricot": ["#ffd6a5", "#f9a45c", "#e4572e", "#8a1c12"],
    "scarlet": ["#ff9a8b", "#f0463c", "#b3141b", "#4a060a"],
    "white": ["#f4ece6", "#ead7cf", "#d9a6a6", "#8e1b2e"],
    "yellow": ["#fff1a8", "#fcd34d", "#e59f1a", "#8c1c13"],
    "lilac": ["#e3d4f3", "#b497d6", "#7b4fa8", "#3b1557"],
}
MUDDY = ["#9c8f80", "#7d6f63", "#5e544c", "#3d3632"]
GARISH = ["#00ff66", "#ff00cc", "#0033ff", "#ffee00"]
GREENS = ["#8db580", "#5b8a45", "#2f5e2a"]
PAPERS = ["250, 246, 238", "248, 243, 232", "252, 250, 245", "244, 239, 228"]

HELPERS = """function petal(cx, cy, angle, length, spread, curvature) {
  brush.beginShape(curvature);
  brush.vertex(cx, cy);
  brush.vertex(cx + length * 0.62 * cos(angle - spread), cy + length * 0.62 * sin(angle - spread));
  brush.vertex(cx + length * cos(angle - spread / 3), cy + length * sin(angle - spread / 3));
  brush.vertex(cx + length * cos(angle + spread / 3), cy + length * sin(angle + spread / 3));
  brush.vertex(cx + length * 0.62 * cos(angle + spread), cy + length * 0.62 * sin(angle + spread));
  brush.endShape(true);
}

function leaf(x, y, angle, length, colour, opacity) {
  brush.fill(colour, opacity);
  brush.fillBleed(0.2);
  brush.beginShape(0.8);
  brush.vertex(x, y);
  brush.vertex(x + length * 0.5 * cos(angle - 25), y + length * 0.5 * sin(angle - 25));
  brush.vertex(x + length * cos(angle), y + length * sin(angle));
  brush.vertex(x + length * 0.5 * cos(angle + 25), y + length * 0.5 * sin(angle + 25));
  brush.endShape(true);
}

function flower(cx, cy, size, petals, turn, colours, layers, bleed, texture, curvature) {
  for (let layer = 0; layer < layers; layer++) {
    const scale = 1 - layer * 0.28;
    for (let i = 0; i < petals; i++) {
      const angle = turn + (i * 360) / petals;
      brush.fill(colours[layer], 90 + layer * 35);
      brush.fillBleed(bleed * (1 - layer * 0.3), "out");
      brush.fillTexture(texture, 0.25);
      petal(cx, cy, angle, size * scale, 180 / petals + 8, curvature);
    }
  }
  brush.fill(colours[3], 170);
  brush.fillBleed(0.08);
  brush.circle(cx, cy, size * 0.13);
}
"""


def sketch(name: str, note: str, paper: str, body: str) -> str:
    """A whole sketch file: header comment, setup, the helpers and a draw with `body`."""
    return f"""// starter pool: {name}
// {note}
function setup() {{
  createCanvas(600, 600, WEBGL);
  angleMode(DEGREES);
  noLoop();
}}

{HELPERS}
function draw() {{
  translate(-width / 2, -height / 2);
  background({paper});
  brush.scaleBrushes(3);
  brush.noStroke();
{body}}}
"""


def flower_call(cx, cy, size, petals, turn, palette, layers, bleed, texture, curvature) -> str:
    colours = json.dumps(palette)
    return f"  flower({cx}, {cy}, {size}, {petals}, {turn}, {colours}, {layers}, {bleed}, {texture}, {curvature});\n"


def washes(rng: random.Random, n: int, colours: list[str], opacity: int) -> str:
    lines = []
    for _ in range(n):
        x, y, r = rng.randint(40, 560), rng.randint(40, 560), rng.randint(90, 200)
        lines.append(
            f'  brush.fill("{rng.choice(colours)}", {opacity});\n  brush.fillBleed(0.45, "out");\n'
            f"  brush.fillTexture(0.6, 0.2);\n  brush.circle({x}, {y}, {r});\n"
        )
    return "".join(lines)


def leaves(rng: random.Random, cx: int, cy: int, n: int, size: int) -> str:
    lines = []
    for i in range(n):
        angle = rng.randint(0, 359)
        colour = GREENS[i % 2 + rng.randint(0, 1) % 2]
        lines.append(f'  leaf({cx}, {cy}, {angle}, {int(size * rng.uniform(1.1, 1.5))}, "{colour}", 110);\n')
    return "".join(lines)


def stamen(cx: int, cy: int, angle: int, length: int) -> str:
    return (
        f'  brush.fill("#b5213a", 160);\n  brush.beginShape(0.2);\n  brush.vertex({cx - 3}, {cy});\n'
        f"  brush.vertex({cx + 3}, {cy});\n  brush.vertex({cx} + {length} * cos({angle}) + 3, {cy} + {length} * sin({angle}));\n"
        f"  brush.vertex({cx} + {length} * cos({angle}) - 3, {cy} + {length} * sin({angle}));\n  brush.endShape(true);\n"
        f'  for (let i = 0; i < 6; i++) {{\n    brush.fill("#f2c230", 190);\n'
        f"    brush.circle({cx} + {length} * cos({angle}) + 9 * cos(i * 60), {cy} + {length} * sin({angle}) + 9 * sin(i * 60), 5);\n  }}\n"
    )


def compose(rng: random.Random) -> dict[str, tuple[str, str, str]]:
    """name -> (family note, paper, draw body)."""
    out: dict[str, tuple[str, str, str]] = {}
    names = list(PALETTES)
    # layered single blooms, the look we aim for
    for i in range(18):
        out[f"bloom-{i + 1:02d}"] = bloom(rng, i)
    # two or three flowers in a composition
    for i in range(10):
        out[f"pair-{i + 1:02d}"] = pair(rng, i)
    # simple, ordinary paintings: one layer or two, little texture
    for i in range(14):
        pal = PALETTES[names[(i * 5) % len(names)]]
        size = rng.randint(140, 200)
        body = flower_call(
            300,
            300,
            size,
            rng.choice([5, 5, 6]),
            rng.randint(0, 71),
            pal,
            rng.choice([1, 2]),
            round(rng.uniform(0.1, 0.25), 2),
            round(rng.uniform(0.1, 0.3), 2),
            0.5,
        )
        if i % 2:
            body = (
                '  brush.fill("#4f7a3a", 90);\n  brush.fillBleed(0.15);\n  brush.beginShape(0.3);\n'
                "  brush.vertex(296, 320);\n  brush.vertex(306, 320);\n  brush.vertex(320, 595);\n"
                "  brush.vertex(308, 595);\n  brush.endShape(true);\n" + body
            )
        out[f"simple-{i + 1:02d}"] = (
            "an ordinary flower: one or two layers, centred, little bleed",
            rng.choice(PAPERS),
            body,
        )
    # deliberately weak
    weak = {
        "tiny": (
            "a tiny flower lost in the paper",
            flower_call(150, 460, 45, 5, 10, PALETTES["peach"], 2, 0.3, 0.5, 0.6),
        ),
        "muddy": ("muddy greys and browns", flower_call(300, 300, 200, 5, 20, MUDDY, 3, 0.3, 0.5, 0.6)),
        "garish": ("clashing neon colours", flower_call(300, 300, 200, 5, 5, GARISH, 3, 0.1, 0.1, 0.6)),
        "flat": (
            "flat: no bleed, no texture, one layer",
            flower_call(300, 300, 190, 5, 0, PALETTES["scarlet"], 1, 0.0, 0.0, 0.2),
        ),
        "cropped": ("cropped off the canvas", flower_call(560, 80, 260, 5, 0, PALETTES["coral"], 3, 0.3, 0.5, 0.6)),
        "crowded": (
            "overworked: forty blobs everywhere",
            "".join(
                f'  brush.fill("{rng.choice(sum(PALETTES.values(), []))}", 170);\n  brush.circle({rng.randint(0, 600)}, {rng.randint(0, 600)}, {rng.randint(20, 90)});\n'
                for _ in range(40)
            ),
        ),
        "angular": (
            "spiky, no curvature, thin petals",
            flower_call(300, 300, 220, 9, 0, PALETTES["lilac"], 1, 0.05, 0.2, 0.0),
        ),
        "blob": ("one opaque blob, no flower", '  brush.fill("#c93a3a", 230);\n  brush.circle(300, 300, 180);\n'),
        "faint": (
            "barely there",
            flower_call(300, 300, 180, 5, 0, ["#f4ece6", "#f1e4dc", "#eddcd3", "#e0c9c0"], 1, 0.2, 0.2, 0.6),
        ),
        "leaves-only": ("leaves and no flower", leaves(rng, 300, 300, 6, 180)),
        "dark": (
            "heavy and dark",
            flower_call(300, 300, 210, 5, 0, ["#4a060a", "#3b1557", "#2f1a1a", "#000000"], 3, 0.2, 0.6, 0.6),
        ),
        "stripe": (
            "a band of paint, not a flower",
            '  brush.fill("#ee7a5c", 150);\n  brush.beginShape(0);\n  brush.vertex(0, 260);\n'
            "  brush.vertex(600, 240);\n  brush.vertex(600, 360);\n  brush.vertex(0, 380);\n  brush.endShape(true);\n",
        ),
        "corner": ("squeezed into a corner", flower_call(70, 70, 110, 5, 0, PALETTES["rose"], 2, 0.3, 0.5, 0.6)),
        "scatter": (
            "dots",
            "".join(
                f'  brush.fill("#e56b9f", 140);\n  brush.circle({x}, {y}, 8);\n'
                for x, y in [(rng.randint(50, 550), rng.randint(50, 550)) for _ in range(12)]
            ),
        ),
        "grey-wash": ("a grey wash", washes(rng, 4, ["#9c9c9c", "#bdbdbd"], 120)),
        "offcentre-flat": (
            "flat and off-centre",
            flower_call(420, 160, 120, 5, 0, PALETTES["yellow"], 1, 0.0, 0.0, 0.4),
        ),
    }
    for name, (note, body) in weak.items():
        out[f"weak-{name}"] = (f"deliberately weak: {note}", rng.choice(PAPERS), body)
    # a second batch, drawn after the first so that the first stays as rated
    for i in range(18, 24):
        out[f"bloom-{i + 1:02d}"] = bloom(rng, i)
    for i in range(10, 12):
        out[f"pair-{i + 1:02d}"] = pair(rng, i)
    return out


def bloom(rng: random.Random, i: int) -> tuple[str, str, str]:
    """A layered single bloom: three petal layers, soft bleed, texture, throat and stamen."""
    pal = PALETTES[list(PALETTES)[i % len(PALETTES)]]
    cx, cy = rng.randint(250, 350), rng.randint(250, 350)
    size = rng.randint(170, 230)
    body = ""
    if i % 3 == 0:
        body += washes(rng, 3, ["#dfe9ee", "#efe3d0", "#e4ecdc"], 70)
    if i % 2 == 0:
        body += leaves(rng, cx, cy, rng.randint(2, 3), size)
    body += flower_call(
        cx,
        cy,
        size,
        5,
        rng.randint(0, 71),
        pal,
        3,
        round(rng.uniform(0.25, 0.4), 2),
        round(rng.uniform(0.4, 0.7), 2),
        round(rng.uniform(0.5, 0.75), 2),
    )
    body += stamen(cx, cy, rng.randint(200, 340), int(size * 0.55))
    return "layered bloom: three petal layers, soft bleed, texture, throat and stamen", rng.choice(PAPERS), body


def pair(rng: random.Random, i: int) -> tuple[str, str, str]:
    """Two or three blooms with leaves."""
    names = list(PALETTES)
    pal_a, pal_b = PALETTES[names[i % len(names)]], PALETTES[names[(i + 3) % len(names)]]
    body = washes(rng, 2, ["#e8e0d0", "#dde8ee"], 60) if i % 2 else ""
    spots = [(rng.randint(170, 250), rng.randint(180, 260)), (rng.randint(360, 440), rng.randint(340, 420))]
    if i % 3 == 0:
        spots.append((rng.randint(120, 200), rng.randint(420, 480)))
    for j, (x, y) in enumerate(spots):
        size = rng.randint(95, 150)
        body += leaves(rng, x, y, 2, size)
        body += flower_call(
            x, y, size, 5, rng.randint(0, 71), pal_a if j % 2 == 0 else pal_b, rng.choice([2, 3]), 0.3, 0.5, 0.6
        )
    return "a composition of two or three blooms with leaves", rng.choice(PAPERS), body


def main() -> None:
    folder = HERE / "sketches"
    folder.mkdir(exist_ok=True)
    for old in folder.glob("*.js"):
        if not old.name.startswith("other-"):  # the other subjects were written by hand, not here
            old.unlink()
    for name, (note, paper, body) in compose(random.Random(2026)).items():
        (folder / f"{name}.js").write_text(sketch(name, note, paper, body), encoding="utf-8")
    # formless `nope` paintings (stripes, grids, scatters, ...), so the taste model sees what is not
    # a painting (issue 33); `watercolour audit` sends other draws of the same families (seed 0)
    title = "starter pool: formless-{name}\n// formless: no subject, rated nope (issue 33)"
    for name, source in family_sketches(FORMLESS_PER_FAMILY, FORMLESS_SEED, title).items():
        if name.startswith("rays-"):  # held out of the pool: the audit's starbursts meet `teeth` unseen
            continue
        (folder / f"formless-{name}.js").write_text(source, encoding="utf-8")
    print(f"wrote {len(list(folder.glob('*.js')))} sketches to {folder}")


if __name__ == "__main__":
    main()
