// honest probe: white hibiscus with a crimson eye against dark foliage, written for the reward audit (not in the pool)

class Petal {
  constructor(hubX, hubY, angle, length, breadth) {
    this.hubX = hubX; this.hubY = hubY;
    this.angle = angle; this.length = length; this.breadth = breadth;
  }
  // outline point at fraction f along the petal, side = -1 or 1
  edge(f, side) {
    let w = this.breadth * sqrt(max(0, sin(f * 180))) * (0.4 + 0.6 * f) * side;
    let l = this.length * f;
    return [this.hubX + l * cos(this.angle) - w * sin(this.angle), this.hubY + l * sin(this.angle) + w * cos(this.angle)];
  }
  outline(scale) {
    let out = [];
    for (let f = 0.02; f <= 0.98; f += 0.08) out.push(this.edge(f * scale, -1));
    for (let f = 0.98; f >= 0.02; f -= 0.08) out.push(this.edge(f * scale, 1));
    return out;
  }
}

function setup() {
  createCanvas(600, 600, WEBGL);
  angleMode(DEGREES);
  noLoop();
}

function wash(pts, ink, alpha, bleed, curve) {
  brush.fill(ink, alpha);
  brush.fillBleed(bleed);
  brush.fillTexture(0.6, 0.5);
  brush.beginShape(curve);
  for (let i = 0; i < pts.length; i++) brush.vertex(pts[i][0], pts[i][1]);
  brush.endShape(true);
}

function draw() {
  translate(-width / 2, -height / 2);
  background(128, 156, 146);
  brush.scaleBrushes(3);
  brush.noStroke();

  let hx = 310, hy = 290;
  let petals = [];
  for (let i = 0; i < 5; i++) petals.push(new Petal(hx, hy, -100 + i * 72, 170, 92));

  // dark leaves behind the bloom, each a pointed oval leaning outwards
  let leafAngles = [-64, 44, 152, 206];
  for (let j = 0; j < leafAngles.length; j++) {
    let a = leafAngles[j], leaf = [];
    for (let s = 0; s <= 1.0001; s += 0.1) leaf.push([100 + 190 * s, -58 * sin(s * 180) * (1 - 0.4 * s)]);
    for (let s = 1; s >= 0; s -= 0.1) leaf.push([100 + 190 * s, 58 * sin(s * 180) * (1 - 0.4 * s)]);
    leaf = leaf.map((q) => [hx + q[0] * cos(a) - q[1] * sin(a), hy + q[0] * sin(a) + q[1] * cos(a)]);
    wash(leaf, j % 2 ? "#1f4426" : "#2d5a30", 220, 0.15, 0.8);
  }

  // petals: the lightest cool grey, then shadows at the base of each one
  for (const p of petals) wash(p.outline(1), "#ffffff", 230, 0.2, 0.9);
  for (const p of petals) wash(p.outline(0.9), "#fbfaff", 200, 0.15, 0.9);
  for (const p of petals) wash(p.outline(0.5), "#c9c3dc", 120, 0.3, 0.9);
  // crimson eye bleeding outward
  for (const p of petals) wash(new Petal(hx, hy, p.angle, 62, 44).outline(1), "#a5173a", 210, 0.25, 0.9);
  brush.fill("#6e0d27", 220);
  brush.fillBleed(0.1);
  brush.circle(hx, hy, 16);

  // long pale column, yellow pollen, red stigma pads
  let ex = hx - 55, ey = hy - 105;
  wash([[hx - 4, hy], [ex - 4, ey], [ex + 4, ey + 2], [hx + 4, hy + 2]], "#c73a5c", 240, 0.02, 0.2);
  brush.fill("#f3c13a", 250);
  for (let k = 0; k < 14; k++) {
    let f = random(0.55, 0.95);
    brush.circle(lerp(hx, ex, f) + random(-9, 9), lerp(hy, ey, f) + random(-9, 9), random(3, 5));
  }
  brush.fill("#b0122f", 250);
  for (let k = 0; k < 5; k++) brush.circle(ex + (k - 2) * 5, ey - 6 - abs(k - 2) * -2, 4);
}
