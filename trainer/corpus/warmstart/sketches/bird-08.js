// a bluebird on a branch
function setup() {
  createCanvas(600, 600, WEBGL);
  angleMode(DEGREES);
  noLoop();
}

function draw() {
  translate(-width / 2, -height / 2);
  background(246, 242, 233);
  brush.scaleBrushes(3);
  brush.noStroke();
  brush.fillBleed(0.05);
  brush.fillTexture(0.45, 0.35);
  brush.fill("#6e5444", 210);
  leaf(720, 338, 179, 478, 0.02);
  leaf(385, 345, 183, 369, 0.03);
  bird(410, 288, 64, -1);
}

function bird(x, y, size, face) {
  brush.fillBleed(0.18, "out");
  brush.fillTexture(0.47, 0.28);
  brush.fill("#c9dcf0", 178);
  body(x, y, size, face);
  brush.fill("#86afdd", 190);
  body(x, y - size * 0.04, size * 0.88, face);
  brush.fill("#4a7cc0", 205);
  body(x, y - size * 0.11, size * 0.63, face);
  brush.fill("#3f6fb5", 200);
  leaf(x + face * size * 0.4, y - size * 0.3, 90 + face * 75, size * 1.2, 0.2);
  brush.fill("#e0915a", 190);
  brush.circle(x + face * size * 0.5, y + size * 0.1, size * 0.4);
  brush.fillBleed(0.02);
  brush.fill("#3a2c24", 230);
  leaf(x + face * size * 1.1, y - size * 0.6, 90 - face * 90, size * 0.3, 0.2);
  brush.circle(x + face * size, y - size * 0.6, 5);
  for (let k = -1; k <= 1; k += 2) {
    leaf(x + k * size * 0.15, y + size * 0.5, 90, size * 0.4, 0.05);
  }
}

function body(x, y, size, face) {
  leaf(x - face * size * 0.8, y + size * 0.2, 90 + face * 55, size * 1.1, 0.13);
  leaf(x + face * size * 1.2, y - size * 0.45, 90 + face * 70, size * 2.6, 0.27);
  brush.circle(x + face * size * 0.8, y - size * 0.55, size * 0.45);
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
