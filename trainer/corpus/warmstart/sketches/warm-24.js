// warm-24: two lilac hibiscuses, 5 petals, 3 washes, 3 leaves, stem
const PETALS = 5, BLOOMS = [[237, 258, 113, 25], [413, 430, 84, -23]]; // x, y, reach, turn
const WASHES = [["#ddcdee", 198, 1, 1], ["#b99cd9", 210, 0.86, 0.62], ["#8c60ba", 234, 0.54, 0.56]]; // colour, opacity, length, width
const THROAT = "#491d5d", POLLEN = "#f0d35c", LEAF = "#3f6c3f";
const LEAVES = [[197, 264, 172, 103], [208, 224, 230, 124], [289, 282, 25, 111]]; // x, y, heading, length
const STEM = [225, 296, 107, 241];
const BLEED = 0.19, GRAIN = [0.57, 0.46];

function setup() {
  createCanvas(600, 600, WEBGL);
  angleMode(DEGREES);
  noLoop();
}

function draw() {
  translate(-width / 2, -height / 2);
  background(246, 241, 230);
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
