// warm-01: two scarlet hibiscuses, 5 petals, 1 wash, 3 leaves
const PETALS = 5, BLOOMS = [[258, 221, 119, 10], [205, 388, 78, 35]]; // x, y, reach, turn
const WASHES = [["#e2473f", 188, 1, 1]]; // colour, opacity, length, width
const THROAT = "#5c0a1b", POLLEN = "#f2c12e", LEAF = "#5f8a3c";
const LEAVES = [[255, 156, 267, 98], [237, 285, 108, 115], [300, 251, 35, 129]]; // x, y, heading, length
const STEM = null;
const BLEED = 0.27, GRAIN = [0.64, 0.34];

function setup() {
  createCanvas(600, 600, WEBGL);
  angleMode(DEGREES);
  noLoop();
}

function draw() {
  translate(-width / 2, -height / 2);
  background(251, 249, 243);
  brush.scaleBrushes(3);
  brush.noStroke();
  brush.fill(LEAF, 190);
  brush.fillTexture(0.4, 0.3);
  brush.fillBleed(0.02);
  if (STEM) leaf(...STEM, 0.02);
  brush.fillBleed(0.2);
  for (const l of LEAVES) leaf(...l, 0.3);
  for (const b of BLOOMS) bloom(...b);
}

function bloom(x, y, reach, turn) {
  let a = turn + 180 / PETALS;
  brush.fillBleed(BLEED, "out");
  brush.fillTexture(GRAIN[0], GRAIN[1]);
  for (const [colour, alpha, length, width] of WASHES) {
    brush.fill(colour, alpha);
    petals(x, y, turn, reach * length, width);
  }
  brush.fillBleed(BLEED / 4);
  brush.fill(THROAT, 250);
  petals(x, y, turn, reach * 0.3, 0.4);
  brush.circle(x, y, reach * 0.1);
  leaf(x, y, a, reach * 0.8, 0.03);
  brush.fill(POLLEN, 250);
  for (let f = 0.6; f < 0.85; f += 0.04) {
    let b = a + 10 * sin(f * 3000);
    brush.circle(x + cos(b) * reach * f, y + sin(b) * reach * f, 5);
  }
}

// petals: fans from the throat to a ruffled rim
function petals(x, y, turn, reach, width) {
  for (let k = 0; k < 360; k += 360 / PETALS) {
    let heading = turn + k, half = width * 180 / PETALS;
    brush.beginShape(0.75);
    brush.vertex(x, y);
    for (let s = -1; s <= 1.01; s += 0.2) {
      let a = heading + s * half, r = reach * (1 - 0.2 * s * s + 0.05 * sin(s * 500 + heading));
      brush.vertex(x + cos(a) * r, y + sin(a) * r);
    }
    brush.endShape(true);
  }
}

// a pointed lens: leaf, stem or column
function leaf(x, y, heading, size, fat) {
  let c = cos(heading), d = sin(heading);
  brush.beginShape(0.9);
  for (let s = 0; s < 2; s += 0.25) {
    let t = min(s, 2 - s), along = size * t, off = (s <= 1 ? fat : -fat) * size * sin(t * 180);
    brush.vertex(x + along * c - off * d, y + along * d + off * c);
  }
  brush.endShape(true);
}
