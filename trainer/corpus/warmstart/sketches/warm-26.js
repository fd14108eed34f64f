// a rose pink hibiscus
function setup() {
  createCanvas(600, 600, WEBGL);
  angleMode(DEGREES);
  noLoop();
}

function draw() {
  translate(-width / 2, -height / 2);
  background(250, 246, 238);
  brush.scaleBrushes(3);
  brush.noStroke();
  brush.fill("#587f4a", 190);
  brush.fillTexture(0.4, 0.3);
  brush.fillBleed(0.02);
  leaf(275, 363, 103, 219, 0.02);
  brush.fillBleed(0.2);
  leaf(232, 247, 230, 142, 0.3);
  leaf(370, 311, 359, 142, 0.3);
  leaf(261, 358, 120, 126, 0.3);
  bloom(287, 312, 149, 20);
}

function bloom(x, y, reach, turn) {
  brush.fillBleed(0.3, "out");
  brush.fillTexture(0.43, 0.5);
  brush.fill("#ea7ea2", 199);
  petals(x, y, turn, reach, 1);
  brush.fillBleed(0.07);
  brush.fill("#6e1238", 250);
  petals(x, y, turn, reach * 0.3, 0.4);
  brush.circle(x, y, reach * 0.1);
  leaf(x, y, turn + 36, reach * 0.8, 0.03);
  brush.fill("#f4d24c", 250);
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
