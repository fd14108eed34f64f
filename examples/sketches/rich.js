// A rich composition: background washes, leaves, three layers of five petals, a throat,
// stamen and pollen dots: 41 fills. Expected: passes the gate.
function setup() {
  createCanvas(600, 600, WEBGL);
  angleMode(DEGREES);
  noLoop();
}

function blob(cx, cy, angle, length, spread, curvature) {
  brush.beginShape(curvature);
  brush.vertex(cx, cy);
  brush.vertex(cx + length * 0.65 * cos(angle - spread), cy + length * 0.65 * sin(angle - spread));
  brush.vertex(cx + length * cos(angle - spread / 3), cy + length * sin(angle - spread / 3));
  brush.vertex(cx + length * cos(angle + spread / 3), cy + length * sin(angle + spread / 3));
  brush.vertex(cx + length * 0.65 * cos(angle + spread), cy + length * 0.65 * sin(angle + spread));
  brush.endShape(true);
}

function draw() {
  translate(-width / 2, -height / 2);
  background(248, 243, 232);
  brush.scaleBrushes(3);
  brush.noStroke();

  // background washes
  const washes = ["#cfe0e8", "#e8dcc8", "#d9e6cf", "#efd9d2", "#dfe3ee", "#e9e2c9"];
  for (let i = 0; i < washes.length; i++) {
    brush.fill(washes[i], 110);
    brush.fillBleed(0.4, "out");
    brush.fillTexture(0.5, 0.2);
    brush.circle(80 + (i % 3) * 220, 110 + Math.floor(i / 3) * 380, 150);
  }

  // leaves
  const leaves = [[150, 420, 150], [450, 430, 30], [120, 200, 200], [480, 180, -20]];
  for (const [x, y, a] of leaves) {
    brush.fill("#5b8a45", 70);
    brush.fillBleed(0.25);
    blob(x, y, a, 130, 22, 0.7);
    brush.fill("#2f5e2a", 100);
    blob(x, y, a, 80, 12, 0.7);
  }

  // petals, three layers each
  const petalColours = [["#f7b39a", 100], ["#ee7a5c", 130], ["#c93a3a", 160]];
  for (let i = 0; i < 5; i++) {
    const angle = i * 72 - 80;
    for (let layer = 0; layer < 3; layer++) {
      brush.fill(petalColours[layer][0], petalColours[layer][1]);
      brush.fillBleed(0.35 - layer * 0.1, "out");
      brush.fillTexture(0.5, 0.25);
      blob(300, 300, angle, 200 - layer * 55, 30 - layer * 6, 0.6);
    }
  }

  // throat
  brush.fill("#7a1026", 150);
  brush.fillBleed(0.1);
  brush.circle(300, 300, 45);
  brush.fill("#a8162e", 160);
  brush.circle(300, 300, 25);

  // stamen and pollen
  brush.fill("#b5213a", 150);
  brush.beginShape(0.2);
  brush.vertex(296, 300);
  brush.vertex(304, 300);
  brush.vertex(352, 196);
  brush.vertex(344, 192);
  brush.endShape(true);
  for (let i = 0; i < 7; i++) {
    brush.fill("#f2c230", 180);
    brush.fillBleed(0.05);
    brush.circle(344 + 14 * cos(i * 51), 190 + 14 * sin(i * 51), 6);
  }
}
