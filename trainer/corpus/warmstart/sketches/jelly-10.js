// two amber jellyfish
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
  brush.fill("#e2e4f1", 76);
  brush.circle(262, 305, 247);
  jelly(441, 371, 51, 32);
  jelly(287, 247, 96, -3);
}

function jelly(x, y, size, drift) {
  brush.fillBleed(0.05);
  brush.fillTexture(0.3, 0.1);
  brush.fill("#d8704a", 150);
  for (let k = -4; k <= 4; k++) {
    trail(x + k * size * 0.21, y, size * 2.5, 2, drift + k * 50);
  }
  brush.fill("#e29a52", 160);
  for (let k = -1; k <= 1; k++) {
    trail(x + k * size * 0.2, y - size * 0.1, size * 1.9, 7, drift + k * 70 + 40);
  }
  brush.fillBleed(0.24, "out");
  brush.fillTexture(0.59, 0.25);
  brush.fill("#fadcad", 170);
  dome(x, y, size, 13);
  brush.fill("#f0b566", 175);
  dome(x, y - size * 0.08, size * 0.78, 8);
  brush.fill("#d88a36", 209);
  dome(x, y - size * 0.18, size * 0.47, 5);
}

function dome(x, y, w, frill) {
  brush.beginShape(0.5);
  for (let a = 180; a <= 360; a += 15) {
    brush.vertex(x + cos(a) * w, y + sin(a) * w * 0.74);
  }
  for (let s = 1; s < 8; s++) {
    brush.vertex(x + w - s * w / 4, y + frill * (s % 2));
  }
  brush.endShape(true);
}

function trail(x, y, len, wide, phase) {
  brush.beginShape(0.8);
  for (let t = 0; t <= 1.01; t += 0.1) {
    brush.vertex(x + t * 36 * sin(phase + t * 300) - wide * (1 - t * 0.7), y + len * t);
  }
  for (let t = 1; t >= -0.01; t -= 0.1) {
    brush.vertex(x + t * 36 * sin(phase + t * 300) + wide * (1 - t * 0.7), y + len * t);
  }
  brush.endShape(true);
}
