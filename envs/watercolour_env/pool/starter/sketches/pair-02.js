// starter pool: pair-02
// a composition of two or three blooms with leaves
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
  background(252, 250, 245);
  brush.scaleBrushes(3);
  brush.noStroke();
  brush.fill("#dde8ee", 60);
  brush.fillBleed(0.45, "out");
  brush.fillTexture(0.6, 0.2);
  brush.circle(433, 426, 120);
  brush.fill("#e8e0d0", 60);
  brush.fillBleed(0.45, "out");
  brush.fillTexture(0.6, 0.2);
  brush.circle(264, 168, 113);
  leaf(239, 251, 75, 160, "#8db580", 110);
  leaf(239, 251, 141, 183, "#2f5e2a", 110);
  flower(239, 251, 145, 5, 40, ["#ffb4a2", "#f28482", "#d64550", "#6d0f1f"], 2, 0.3, 0.5, 0.6);
  leaf(410, 372, 303, 193, "#8db580", 110);
  leaf(410, 372, 283, 183, "#5b8a45", 110);
  flower(410, 372, 135, 5, 65, ["#ff9a8b", "#f0463c", "#b3141b", "#4a060a"], 3, 0.3, 0.5, 0.6);
}
