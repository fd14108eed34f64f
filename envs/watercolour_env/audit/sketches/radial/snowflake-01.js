// audit probe: a large six-armed dendrite snowflake in cold blues, centred on a pale wintry wash, painted for the reward audit (not in any pool)

function setup() {
  createCanvas(600, 600, WEBGL);
  angleMode(DEGREES);
  noLoop();
}

function wash(pts, hex, alpha, bleed, curve, grain) {
  brush.fill(hex, alpha);
  brush.fillBleed(bleed, "out");
  brush.fillTexture(grain, grain * 0.7);
  brush.beginShape(curve);
  for (const p of pts) brush.vertex(p[0], p[1]);
  brush.endShape(true);
}

// a straight tapered bar from (x0,y0) along angle a for length L
function bar(x0, y0, a, L, w0, w1) {
  const nx = -sin(a), ny = cos(a);
  const x1 = x0 + L * cos(a), y1 = y0 + L * sin(a);
  return [
    [x0 + nx * w0, y0 + ny * w0],
    [x1 + nx * w1, y1 + ny * w1],
    [x1 + L * 0.04 * cos(a), y1 + L * 0.04 * sin(a)],
    [x1 - nx * w1, y1 - ny * w1],
    [x0 - nx * w0, y0 - ny * w0],
  ];
}

function arm(cx, cy, a, R, ink, alpha, w) {
  wash(bar(cx, cy, a, R, w, w * 0.35), ink, alpha, 0.06, 0.1, 0.35);
  // pairs of side branches, longest near the middle, angled 60 degrees outward
  const spots = [0.28, 0.46, 0.64, 0.8];
  const lens = [0.2, 0.3, 0.24, 0.13];
  for (let k = 0; k < spots.length; k++) {
    const bx = cx + R * spots[k] * cos(a), by = cy + R * spots[k] * sin(a);
    for (const side of [-60, 60]) {
      wash(bar(bx, by, a + side, R * lens[k], w * 0.6, w * 0.25), ink, alpha, 0.05, 0.1, 0.35);
    }
  }
  // a small plate bud at the tip
  const tx = cx + R * 1.02 * cos(a), ty = cy + R * 1.02 * sin(a);
  const hex = [];
  for (let j = 0; j < 6; j++) hex.push([tx + w * 1.3 * cos(a + j * 60), ty + w * 1.3 * sin(a + j * 60)]);
  wash(hex, ink, alpha, 0.05, 0.1, 0.3);
}

function draw() {
  translate(-width / 2, -height / 2);
  background(246, 247, 248);
  brush.scaleBrushes(3);
  brush.noStroke();

  // wintry ground: grey-blue veil darker at the corners, lighter behind the flake
  wash([[15, 15], [585, 15], [585, 585], [15, 585]], "#c3d2df", 140, 0.35, 0.2, 0.7);
  wash([[20, 420], [200, 520], [120, 590], [15, 590]], "#9fb3c8", 90, 0.4, 0.8, 0.6);
  wash([[420, 20], [585, 30], [580, 170], [500, 120]], "#a9b8d1", 80, 0.4, 0.8, 0.6);
  const glow = [];
  for (let a = 0; a < 360; a += 15) glow.push([300 + 215 * cos(a), 300 + 215 * sin(a)]);
  wash(glow, "#f4f7fa", 160, 0.4, 1, 0.4);

  const cx = 300, cy = 300, R = 235;

  // a wide faint under-layer, then the crisp arms, then a deep blue vein down each arm
  for (let i = 0; i < 6; i++) arm(cx, cy, i * 60 - 90, R, "#a7c5e3", 120, 16);
  for (let i = 0; i < 6; i++) arm(cx, cy, i * 60 - 90, R * 0.97, "#5d8fc4", 210, 9);
  for (let i = 0; i < 6; i++) wash(bar(cx, cy, i * 60 - 90, R * 0.85, 3, 1), "#2f5a8e", 170, 0.03, 0.1, 0.2);

  // the hexagonal centre plate with a paler facet
  const plate = [], inner = [];
  for (let j = 0; j < 6; j++) {
    plate.push([cx + 40 * cos(j * 60 - 90), cy + 40 * sin(j * 60 - 90)]);
    inner.push([cx + 20 * cos(j * 60 - 60), cy + 20 * sin(j * 60 - 60)]);
  }
  wash(plate, "#3f6fa6", 190, 0.05, 0.05, 0.3);
  wash(inner, "#d9e8f5", 200, 0.05, 0.05, 0.3);
}
