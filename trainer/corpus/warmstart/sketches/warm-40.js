// a lilac hibiscus
function setup() {
  createCanvas(600, 600, WEBGL);
  angleMode(DEGREES);
  noLoop();
}

function draw() {
  translate(-width / 2, -height / 2);
  background(247, 243, 233);
  brush.scaleBrushes(3);
  brush.noStroke();
  brush.fill("#3f6c3f", 190);
  brush.fillTexture(0.4, 0.3);
  brush.fillBleed(0.02);
  leaf(362, 337, 92, 210, 0.02);
  brush.fillBleed(0.2);
  leaf(344, 236, 250, 134, 0.3);
  leaf(404, 231, 306, 158, 0.3);
  leaf(340, 333, 117, 137, 0.3);
  bloom(363, 288, 140, -26);
}

function bloom(x, y, reach, turn) {
  brush.fillBleed(0.18, "out");
  brush.fillTexture(0.56, 0.48);
  brush.fill("#ddcdee", 190);
  petals(x, y, turn, reach, 1);
  brush.fill("#b99cd9", 218);
  petals(x, y, turn, reach * 0.89, 0.65);
  brush.fill("#8c60ba", 218);
  petals(x, y, turn, reach * 0.64, 0.57);
  brush.fillBleed(0.04);
  brush.fill("#491d5d", 250);
  petals(x, y, turn, reach * 0.3, 0.4);
  brush.circle(x, y, reach * 0.1);
  leaf(x, y, turn + 36, reach * 0.8, 0.03);
  brush.fill("#f0d35c", 250);
  for (let f = 0.6; f < 0.85; f += 0.05) {
    brush.circle(x + cos(turn + 42) * reach * f, y + sin(turn + 42) * reach * f, 5);
  }
}

function petals(x, y, turn, reach, width) {
  for (let k = 0; k < 360; k += 72) {
    brush.beginShape(0.75);
    brush.vertex(x, y);
    for (let s = -1; s <= 1.01; s += 0.2) {
      let a = turn + k + s * width * 36;
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
