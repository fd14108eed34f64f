// A typical hibiscus: five petals painted twice (a wide wash, then a smaller, more opaque
// one inside), a throat and a stem: 12 fills. Expected: passes the gate.
function setup() {
  createCanvas(600, 600, WEBGL);
  angleMode(DEGREES);
  noLoop();
}

function petal(cx, cy, angle, length, spread) {
  brush.beginShape(0.6);
  brush.vertex(cx, cy);
  brush.vertex(cx + length * 0.7 * cos(angle - spread), cy + length * 0.7 * sin(angle - spread));
  brush.vertex(cx + length * cos(angle), cy + length * sin(angle));
  brush.vertex(cx + length * 0.7 * cos(angle + spread), cy + length * 0.7 * sin(angle + spread));
  brush.endShape(true);
}

function draw() {
  translate(-width / 2, -height / 2);
  background(250, 246, 238);
  brush.scaleBrushes(3);
  brush.noStroke();

  // stem
  brush.fill("#4f7a3a", 80);
  brush.fillBleed(0.15);
  brush.beginShape(0.3);
  brush.vertex(296, 330);
  brush.vertex(308, 330);
  brush.vertex(330, 590);
  brush.vertex(316, 590);
  brush.endShape(true);

  for (let i = 0; i < 5; i++) {
    const angle = i * 72 - 90;
    brush.fill("#f08a6c", 110);
    brush.fillBleed(0.3, "out");
    brush.fillTexture(0.4, 0.3);
    petal(300, 300, angle, 190, 26);
    brush.fill("#e0533f", 150);
    brush.fillBleed(0.15);
    petal(300, 300, angle, 120, 18);
  }

  // throat
  brush.fill("#8e1b2e", 140);
  brush.fillBleed(0.1);
  brush.circle(300, 300, 34);
}
