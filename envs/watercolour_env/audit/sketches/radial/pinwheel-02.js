// audit probe: a small six-vaned striped garden pinwheel on a leaning stick, set left of centre above a grassy bank at dusk, painted for the reward audit (not in any pool)

class Pinwheel {
  constructor(x, y, r, vanes, spin, inks) {
    Object.assign(this, { x, y, r, vanes, spin, inks });
  }
  p(a, d) {
    return [this.x + d * cos(a), this.y + d * sin(a)];
  }
  poly(points, ink, alpha, bleed) {
    brush.fill(ink, alpha);
    brush.fillBleed(bleed, "out");
    brush.fillTexture(0.45, 0.35);
    brush.beginShape(0.05);
    points.forEach((q) => brush.vertex(q[0], q[1]));
    brush.endShape(true);
  }
  // each vane is a kite: sharp leading tip, a trailing edge cupped back to the hub
  vane(k, scale) {
    const step = 360 / this.vanes;
    const a = this.spin + k * step;
    const r = this.r * scale;
    return [this.p(a + step * 0.6, 8), this.p(a, r), this.p(a + step * 0.4, r * 0.8), this.p(a + step * 0.8, r * 0.5)];
  }
  paint() {
    for (let k = 0; k < this.vanes; k++) this.poly(this.vane(k, 1.0).map((q) => [q[0] + 7, q[1] + 9]), "#5d5f7c", 90, 0.2);
    for (let k = 0; k < this.vanes; k++) {
      const ink = this.inks[k % this.inks.length];
      this.poly(this.vane(k, 1.0), ink[0], 235, 0.1);
      // a pale stripe across each vane and a shaded cup near the hub
      const step = 360 / this.vanes, a = this.spin + k * step;
      this.poly([this.p(a + 3, this.r * 0.62), this.p(a + 1, this.r * 0.8), this.p(a + step * 0.33, this.r * 0.66), this.p(a + step * 0.38, this.r * 0.52)], "#fdf6ea", 200, 0.05);
      this.poly(this.vane(k, 0.5), ink[1], 150, 0.1);
    }
    brush.fill("#f7efe0", 240);
    brush.fillBleed(0.04);
    brush.circle(this.x, this.y, 11);
    brush.fill("#4a3b35", 220);
    brush.fillBleed(0.04);
    brush.circle(this.x + 1, this.y + 1, 5);
  }
}

function setup() {
  createCanvas(600, 600, WEBGL);
  angleMode(DEGREES);
  noLoop();
}

function draw() {
  translate(-width / 2, -height / 2);
  background(248, 244, 238);
  brush.scaleBrushes(3);
  brush.noStroke();

  // dusk sky: lilac over peach
  const sky = [["#c7b6d8", 150, 0, 330], ["#f3c6a6", 120, 200, 430]];
  for (const [ink, al, y0, y1] of sky) {
    brush.fill(ink, al);
    brush.fillBleed(0.4, "out");
    brush.fillTexture(0.55, 0.4);
    brush.beginShape(0.3);
    brush.vertex(12, y0 + 12);
    brush.vertex(588, y0 + 12);
    brush.vertex(588, y1 + 12);
    brush.vertex(12, y1 + 12);
    brush.endShape(true);
  }

  // grassy bank: two greens, then blades
  const bank = (y, amp, ink, al) => {
    brush.fill(ink, al);
    brush.fillBleed(0.25, "out");
    brush.fillTexture(0.6, 0.5);
    brush.beginShape(0.7);
    for (let x = 0; x <= 600; x += 50) brush.vertex(x, y - amp * sin(x * 0.5 + 20) - 8 * cos(x * 1.7));
    brush.vertex(600, 600);
    brush.vertex(0, 600);
    brush.endShape(true);
  };
  bank(430, 30, "#9cbf6a", 190);
  bank(490, 22, "#5f9148", 200);

  // the stick, leaning from the grass up to the hub
  const px = 220, py = 210;
  brush.fill("#c49a66", 230);
  brush.fillBleed(0.06);
  brush.beginShape(0.1);
  brush.vertex(px - 4, py + 6);
  brush.vertex(px + 4, py + 6);
  brush.vertex(px + 74, 560);
  brush.vertex(px + 62, 562);
  brush.endShape(true);

  for (let i = 0; i < 40; i++) {
    const x = random(0, 600), y = random(470, 600), h = random(20, 55), lean = random(-12, 12);
    brush.fill(random() < 0.5 ? "#3f7435" : "#77a84e", 170);
    brush.fillBleed(0.03);
    brush.beginShape(0.3);
    brush.vertex(x - 3, y);
    brush.vertex(x + lean, y - h);
    brush.vertex(x + 3, y);
    brush.endShape(true);
  }

  new Pinwheel(px, py, 118, 6, -15, [["#e0668f", "#b8406a"], ["#3aa6a0", "#257a78"], ["#8f6cc4", "#6a4a9c"]]).paint();
}
