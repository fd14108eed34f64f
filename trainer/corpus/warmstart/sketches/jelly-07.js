// two pink jellyfish
function setup() {
  createCanvas(600, 600, WEBGL);
  angleMode(DEGREES);
  noLoop();
}

function draw() {
  translate(-width / 2, -height / 2);
  background(249, 246, 240);
  brush.scaleBrushes(3);
  brush.noStroke();
  brush.fillBleed(0.4);
  brush.fillTexture(0.6, 0.2);
  brush.fill("#d9e9f0", 100);
  brush.circle(277, 275, 194);
  jelly(421, 382, 55, 15);
  jelly(257, 247, 103, -51);
}

function jelly(x, y, size, drift) {
  brush.fillBleed(0.05);
  brush.fillTexture(0.3, 0.1);
  brush.fill("#eab36c", 150);
  for (let k = -3; k <= 3; k++) {
    trail(x + k * size * 0.28, y, size * 2.2, 2, drift + k * 50);
  }
  brush.fill("#dc7ea9", 160);
  for (let k = -1; k <= 1; k++) {
    trail(x + k * size * 0.2, y - size * 0.1, size * 1.7, 8, drift + k * 70 + 40);
  }
  brush.fillBleed(0.23, "out");
  brush.fillTexture(0.48, 0.25);
  brush.fill("#f5c6d6", 167);
  dome(x, y, size, 16);
  brush.fill("#c95b8f", 179);
  dome(x, y - size * 0.09, size * 0.73, 11);
}

function dome(x, y, w, frill) {
  brush.beginShape(0.5);
  for (let a = 180; a <= 360; a += 15) {
    brush.vertex(x + cos(a) * w, y + sin(a) * w * 0.77);
  }
  for (let s = 1; s < 8; s++) {
    brush.vertex(x + w - s * w / 4, y + frill * (s % 2));
  }
  brush.endShape(true);
}

function trail(x, y, len, wide, phase) {
  brush.beginShape(0.8);
  for (let t = 0; t <= 1.01; t += 0.1) {
    brush.vertex(x + t * 20 * sin(phase + t * 300) - wide * (1 - t * 0.7), y + len * t);
  }
  for (let t = 1; t >= -0.01; t -= 0.1) {
    brush.vertex(x + t * 20 * sin(phase + t * 300) + wide * (1 - t * 0.7), y + len * t);
  }
  brush.endShape(true);
}
