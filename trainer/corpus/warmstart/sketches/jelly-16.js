// a amber jellyfish
function setup() {
  createCanvas(600, 600, WEBGL);
  angleMode(DEGREES);
  noLoop();
}

function draw() {
  translate(-width / 2, -height / 2);
  background(247, 244, 236);
  brush.scaleBrushes(3);
  brush.noStroke();
  brush.fillBleed(0.4);
  brush.fillTexture(0.6, 0.2);
  brush.fill("#d5e6ef", 97);
  brush.circle(277, 320, 185);
  brush.fill("#e2e4f1", 99);
  brush.circle(366, 315, 218);
  jelly(347, 251, 105, -51);
}

function jelly(x, y, size, drift) {
  brush.fillBleed(0.05);
  brush.fillTexture(0.3, 0.1);
  brush.fill("#d8704a", 150);
  for (let k = -3; k <= 3; k++) {
    trail(x + k * size * 0.28, y, size * 2.2, 2, drift + k * 50);
  }
  brush.fill("#e29a52", 160);
  for (let k = -1; k <= 1; k++) {
    trail(x + k * size * 0.2, y - size * 0.1, size * 1.3, 7, drift + k * 70 + 40);
  }
  brush.fillBleed(0.22, "out");
  brush.fillTexture(0.45, 0.34);
  brush.fill("#fadcad", 154);
  dome(x, y, size, 12);
  brush.fill("#d88a36", 182);
  dome(x, y - size * 0.1, size * 0.71, 10);
}

function dome(x, y, w, frill) {
  brush.beginShape(0.5);
  for (let a = 180; a <= 360; a += 15) {
    brush.vertex(x + cos(a) * w, y + sin(a) * w * 0.63);
  }
  for (let s = 1; s < 8; s++) {
    brush.vertex(x + w - s * w / 4, y + frill * (s % 2));
  }
  brush.endShape(true);
}

function trail(x, y, len, wide, phase) {
  brush.beginShape(0.8);
  for (let t = 0; t <= 1.01; t += 0.1) {
    brush.vertex(x + t * 26 * sin(phase + t * 300) - wide * (1 - t * 0.7), y + len * t);
  }
  for (let t = 1; t >= -0.01; t -= 0.1) {
    brush.vertex(x + t * 26 * sin(phase + t * 300) + wide * (1 - t * 0.7), y + len * t);
  }
  brush.endShape(true);
}
