// starter pool: bloom-16
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
  brush.fill("#dfe9ee", 70);
  brush.fillBleed(0.45, "out");
  brush.fillTexture(0.6, 0.2);
  brush.circle(101, 404, 182);
  brush.fill("#efe3d0", 70);
  brush.fillBleed(0.45, "out");
  brush.fillTexture(0.6, 0.2);
  brush.circle(148, 558, 130);
  brush.fill("#dfe9ee", 70);
  brush.fillBleed(0.45, "out");
  brush.fillTexture(0.6, 0.2);
  brush.circle(105, 338, 130);
  flower(271, 263, 213, 5, 33, ["#e3d4f3", "#b497d6", "#7b4fa8", "#3b1557"], 3, 0.29, 0.4, 0.72);
  brush.fill("#b5213a", 160);
  brush.beginShape(0.2);
  brush.vertex(268, 263);
  brush.vertex(274, 263);
  brush.vertex(271 + 117 * cos(265) + 3, 263 + 117 * sin(265));
  brush.vertex(271 + 117 * cos(265) - 3, 263 + 117 * sin(265));
  brush.endShape(true);
  for (let i = 0; i < 6; i++) {
    brush.fill("#f2c230", 190);
    brush.circle(271 + 117 * cos(265) + 9 * cos(i * 60), 263 + 117 * sin(265) + 9 * sin(i * 60), 5);
  }
}
