"""Writes the jellyfish example pool's sketches: a small pool of a subject that is not a hibiscus.

    python examples/pools/jellyfish/compose.py      # sketches/*.js and tiers.json beside this file

Sixteen jellyfish in the ten allowed p5.brush methods, each file stating its choices: layered
translucent bells with long tentacles (meant `love`), plainer ones of one or two washes (`okay`)
and weak ones (`nope`: muddy, cropped, lost in the paper, garish). A seventeenth, `jelly-17`, is
written by hand outside the template (`BY_HAND`). `tiers.json` is the team's
rating of them, the one docs/pool.md walks through and the test of issue 36 uses; an artist
rates their own on the rating page instead.
"""

from __future__ import annotations

import json
from pathlib import Path

HERE = Path(__file__).resolve().parent

HEADER = """// jellyfish example pool: {about}
function setup() {{
  createCanvas(600, 600, WEBGL);
  angleMode(DEGREES);
  noLoop();
}}

function bell(cx, cy, w, h, frills) {{
  brush.beginShape(0.6);
  for (let a = 180; a <= 360; a += 15) brush.vertex(cx + w * cos(a), cy + h * sin(a));
  for (let i = 0; i <= frills * 2; i++) {{
    const x = cx + w - (2 * w * i) / (frills * 2);
    brush.vertex(x, cy + (i % 2 === 0 ? 0 : h * 0.16));
  }}
  brush.endShape(true);
}}

function tentacle(x, y, length, sway, width, phase) {{
  brush.beginShape(0.7);
  for (let t = 0; t <= 10; t++) {{
    brush.vertex(x + sway * sin(phase + t * 36) - width * (1 - t / 12), y + (length * t) / 10);
  }}
  for (let t = 10; t >= 0; t--) {{
    brush.vertex(x + sway * sin(phase + t * 36) + width * (1 - t / 12), y + (length * t) / 10);
  }}
  brush.endShape(true);
}}

function jelly(cx, cy, size, colours, layers, tentacles, length, bleed, texture) {{
  brush.noStroke();
  for (let i = 0; i < tentacles; i++) {{
    const x = cx - size * 0.8 + (1.6 * size * i) / max(1, tentacles - 1);
    brush.fill(colours[2], 70);
    brush.fillBleed(bleed * 0.6);
    tentacle(x, cy + size * 0.12, length * (0.75 + 0.25 * sin(i * 67)), size * 0.12, size * 0.035, i * 50);
  }}
  for (let layer = 0; layer < layers; layer++) {{
    const s = 1 - layer * 0.22;
    brush.fill(colours[layer], 80 + layer * 40);
    brush.fillBleed(bleed * (1 - layer * 0.3));
    brush.fillTexture(texture, 0.3);
    bell(cx, cy - layer * size * 0.06, size * s, size * 0.8 * s, 5);
  }}
}}

function draw() {{
  translate(-width / 2, -height / 2);
  background({paper});
  brush.scaleBrushes(3);
{body}
}}
"""

PAPER_PALE = "246, 241, 232"
PAPER_SEA = "216, 232, 236"

JELLIES = [
    # name, tier, about, paper, [jelly(...) calls as (cx, cy, size, colours, layers, tentacles, length, bleed, texture)]
    (
        "love-violet",
        "love",
        "three translucent washes, eight long tentacles",
        PAPER_PALE,
        [(300, 230, 130, ["#c9a3e6", "#9a6fd0", "#5d3a9b"], 3, 8, 300, 0.3, 0.4)],
    ),
    (
        "love-peach",
        "love",
        "peach bell in three washes on a sea-blue paper",
        PAPER_SEA,
        [(290, 220, 140, ["#ffc2a8", "#f08a6c", "#c0503a"], 3, 7, 320, 0.28, 0.45)],
    ),
    (
        "love-pair",
        "love",
        "two jellyfish, near and far, rose and lilac",
        PAPER_PALE,
        [
            (380, 300, 70, ["#d9b3f0", "#a77fd6", "#6c4a9e"], 3, 6, 170, 0.3, 0.4),
            (230, 200, 115, ["#ffb3c1", "#f06c8a", "#a8324f"], 3, 7, 280, 0.3, 0.4),
        ],
    ),
    (
        "love-teal",
        "love",
        "teal bell, soft bleed, long swaying tentacles",
        PAPER_PALE,
        [(310, 210, 125, ["#a8e0dc", "#4fb3ad", "#1f6f6a"], 3, 8, 330, 0.32, 0.4)],
    ),
    (
        "love-amber",
        "love",
        "amber bell glowing on sea-blue paper",
        PAPER_SEA,
        [(300, 240, 120, ["#ffd8a0", "#f5a340", "#b86a12"], 3, 7, 290, 0.3, 0.45)],
    ),
    (
        "okay-one-wash",
        "okay",
        "one wash of violet, few tentacles",
        PAPER_PALE,
        [(300, 240, 120, ["#b592d8", "#9a6fd0", "#5d3a9b"], 1, 4, 220, 0.15, 0.2)],
    ),
    (
        "okay-two-wash",
        "okay",
        "two washes of rose, short tentacles",
        PAPER_PALE,
        [(300, 250, 115, ["#f7a8b8", "#e0607e", "#a8324f"], 2, 5, 160, 0.2, 0.3)],
    ),
    (
        "okay-small",
        "okay",
        "a small teal jellyfish, centred",
        PAPER_SEA,
        [(300, 260, 80, ["#a8e0dc", "#4fb3ad", "#1f6f6a"], 2, 5, 170, 0.25, 0.3)],
    ),
    (
        "okay-flat",
        "okay",
        "flat peach bell, no texture",
        PAPER_PALE,
        [(300, 240, 125, ["#ffc2a8", "#f08a6c", "#c0503a"], 2, 6, 230, 0.05, 0.0)],
    ),
    (
        "okay-low",
        "okay",
        "a lilac jellyfish sitting low in the frame",
        PAPER_PALE,
        [(300, 380, 110, ["#d9b3f0", "#a77fd6", "#6c4a9e"], 2, 6, 150, 0.25, 0.3)],
    ),
    (
        "okay-wide",
        "okay",
        "a wide amber bell, stubby tentacles",
        PAPER_SEA,
        [(300, 250, 160, ["#ffd8a0", "#f5a340", "#b86a12"], 2, 8, 120, 0.2, 0.3)],
    ),
    (
        "nope-muddy",
        "nope",
        "brown on grey: muddy, no glow",
        "150, 145, 135",
        [(300, 240, 120, ["#6b5a48", "#5a4a3a", "#3d3128"], 3, 6, 250, 0.3, 0.4)],
    ),
    (
        "nope-cropped",
        "nope",
        "bell cut off by the top edge",
        PAPER_PALE,
        [(300, 20, 150, ["#c9a3e6", "#9a6fd0", "#5d3a9b"], 3, 7, 260, 0.3, 0.4)],
    ),
    (
        "nope-tiny",
        "nope",
        "lost in the paper: a speck",
        PAPER_PALE,
        [(300, 300, 40, ["#c9a3e6", "#9a6fd0", "#5d3a9b"], 2, 4, 80, 0.2, 0.3)],
    ),
    (
        "nope-garish",
        "nope",
        "saturated red and green, opaque, no bleed",
        "20, 200, 40",
        [(300, 240, 130, ["#ff0000", "#ff0000", "#0000ff"], 3, 7, 260, 0.0, 0.0)],
    ),
    (
        "nope-stumps",
        "nope",
        "a heavy dome with no tentacles to speak of",
        PAPER_PALE,
        [(300, 300, 170, ["#5d3a9b", "#3d2370", "#2a184d"], 3, 3, 30, 0.05, 0.1)],
    ),
]


def sketch(name: str, about: str, paper: str, jellies: list[tuple]) -> str:
    """One jellyfish sketch: the header's helpers and one `jelly(...)` call a jellyfish."""
    calls = []
    for cx, cy, size, colours, layers, tentacles, length, bleed, texture in jellies:
        palette = ", ".join(f'"{c}"' for c in colours)
        calls.append(f"  jelly({cx}, {cy}, {size}, [{palette}], {layers}, {tentacles}, {length}, {bleed}, {texture});")
    return HEADER.format(about=about, paper=paper, body="\n".join(calls))


BY_HAND = {"jelly-17": "love"}
"""Sketches written by hand, in code of their own rather than from this header (compose leaves
their files alone): `jelly-17` is the pool's oracle, since the template's paintings are copies of
one another to the copy guard (docs/pool.md, "The Space's oracle")."""

ORDER = [5, 12, 0, 8, 14, 2, 10, 6, 15, 3, 11, 7, 1, 13, 9, 4]
"""The files' order, jelly-01 to jelly-16: ids that do not give the tier away on the rating page."""


def main() -> None:
    """Writes sketches/jelly-01.js .. jelly-16.js and tiers.json (id -> tier, `BY_HAND` too)."""
    (HERE / "sketches").mkdir(exist_ok=True)
    tiers = {}
    for number, index in enumerate(ORDER, start=1):
        name, tier, about, paper, jellies = JELLIES[index]
        jelly_id = f"jelly-{number:02d}"
        (HERE / "sketches" / f"{jelly_id}.js").write_text(sketch(name, about, paper, jellies), encoding="utf-8")
        tiers[jelly_id] = tier
    tiers |= BY_HAND
    (HERE / "tiers.json").write_text(json.dumps(tiers, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
