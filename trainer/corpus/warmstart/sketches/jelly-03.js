// a blue jellyfish
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
  brush.fill("#dbeae6", 91);
  brush.circle(310, 412, 233);
  jelly(267, 282, 115, -32);
}

function jelly(x, y, size, drift) {
  brush.fillBleed(0.05);
  brush.fillTexture(0.3, 0.1);
  brush.fill("#d8c07a", 150);
  for (let k = -4; k <= 4; k++) {
    trail(x + k * size * 0.21, y, size * 2.5, 2, drift + k * 50);
  }
  brush.fill("#6ba7d8", 160);
  for (let k = -1; k <= 1; k++) {
    trail(x + k * size * 0.2, y - size * 0.1, size * 1.7, 7, drift + k * 70 + 40);
  }
  brush.fillBleed(0.28, "out");
  brush.fillTexture(0.49, 0.32);
  brush.fill("#cde3f3", 168);
  dome(x, y, size, 14);
  brush.fill("#8ec0e5", 192);
  dome(x, y - size * 0.08, size * 0.78, 9);
  brush.fill("#4d8cc4", 203);
  dome(x, y - size * 0.21, size * 0.41, 6);
}

function dome(x, y, w, frill) {
  brush.beginShape(0.5);
  for (let a = 180; a <= 360; a += 15) {
    brush.vertex(x + cos(a) * w, y + sin(a) * w * 0.72);
  }
  for (let s = 1; s < 8; s++) {
    brush.vertex(x + w - s * w / 4, y + frill * (s % 2));
  }
  brush.endShape(true);
}

function trail(x, y, len, wide, phase) {
  brush.beginShape(0.8);
  for (let t = 0; t <= 1.01; t += 0.1) {
    brush.vertex(x + t * 23 * sin(phase + t * 300) - wide * (1 - t * 0.7), y + len * t);
  }
  for (let t = 1; t >= -0.01; t -= 0.1) {
    brush.vertex(x + t * 23 * sin(phase + t * 300) + wide * (1 - t * 0.7), y + len * t);
  }
  brush.endShape(true);
}
