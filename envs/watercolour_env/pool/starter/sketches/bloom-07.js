// starter pool: bloom-07
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
  background(250, 246, 238);
  brush.scaleBrushes(3);
  brush.noStroke();
  brush.fill("#e4ecdc", 70);
  brush.fillBleed(0.45, "out");
  brush.fillTexture(0.6, 0.2);
  brush.circle(140, 488, 178);
  brush.fill("#efe3d0", 70);
  brush.fillBleed(0.45, "out");
  brush.fillTexture(0.6, 0.2);
  brush.circle(305, 503, 113);
  brush.fill("#efe3d0", 70);
  brush.fillBleed(0.45, "out");
  brush.fillTexture(0.6, 0.2);
  brush.circle(530, 105, 173);
  leaf(287, 290, 189, 234, "#8db580", 110);
  leaf(287, 290, 210, 254, "#5b8a45", 110);
  leaf(287, 290, 7, 218, "#8db580", 110);
  flower(287, 290, 199, 5, 69, ["#fff1a8", "#fcd34d", "#e59f1a", "#8c1c13"], 3, 0.39, 0.42, 0.7);
  brush.fill("#b5213a", 160);
  brush.beginShape(0.2);
  brush.vertex(284, 290);
  brush.vertex(290, 290);
  brush.vertex(287 + 109 * cos(263) + 3, 290 + 109 * sin(263));
  brush.vertex(287 + 109 * cos(263) - 3, 290 + 109 * sin(263));
  brush.endShape(true);
  for (let i = 0; i < 6; i++) {
    brush.fill("#f2c230", 190);
    brush.circle(287 + 109 * cos(263) + 9 * cos(i * 60), 290 + 109 * sin(263) + 9 * sin(i * 60), 5);
  }
}
