// a rose pink hibiscus
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
  brush.fill("#5f8a3c", 190);
  brush.fillTexture(0.4, 0.3);
  brush.fillBleed(0.02);
  leaf(293, 335, 106, 256, 0.02);
  brush.fillBleed(0.2);
  leaf(350, 269, 330, 119, 0.3);
  leaf(352, 327, 33, 124, 0.3);
  bloom(304, 296, 116, -25);
}

function bloom(x, y, reach, turn) {
  brush.fillBleed(0.29, "out");
  brush.fillTexture(0.58, 0.47);
  brush.fill("#f6c3d3", 194);
  petals(x, y, turn, reach, 1);
  brush.fill("#ea7ea2", 209);
  petals(x, y, turn, reach * 0.86, 0.6);
  brush.fill("#c43c72", 230);
  petals(x, y, turn, reach * 0.64, 0.54);
  brush.fillBleed(0.07);
  brush.fill("#6e1238", 250);
  petals(x, y, turn, reach * 0.3, 0.4);
  brush.circle(x, y, reach * 0.1);
  leaf(x, y, turn + 30, reach * 0.8, 0.03);
  brush.fill("#f4d24c", 250);
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
