// starter pool: other-apples
// another subject than a hibiscus (a apples), rated nope (issue 33); written for the audit, not by compose.py

function setup() {
  createCanvas(600, 600, WEBGL);
  angleMode(DEGREES);
  noLoop();
}

function pool(ink, alpha, bleed, curve, pts) {
  brush.fill(ink, alpha);
  brush.fillBleed(bleed);
  brush.fillTexture(0.5, 0.55);
  brush.beginShape(curve);
  pts.forEach((p) => brush.vertex(p[0], p[1]));
  brush.endShape(true);
}

// apple outline: broad shoulders, narrower base, a dimple where the stalk sits
function appleOutline(cx, cy, R, k) {
  let pts = [];
  for (let a = 0; a < 360; a += 12) {
    let d = abs(((a - 270 + 540) % 360) - 180);
    let r = R * k * (1 - 0.07 * sin(a) - 0.16 * exp(-(d * d) / 500));
    pts.push([cx + r * cos(a) * 1.06, cy + r * sin(a)]);
  }
  return pts;
}

const APPLES = [
  { x: 350, y: 290, r: 68, skin: "#9fbf48", blush: "#d7b43c", deep: "#5c7f2a" },
  { x: 250, y: 345, r: 78, skin: "#c8352d", blush: "#e37a3c", deep: "#7d1c22" },
  { x: 395, y: 375, r: 64, skin: "#d6452f", blush: "#f0a145", deep: "#8c2424" },
];

function paintApple(A) {
  // cast shadow to the lower right
  // knock out whatever is behind with paper colour, then two layers of skin
  pool("#f4f0e7", 255, 0.02, 0.9, appleOutline(A.x, A.y, A.r, 0.98));
  pool(A.skin, 235, 0.08, 0.9, appleOutline(A.x, A.y, A.r, 1));
  pool(A.skin, 150, 0.15, 0.9, appleOutline(A.x + A.r * 0.08, A.y + A.r * 0.05, A.r, 0.85));
  pool(A.blush, 120, 0.3, 0.9, appleOutline(A.x - A.r * 0.3, A.y - A.r * 0.2, A.r, 0.45));
  pool(A.deep, 90, 0.45, 0.9, appleOutline(A.x + A.r * 0.2, A.y + A.r * 0.2, A.r, 0.7));
  // pale highlight and the stalk in its dimple
  pool("#fff8ea", 190, 0.15, 0.9, appleOutline(A.x - A.r * 0.42, A.y - A.r * 0.35, A.r, 0.13));
  let sx = A.x + 2, sy = A.y - A.r * 0.8;
  pool("#4b3322", 235, 0.02, 0.3, [[sx - 2, sy + 4], [sx + 3, sy - 22], [sx + 8, sy - 24], [sx + 3, sy + 4]]);
  // speckles
  brush.fill(A.blush, 140);
  brush.fillBleed(0.02);
  for (let i = 0; i < 10; i++) {
    let a = random(360), d = random(0.2, 0.8) * A.r;
    brush.circle(A.x + d * cos(a), A.y + d * sin(a), 2.5);
  }
}

function leaf(x, y, len, ang, ink) {
  let pts = [];
  for (let i = 0; i <= 8; i++) pts.push([i / 8 * len, -len * 0.28 * sin(i / 8 * 180)]);
  for (let i = 8; i >= 0; i--) pts.push([i / 8 * len, len * 0.28 * sin(i / 8 * 180)]);
  let c = cos(ang), s = sin(ang);
  pool(ink, 220, 0.1, 0.7, pts.map((p) => [x + p[0] * c - p[1] * s, y + p[0] * s + p[1] * c]));
  pool("#2f4e22", 170, 0.01, 0.2, [[x, y], [x + len * 0.9 * c, y + len * 0.9 * s], [x + len * 0.9 * c + 1, y + len * 0.9 * s + 2], [x, y + 2]]);
}

function draw() {
  translate(-width / 2, -height / 2);
  background(244, 240, 231);
  brush.scaleBrushes(3);
  brush.noStroke();

  // a blue-striped tea towel under the fruit
  pool("#e4e1dc", 170, 0.2, 0.3, [[120, 395], [500, 380], [525, 500], [140, 510]]);
  for (let k = 0; k < 3; k++) {
    let y0 = 478 + k * 9, y1 = 466 + k * 9;
    pool("#6f8fb8", 150, 0.0, 0.2, [[135, y0], [505, y1], [506, y1 + 4], [136, y0 + 4]]);
  }

  // cast shadows to the lower right, all before any fruit
  for (let A of APPLES) pool("#8e8aa8", 160, 0.2, 0.9, appleOutline(A.x + 34, A.y + A.r * 0.8, A.r, 0.4));
  for (let A of APPLES) paintApple(A);

  // two leaves still attached to the red apple's stalk
  leaf(255, 262, 58, -40, "#5d8a3a");
  leaf(255, 264, 44, -150, "#79a34a");
}
