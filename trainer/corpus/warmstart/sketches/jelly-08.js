// two lilac jellyfish
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
  brush.fillBleed(0.4);
  brush.fillTexture(0.6, 0.2);
  brush.fill("#d5e6ef", 96);
  brush.circle(226, 314, 218);
  jelly(427, 401, 54, 3);
  jelly(268, 265, 102, -46);
}

function jelly(x, y, size, drift) {
  brush.fillBleed(0.05);
  brush.fillTexture(0.3, 0.1);
  brush.fill("#e6b5c8", 150);
  for (let k = -3; k <= 3; k++) {
    trail(x + k * size * 0.28, y, size * 2.4, 2, drift + k * 50);
  }
  brush.fill("#a98bd1", 160);
  for (let k = -1; k <= 1; k++) {
    trail(x + k * size * 0.2, y - size * 0.1, size * 1.7, 8, drift + k * 70 + 40);
  }
  brush.fillBleed(0.29, "out");
  brush.fillTexture(0.51, 0.21);
  brush.fill("#e0d3f0", 158);
  dome(x, y, size, 10);
  brush.fill("#8b68bd", 186);
  dome(x, y - size * 0.11, size * 0.69, 9);
  brush.fill("#8b68bd", 200);
  for (let a = 215; a < 340; a += 40) {
    brush.circle(x + cos(a) * size * 0.4, y + sin(a) * size * 0.3, size * 0.1);
  }
}

function dome(x, y, w, frill) {
  brush.beginShape(0.5);
  for (let a = 180; a <= 360; a += 15) {
    brush.vertex(x + cos(a) * w, y + sin(a) * w * 0.64);
  }
  for (let s = 1; s < 8; s++) {
    brush.vertex(x + w - s * w / 4, y + frill * (s % 2));
  }
  brush.endShape(true);
}

function trail(x, y, len, wide, phase) {
  brush.beginShape(0.8);
  for (let t = 0; t <= 1.01; t += 0.1) {
    brush.vertex(x + t * 30 * sin(phase + t * 300) - wide * (1 - t * 0.7), y + len * t);
  }
  for (let t = 1; t >= -0.01; t -= 0.1) {
    brush.vertex(x + t * 30 * sin(phase + t * 300) + wide * (1 - t * 0.7), y + len * t);
  }
  brush.endShape(true);
}
