// audit probe: a face-on archery target (white, black, blue, red and gold rings) on a wooden stand with three arrows in it, centred, painted for the reward audit (not in any pool)

function setup() {
  createCanvas(600, 600, WEBGL);
  angleMode(DEGREES);
  noLoop();
}

function wash(pts, hex, alpha, bleed, curve, grain = 0.4) {
  brush.fill(hex, alpha);
  brush.fillBleed(bleed, "out");
  brush.fillTexture(grain, grain * 0.7);
  brush.beginShape(curve);
  for (const p of pts) brush.vertex(p[0], p[1]);
  brush.endShape(true);
}

// one scoring ring as a band of segments so neighbouring colours don't mix into mud
function ring(cx, cy, r0, r1, hex, alpha) {
  const n = max(12, floor(r1 / 3));
  const step = 360 / n;
  for (let i = 0; i < n; i++) {
    const a = i * step;
    const pts = [];
    for (const t of [0, 0.5, 1]) pts.push([cx + r1 * cos(a + t * (step + 0.8)), cy + r1 * sin(a + t * (step + 0.8))]);
    for (const t of [1, 0.5, 0]) pts.push([cx + r0 * cos(a + t * (step + 0.8)), cy + r0 * sin(a + t * (step + 0.8))]);
    wash(pts, hex, alpha, 0.03, 0.3, 0.35);
  }
}

function disc(cx, cy, r, hex, alpha, bleed = 0.05) {
  const pts = [];
  for (let a = 0; a < 360; a += 12) pts.push([cx + r * cos(a), cy + r * sin(a)]);
  wash(pts, hex, alpha, bleed, 1, 0.4);
}

// an arrow shot into the face: only the shaft end and fletching stick out toward the viewer
function arrow(x, y, dx, dy, fletch) {
  const len = sqrt(dx * dx + dy * dy), ux = dx / len, uy = dy / len, nx = -uy, ny = ux;
  wash([[x - nx * 2.5, y - ny * 2.5], [x + dx - nx * 2.5, y + dy - ny * 2.5], [x + dx + nx * 2.5, y + dy + ny * 2.5], [x + nx * 2.5, y + ny * 2.5]], "#5b4030", 230, 0.02, 0.05, 0.2);
  const fx = x + dx * 0.72, fy = y + dy * 0.72;
  for (const s of [-1, 1]) {
    wash([[fx, fy], [fx + dx * 0.26, fy + dy * 0.26], [fx + dx * 0.3 + s * nx * 13, fy + dy * 0.3 + s * ny * 13], [fx + dx * 0.08 + s * nx * 9, fy + dy * 0.08 + s * ny * 9]], fletch, 220, 0.03, 0.1, 0.3);
  }
  disc(x, y, 4, "#3a2a20", 200, 0.02);
}

function draw() {
  translate(-width / 2, -height / 2);
  background(248, 246, 240);
  brush.scaleBrushes(3);
  brush.noStroke();

  // soft green field and pale sky
  wash([[12, 12], [588, 12], [588, 430], [12, 430]], "#cfe0e6", 120, 0.35, 0.3, 0.6);
  wash([[12, 400], [588, 380], [588, 588], [12, 588]], "#9fbf7a", 170, 0.3, 0.4, 0.6);

  const cx = 300, cy = 270, R = 190;

  // A-frame stand legs behind the boss
  wash([[200, 400], [216, 400], [168, 575], [150, 575]], "#8a6240", 220, 0.05, 0.05);
  wash([[384, 400], [400, 400], [450, 575], [432, 575]], "#8a6240", 220, 0.05, 0.05);
  wash([[292, 420], [308, 420], [312, 560], [298, 560]], "#74512f", 200, 0.05, 0.05);

  // shadow and straw boss behind the face
  disc(cx + 12, cy + 14, R + 16, "#7d7a64", 110, 0.2);
  disc(cx, cy, R + 16, "#cfa64e", 240, 0.12);
  disc(cx - 4, cy - 4, R + 8, "#e0be6a", 150, 0.1);

  // face: white outer, black, blue, red, gold (two rings per colour)
  const bands = [
    ["#fbfaf5", 240], ["#f1efe6", 240],
    ["#3a3a40", 220], ["#2b2b31", 220],
    ["#3f8fd0", 220], ["#2f7bc0", 220],
    ["#dd3b34", 225], ["#c92f2b", 225],
    ["#f5cf3a", 235], ["#f0c02a", 235],
  ];
  // each colour laid as a full disc over the last, twice, so the inner colour covers the outer one
  for (let k = 0; k < 10; k++) {
    const r = R * (1 - k / 10);
    disc(cx, cy, r, bands[k][0], 255, 0.02);
    if (k % 2 === 0) disc(cx, cy, r - 1, bands[k][0], bands[k][1], 0.02);
  }
  // thin dividing lines between the scoring zones
  for (let k = 1; k < 10; k++) ring(cx, cy, R * (1 - k / 10) - 0.8, R * (1 - k / 10) + 0.8, k < 4 ? "#6a6a70" : "#f4f1e6", 150);
  disc(cx, cy, 5, "#9b7a20", 180, 0.02);

  // three arrows
  arrow(cx + 14, cy - 9, 70, -95, "#e2483b");
  arrow(cx - 58, cy + 40, -100, -60, "#f3f0e4");
  arrow(cx + 80, cy + 62, 95, -40, "#3f8fd0");
}
