// honest probe: deep red hibiscus built from several thin glazes, lower right, written for the reward audit (not in the pool)

function setup() {
  createCanvas(600, 600, WEBGL);
  angleMode(DEGREES);
  noLoop();
}

// cubic Bezier point between p0 and p3
function bez(p0, p1, p2, p3, t) {
  const u = 1 - t;
  return [
    u * u * u * p0[0] + 3 * u * u * t * p1[0] + 3 * u * t * t * p2[0] + t * t * t * p3[0],
    u * u * u * p0[1] + 3 * u * u * t * p1[1] + 3 * u * t * t * p2[1] + t * t * t * p3[1],
  ];
}

// two Bezier halves make one heart-topped petal, in a local frame (x along the petal)
function petalPath(len, wid) {
  const base = [0, 0], tipL = [len, -wid * 0.15], tipR = [len, wid * 0.15];
  const notch = [len * 0.9, 0];
  const pts = [];
  for (let t = 0; t <= 1; t += 0.1) pts.push(bez(base, [len * 0.3, -wid * 0.9], [len * 1.05, -wid * 1.2], notch, t));
  for (let t = 0.1; t <= 1; t += 0.1) pts.push(bez(notch, [len * 1.05, wid * 1.2], [len * 0.3, wid * 0.9], base, t));
  return pts;
}

function place(pts, cx, cy, rot) {
  return pts.map(([a, b]) => [cx + a * cos(rot) - b * sin(rot), cy + a * sin(rot) + b * cos(rot)]);
}

function paintPts(pts, c, op, bleed, curv) {
  brush.fill(c, op);
  brush.fillBleed(bleed);
  brush.fillTexture(0.45, 0.55);
  brush.beginShape(curv);
  pts.forEach((p) => brush.vertex(p[0], p[1]));
  brush.endShape(true);
}

function draw() {
  translate(-width / 2, -height / 2);
  background(243, 239, 231);
  brush.scaleBrushes(3);
  brush.noStroke();

  const cx = 390, cy = 370;

  // one large leaf reaching to the upper left behind the bloom
  const leaf = [[cx - 110, cy - 90], [cx - 190, cy - 160], [cx - 300, cy - 210], [cx - 260, cy - 100], [cx - 150, cy - 30]];
  paintPts(leaf, "#3b6b33", 215, 0.2, 0.85);
  paintPts([[cx - 150, cy - 75], [cx - 290, cy - 200], [cx - 284, cy - 194], [cx - 146, cy - 66]], "#2a4f26", 180, 0.05, 0.3);

  // glazes: each pass a little smaller and a little turned, deepening the red
  const glazes = [
    { c: "#d9302b", op: 200, len: 165, wid: 92, turn: 0, bleed: 0.3 },
    { c: "#c0141f", op: 170, len: 145, wid: 80, turn: 6, bleed: 0.25 },
    { c: "#9a0a1c", op: 160, len: 105, wid: 58, turn: -4, bleed: 0.2 },
    { c: "#5c0614", op: 190, len: 50, wid: 30, turn: 2, bleed: 0.15 },
  ];
  for (const g of glazes) {
    for (let k = 0; k < 5; k++) {
      paintPts(place(petalPath(g.len, g.wid), cx, cy, -110 + k * 72 + g.turn), g.c, g.op, g.bleed, 0.8);
    }
  }

  // column leaning toward the leaf
  const colEnd = [cx - 95, cy - 80];
  paintPts([[cx - 4, cy + 4], [colEnd[0] - 3, colEnd[1] + 3], [colEnd[0] + 3, colEnd[1] - 3], [cx + 4, cy - 4]], "#6e0a1e", 240, 0.02, 0.1);
  brush.fill("#f6cf45", 250);
  brush.fillBleed(0.02);
  for (let i = 0; i < 12; i++) {
    const f = random(0.5, 0.92);
    brush.circle(lerp(cx, colEnd[0], f) + random(-9, 9), lerp(cy, colEnd[1], f) + random(-9, 9), random(3, 5.5));
  }
  brush.fill("#8c0a22", 250);
  for (let i = 0; i < 5; i++) brush.circle(colEnd[0] - 4 + cos(i * 72) * 6, colEnd[1] - 4 + sin(i * 72) * 6, 3.5);
}
