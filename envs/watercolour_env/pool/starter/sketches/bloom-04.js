// starter pool: bloom-04
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
  background(244, 239, 228);
  brush.scaleBrushes(3);
  brush.noStroke();
  brush.fill("#e4ecdc", 70);
  brush.fillBleed(0.45, "out");
  brush.fillTexture(0.6, 0.2);
  brush.circle(470, 530, 155);
  brush.fill("#dfe9ee", 70);
  brush.fillBleed(0.45, "out");
  brush.fillTexture(0.6, 0.2);
  brush.circle(65, 269, 188);
  brush.fill("#e4ecdc", 70);
  brush.fillBleed(0.45, "out");
  brush.fillTexture(0.6, 0.2);
  brush.circle(90, 145, 181);
  flower(317, 283, 224, 5, 54, ["#ffd6a5", "#f9a45c", "#e4572e", "#8a1c12"], 3, 0.32, 0.54, 0.56);
  brush.fill("#b5213a", 160);
  brush.beginShape(0.2);
  brush.vertex(314, 283);
  brush.vertex(320, 283);
  brush.vertex(317 + 123 * cos(231) + 3, 283 + 123 * sin(231));
  brush.vertex(317 + 123 * cos(231) - 3, 283 + 123 * sin(231));
  brush.endShape(true);
  for (let i = 0; i < 6; i++) {
    brush.fill("#f2c230", 190);
    brush.circle(317 + 123 * cos(231) + 9 * cos(i * 60), 283 + 123 * sin(231) + 9 * sin(i * 60), 5);
  }
}
