// a orange hibiscus
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
  brush.fill("#6b903a", 190);
  brush.fillTexture(0.4, 0.3);
  brush.fillBleed(0.02);
  leaf(266, 357, 107, 240, 0.02);
  brush.fillBleed(0.2);
  leaf(259, 354, 116, 129, 0.3);
  leaf(353, 314, 4, 141, 0.3);
  leaf(207, 301, 186, 162, 0.3);
  bloom(281, 309, 143, -19);
}

function bloom(x, y, reach, turn) {
  brush.fillBleed(0.2, "out");
  brush.fillTexture(0.6, 0.45);
  brush.fill("#fbc893", 186);
  petals(x, y, turn, reach, 1);
  brush.fill("#f59648", 201);
  petals(x, y, turn, reach * 0.85, 0.61);
  brush.fill("#da5b2c", 221);
  petals(x, y, turn, reach * 0.53, 0.57);
  brush.fillBleed(0.05);
  brush.fill("#761b15", 250);
  petals(x, y, turn, reach * 0.3, 0.4);
  brush.circle(x, y, reach * 0.1);
  leaf(x, y, turn + 30, reach * 0.8, 0.03);
  brush.fill("#f6d653", 250);
  for (let f = 0.6; f < 0.85; f += 0.05) {
    brush.circle(x + cos(turn + 36) * reach * f, y + sin(turn + 36) * reach * f, 5);
  }
}

function petals(x, y, turn, reach, width) {
  for (let k = 0; k < 360; k += 60) {
    brush.beginShape(0.75);
    brush.vertex(x, y);
    for (let s = -1; s <= 1.01; s += 0.2) {
      let a = turn + k + s * width * 30;
      let r = reach * (1 - 0.2 * s * s + 0.05 * sin(s * 500 + turn + k));
      brush.vertex(x + cos(a) * r, y + sin(a) * r);
    }
    brush.endShape(true);
  }
}

function leaf(x, y, heading, size, fat) {
  let c = cos(heading), d = sin(heading);
  brush.beginShape(0.9);
  for (let s = 0; s < 360; s += 45) {
    let along = size * (1 - cos(s)) / 2, off = fat * size * sin(s);
    brush.vertex(x + along * c - off * d, y + along * d + off * c);
  }
  brush.endShape(true);
}
