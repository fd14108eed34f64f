// starter pool: bloom-10
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
  brush.circle(241, 425, 91);
  brush.fill("#efe3d0", 70);
  brush.fillBleed(0.45, "out");
  brush.fillTexture(0.6, 0.2);
  brush.circle(438, 115, 96);
  brush.fill("#e4ecdc", 70);
  brush.fillBleed(0.45, "out");
  brush.fillTexture(0.6, 0.2);
  brush.circle(401, 66, 93);
  flower(299, 269, 203, 5, 60, ["#ffb4a2", "#f28482", "#d64550", "#6d0f1f"], 3, 0.3, 0.49, 0.58);
  brush.fill("#b5213a", 160);
  brush.beginShape(0.2);
  brush.vertex(296, 269);
  brush.vertex(302, 269);
  brush.vertex(299 + 111 * cos(231) + 3, 269 + 111 * sin(231));
  brush.vertex(299 + 111 * cos(231) - 3, 269 + 111 * sin(231));
  brush.endShape(true);
  for (let i = 0; i < 6; i++) {
    brush.fill("#f2c230", 190);
    brush.circle(299 + 111 * cos(231) + 9 * cos(i * 60), 269 + 111 * sin(231) + 9 * sin(i * 60), 5);
  }
}
