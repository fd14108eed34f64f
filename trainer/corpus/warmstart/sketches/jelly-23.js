// a moon jellyfish
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
  jelly(327, 258, 115, 23);
}

function jelly(x, y, size, drift) {
  brush.fillBleed(0.05);
  brush.fillTexture(0.3, 0.1);
  brush.fill("#c2aad6", 150);
  for (let k = -3; k <= 3; k++) {
    trail(x + k * size * 0.28, y, size * 2.6, 2, drift + k * 50);
  }
  brush.fill("#a4c0d8", 160);
  for (let k = -1; k <= 1; k++) {
    trail(x + k * size * 0.2, y - size * 0.1, size * 1.7, 8, drift + k * 70 + 40);
  }
  brush.fillBleed(0.27, "out");
  brush.fillTexture(0.65, 0.3);
  brush.fill("#dce8f1", 159);
  dome(x, y, size, 15);
  brush.fill("#b5cee2", 189);
  dome(x, y - size * 0.08, size * 0.77, 10);
  brush.fill("#86a9c8", 201);
  dome(x, y - size * 0.21, size * 0.41, 5);
  brush.fill("#86a9c8", 200);
  for (let a = 215; a < 340; a += 40) {
    brush.circle(x + cos(a) * size * 0.4, y + sin(a) * size * 0.3, size * 0.1);
  }
}

function dome(x, y, w, frill) {
  brush.beginShape(0.5);
  for (let a = 180; a <= 360; a += 15) {
    brush.vertex(x + cos(a) * w, y + sin(a) * w * 0.53);
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
