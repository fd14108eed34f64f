// a yellow hibiscus
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
  brush.fill("#6b903a", 190);
  brush.fillTexture(0.4, 0.3);
  brush.fillBleed(0.02);
  leaf(232, 331, 105, 184, 0.02);
  brush.fillBleed(0.2);
  leaf(198, 233, 227, 124, 0.3);
  leaf(242, 209, 268, 161, 0.3);
  leaf(319, 273, 352, 124, 0.3);
  bloom(245, 283, 143, 13);
}

function bloom(x, y, reach, turn) {
  brush.fillBleed(0.19, "out");
  brush.fillTexture(0.58, 0.44);
  brush.fill("#f8e69c", 203);
  petals(x, y, turn, reach, 1);
  brush.fill("#e6a12c", 207);
  petals(x, y, turn, reach * 0.74, 0.65);
  brush.fillBleed(0.05);
  brush.fill("#9c1d36", 250);
  petals(x, y, turn, reach * 0.3, 0.4);
  brush.circle(x, y, reach * 0.1);
  leaf(x, y, turn + 30, reach * 0.8, 0.03);
  brush.fill("#e2742a", 250);
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
