// starter pool: weak-crowded
// deliberately weak: overworked: forty blobs everywhere
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
  brush.fill("#ffd6a5", 170);
  brush.circle(174, 246, 48);
  brush.fill("#3b1557", 170);
  brush.circle(217, 381, 40);
  brush.fill("#8c1c13", 170);
  brush.circle(433, 470, 66);
  brush.fill("#f9a45c", 170);
  brush.circle(316, 451, 81);
  brush.fill("#f28482", 170);
  brush.circle(216, 200, 34);
  brush.fill("#f28482", 170);
  brush.circle(362, 161, 34);
  brush.fill("#5c0a2e", 170);
  brush.circle(208, 443, 44);
  brush.fill("#8c1c13", 170);
  brush.circle(31, 560, 38);
  brush.fill("#f0463c", 170);
  brush.circle(294, 373, 70);
  brush.fill("#f7b39a", 170);
  brush.circle(488, 533, 78);
  brush.fill("#f0463c", 170);
  brush.circle(362, 499, 37);
  brush.fill("#d64550", 170);
  brush.circle(147, 573, 48);
  brush.fill("#d9a6a6", 170);
  brush.circle(466, 386, 26);
  brush.fill("#f4ece6", 170);
  brush.circle(260, 80, 79);
  brush.fill("#b497d6", 170);
  brush.circle(354, 559, 87);
  brush.fill("#d64550", 170);
  brush.circle(282, 303, 24);
  brush.fill("#f28482", 170);
  brush.circle(42, 71, 87);
  brush.fill("#e3d4f3", 170);
  brush.circle(577, 111, 69);
  brush.fill("#b497d6", 170);
  brush.circle(490, 553, 22);
  brush.fill("#e56b9f", 170);
  brush.circle(326, 137, 23);
  brush.fill("#d64550", 170);
  brush.circle(401, 94, 41);
  brush.fill("#ff9a8b", 170);
  brush.circle(18, 47, 29);
  brush.fill("#6d0f1f", 170);
  brush.circle(342, 156, 59);
  brush.fill("#7b4fa8", 170);
  brush.circle(247, 329, 79);
  brush.fill("#8a1c12", 170);
  brush.circle(409, 244, 85);
  brush.fill("#f4ece6", 170);
  brush.circle(428, 42, 82);
  brush.fill("#8a1c12", 170);
  brush.circle(188, 449, 44);
  brush.fill("#6d0f1f", 170);
  brush.circle(487, 390, 81);
  brush.fill("#ee7a5c", 170);
  brush.circle(510, 223, 69);
  brush.fill("#c93a3a", 170);
  brush.circle(542, 476, 37);
  brush.fill("#b3141b", 170);
  brush.circle(246, 533, 60);
  brush.fill("#f0463c", 170);
  brush.circle(442, 594, 23);
  brush.fill("#d9a6a6", 170);
  brush.circle(532, 170, 87);
  brush.fill("#6d0f1f", 170);
  brush.circle(576, 377, 47);
  brush.fill("#ffb4a2", 170);
  brush.circle(567, 174, 78);
  brush.fill("#fcd34d", 170);
  brush.circle(113, 108, 73);
  brush.fill("#fcd34d", 170);
  brush.circle(5, 250, 45);
  brush.fill("#7a1026", 170);
  brush.circle(268, 173, 87);
  brush.fill("#f0463c", 170);
  brush.circle(383, 86, 52);
  brush.fill("#b0245c", 170);
  brush.circle(37, 223, 34);
}
