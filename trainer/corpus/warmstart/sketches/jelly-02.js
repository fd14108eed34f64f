// a lilac jellyfish
function setup() {
  createCanvas(600, 600, WEBGL);
  angleMode(DEGREES);
  noLoop();
}

function draw() {
  translate(-width / 2, -height / 2);
  background(245, 243, 237);
  brush.scaleBrushes(3);
  brush.noStroke();
  brush.fillBleed(0.4);
  brush.fillTexture(0.6, 0.2);
  brush.fill("#e2e4f1", 93);
  brush.circle(344, 374, 234);
  jelly(327, 253, 118, -10);
}

function jelly(x, y, size, drift) {
  brush.fillBleed(0.05);
  brush.fillTexture(0.3, 0.1);
  brush.fill("#e6b5c8", 150);
  for (let k = -3; k <= 3; k++) {
    trail(x + k * size * 0.28, y, size * 2.3, 2, drift + k * 50);
  }
  brush.fill("#a98bd1", 160);
  for (let k = -1; k <= 1; k++) {
    trail(x + k * size * 0.2, y - size * 0.1, size * 1.5, 10, drift + k * 70 + 40);
  }
  brush.fillBleed(0.26, "out");
  brush.fillTexture(0.53, 0.26);
  brush.fill("#e0d3f0", 162);
  dome(x, y, size, 16);
  brush.fill("#bba2dd", 189);
  dome(x, y - size * 0.07, size * 0.79, 11);
  brush.fill("#8b68bd", 212);
  dome(x, y - size * 0.18, size * 0.48, 7);
}

function dome(x, y, w, frill) {
  brush.beginShape(0.5);
  for (let a = 180; a <= 360; a += 15) {
    brush.vertex(x + cos(a) * w, y + sin(a) * w * 0.62);
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
