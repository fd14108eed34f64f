// starter pool: bloom-19
// layered bloom: three petal layers, soft bleed, texture, throat and stamen
function setup() {
  createCanvas(600, 600, WEBGL);
  angleMode(DEGREES);
  noLoop();
}

function petal(cx, cy, angle, length, spread, curvature) {
  brush.beginShape(curvature);
  brush.vertex(cx, cy);
  brush.vertex(cx + length * 0.62 * cos(angle - spread), cy + length * 0.62 * sin(angle - spread));
  brush.vertex(cx + length * cos(angle - spread / 3), cy + length * sin(angle - spread / 3));
  brush.vertex(cx + length * cos(angle + spread / 3), cy + length * sin(angle + spread / 3));
  brush.vertex(cx + length * 0.62 * cos(angle + spread), cy + length * 0.62 * sin(angle + spread));
  brush.endShape(true);
}

function leaf(x, y, angle, length, colour, opacity) {
  brush.fill(colour, opacity);
  brush.fillBleed(0.2);
  brush.beginShape(0.8);
  brush.vertex(x, y);
  brush.vertex(x + length * 0.5 * cos(angle - 25), y + length * 0.5 * sin(angle - 25));
  brush.vertex(x + length * cos(angle), y + length * sin(angle));
  brush.vertex(x + length * 0.5 * cos(angle + 25), y + length * 0.5 * sin(angle + 25));
  brush.endShape(true);
}

function flower(cx, cy, size, petals, turn, colours, layers, bleed, texture, curvature) {
  for (let layer = 0; layer < layers; layer++) {
    const scale = 1 - layer * 0.28;
    for (let i = 0; i < petals; i++) {
      const angle = turn + (i * 360) / petals;
      brush.fill(colours[layer], 90 + layer * 35);
      brush.fillBleed(bleed * (1 - layer * 0.3), "out");
      brush.fillTexture(texture, 0.25);
      petal(cx, cy, angle, size * scale, 180 / petals + 8, curvature);
    }
  }
  brush.fill(colours[3], 170);
  brush.fillBleed(0.08);
  brush.circle(cx, cy, size * 0.13);
}

function draw() {
  translate(-width / 2, -height / 2);
  background(248, 243, 232);
  brush.scaleBrushes(3);
  brush.noStroke();
  brush.fill("#e4ecdc", 70);
  brush.fillBleed(0.45, "out");
  brush.fillTexture(0.6, 0.2);
  brush.circle(41, 428, 101);
  brush.fill("#e4ecdc", 70);
  brush.fillBleed(0.45, "out");
  brush.fillTexture(0.6, 0.2);
  brush.circle(549, 468, 175);
  brush.fill("#e4ecdc", 70);
  brush.fillBleed(0.45, "out");
  brush.fillTexture(0.6, 0.2);
  brush.circle(386, 404, 100);
  leaf(320, 264, 332, 212, "#5b8a45", 110);
  leaf(320, 264, 193, 262, "#5b8a45", 110);
  flower(320, 264, 178, 5, 22, ["#f6c1d0", "#e56b9f", "#b0245c", "#5c0a2e"], 3, 0.3, 0.56, 0.74);
  brush.fill("#b5213a", 160);
  brush.beginShape(0.2);
  brush.vertex(317, 264);
  brush.vertex(323, 264);
  brush.vertex(320 + 97 * cos(287) + 3, 264 + 97 * sin(287));
  brush.vertex(320 + 97 * cos(287) - 3, 264 + 97 * sin(287));
  brush.endShape(true);
  for (let i = 0; i < 6; i++) {
    brush.fill("#f2c230", 190);
    brush.circle(320 + 97 * cos(287) + 9 * cos(i * 60), 264 + 97 * sin(287) + 9 * sin(i * 60), 5);
  }
}
