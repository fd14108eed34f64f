// other subject: cherries, written for the reward audit (not in the pool)

function setup() {
  createCanvas(600, 600, WEBGL);
  angleMode(DEGREES);
  noLoop();
}

function flood(ink, alpha, bleed, curve, pts) {
  brush.fill(ink, alpha);
  brush.fillBleed(bleed);
  brush.fillTexture(0.45, 0.55);
  brush.beginShape(curve);
  for (const p of pts) brush.vertex(p[0], p[1]);
  brush.endShape(true);
}

// cherry body: round, a touch wider than tall, with a shallow dip at the stalk
function cherryPts(cx, cy, r) {
  const pts = [];
  for (let a = 0; a < 360; a += 15) {
    const d = abs(((a - 270 + 540) % 360) - 180);
    const k = 1 - 0.12 * exp(-(d * d) / 300);
    pts.push([cx + r * k * cos(a) * 1.05, cy + r * k * sin(a)]);
  }
  return pts;
}

// a curved stalk from a to b, bowed sideways by `bow`, laid as short overlapping quads
function stalk(a, b, bow, w) {
  const at = (t) => [lerp(a[0], b[0], t) + bow * sin(t * 180), lerp(a[1], b[1], t)];
  for (let i = 0; i < 6; i++) {
    const p = at(i / 6), q = at((i + 1.15) / 6);
    const ang = atan2(q[1] - p[1], q[0] - p[0]) + 90, dx = w * cos(ang), dy = w * sin(ang);
    flood("#5f6f28", 240, 0.01, 0.1, [[p[0] + dx, p[1] + dy], [q[0] + dx, q[1] + dy], [q[0] - dx, q[1] - dy], [p[0] - dx, p[1] - dy]]);
  }
}

function cherry(cx, cy, r) {
  flood("#b5b0c0", 120, 0.3, 0.9, cherryPts(cx + r * 0.5, cy + r * 1.02, r * 0.7).map((p) => [p[0], cy + r * 1.02 + (p[1] - cy - r * 1.02) * 0.25]));
  flood("#a30f26", 245, 0.06, 0.9, cherryPts(cx, cy, r));
  flood("#8a0a20", 200, 0.08, 0.9, cherryPts(cx + r * 0.06, cy + r * 0.04, r * 0.9));
  flood("#4a0515", 170, 0.25, 0.9, cherryPts(cx + r * 0.22, cy + r * 0.22, r * 0.68));
  flood("#e0536a", 110, 0.3, 0.9, cherryPts(cx - r * 0.3, cy - r * 0.25, r * 0.4));
  // crisp highlight: a small curved window of near-white
  flood("#fff4f2", 250, 0.0, 0.4, [[cx - r * 0.55, cy - r * 0.2], [cx - r * 0.45, cy - r * 0.48], [cx - r * 0.25, cy - r * 0.6],
                                    [cx - r * 0.3, cy - r * 0.48], [cx - r * 0.45, cy - r * 0.3]]);
}

function draw() {
  translate(-width / 2, -height / 2);
  background(248, 244, 240);
  brush.scaleBrushes(3);
  brush.noStroke();

  const knot = [300, 150];

  // a leaf springing from the knot, with its midrib and side veins
  const leaf = [];
  for (let i = 0; i <= 12; i++) leaf.push([knot[0] + i * 13, knot[1] - i * 6 - 38 * sin(i * 15)]);
  for (let i = 12; i >= 0; i--) leaf.push([knot[0] + i * 13, knot[1] - i * 6 + 26 * sin(i * 15)]);
  flood("#5c9140", 225, 0.1, 0.7, leaf);
  flood("#3e6d2c", 150, 0.1, 0.5, leaf.slice(0, 13).concat([[knot[0] + 156, knot[1] - 72], [knot[0], knot[1]]]));
  flood("#d3e3a8", 180, 0.01, 0.2, [[knot[0], knot[1]], [knot[0] + 156, knot[1] - 72], [knot[0] + 156, knot[1] - 70], [knot[0], knot[1] + 2]]);

  // the pair of cherries on their long stalks
  const left = [225, 370], right = [362, 398];
  stalk(knot, [left[0] + 4, left[1] - 50], -30, 2.6);
  stalk(knot, [right[0], right[1] - 48], 24, 2.6);
  flood("#4f5a22", 230, 0.02, 0.6, [[knot[0] - 6, knot[1] + 2], [knot[0] - 2, knot[1] - 10], [knot[0] + 6, knot[1] - 8], [knot[0] + 4, knot[1] + 4]]);
  cherry(left[0], left[1], 54);
  cherry(right[0], right[1], 50);

  // a single loose cherry lying on its side, stalk pointing away
  stalk([478, 440], [520, 392], 10, 2.2);
  cherry(470, 470, 36);

  // tiny pit-coloured dots at the base of each cherry
  brush.fill("#3a0612", 200);
  brush.fillBleed(0.01);
  brush.circle(left[0] + 6, left[1] + 46, 2.5);
  brush.circle(right[0] + 4, right[1] + 44, 2.5);
}
