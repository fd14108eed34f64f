// two coral jellyfish
function setup() {
  createCanvas(600, 600, WEBGL);
  angleMode(DEGREES);
  noLoop();
}

function draw() {
  translate(-width / 2, -height / 2);
  background(250, 248, 244);
  brush.scaleBrushes(3);
  brush.noStroke();
  jelly(452, 418, 48, -8);
  jelly(271, 275, 103, 39);
}

function jelly(x, y, size, drift) {
  brush.fillBleed(0.05);
  brush.fillTexture(0.3, 0.1);
  brush.fill("#c84d3b", 150);
  for (let k = -2; k <= 2; k++) {
    trail(x + k * size * 0.42, y, size * 2.3, 2, drift + k * 50);
  }
  brush.fill("#e07b57", 160);
  for (let k = -1; k <= 1; k++) {
    trail(x + k * size * 0.2, y - size * 0.1, size * 1.5, 6, drift + k * 70 + 40);
  }
  brush.fillBleed(0.31, "out");
  brush.fillTexture(0.59, 0.33);
  brush.fill("#f9cdb9", 151);
  dome(x, y, size, 14);
  brush.fill("#f29b79", 180);
  dome(x, y - size * 0.07, size * 0.79, 9);
  brush.fill("#d8623f", 204);
  dome(x, y - size * 0.18, size * 0.49, 7);
}

function dome(x, y, w, frill) {
  brush.beginShape(0.5);
  for (let a = 180; a <= 360; a += 15) {
    brush.vertex(x + cos(a) * w, y + sin(a) * w * 0.8);
  }
  for (let s = 1; s < 8; s++) {
    brush.vertex(x + w - s * w / 4, y + frill * (s % 2));
  }
  brush.endShape(true);
}

function trail(x, y, len, wide, phase) {
  brush.beginShape(0.8);
  for (let t = 0; t <= 1.01; t += 0.1) {
    brush.vertex(x + t * 22 * sin(phase + t * 300) - wide * (1 - t * 0.7), y + len * t);
  }
  for (let t = 1; t >= -0.01; t -= 0.1) {
    brush.vertex(x + t * 22 * sin(phase + t * 300) + wide * (1 - t * 0.7), y + len * t);
  }
  brush.endShape(true);
}
