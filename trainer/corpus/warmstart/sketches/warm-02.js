// a rose pink hibiscus
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
  brush.fill("#587f4a", 190);
  brush.fillTexture(0.4, 0.3);
  brush.fillBleed(0.2);
  leaf(304, 242, 258, 138, 0.3);
  leaf(373, 272, 332, 144, 0.3);
  leaf(248, 272, 204, 122, 0.3);
  bloom(316, 303, 141, -11);
}

function bloom(x, y, reach, turn) {
  brush.fillBleed(0.17, "out");
  brush.fillTexture(0.36, 0.5);
  brush.fill("#f6c3d3", 189);
  petals(x, y, turn, reach, 1);
  brush.fill("#ea7ea2", 207);
  petals(x, y, turn, reach * 0.86, 0.66);
  brush.fill("#c43c72", 232);
  petals(x, y, turn, reach * 0.58, 0.56);
  brush.fillBleed(0.04);
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
