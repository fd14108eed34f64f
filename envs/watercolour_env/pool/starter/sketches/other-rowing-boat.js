// starter pool: other-rowing-boat
// another subject than a hibiscus (a rowing-boat), rated nope (issue 33); written for the audit, not by compose.py

function setup() {
  createCanvas(600, 600, WEBGL);
  angleMode(DEGREES);
  noLoop();
}

function daub(ink, alpha, bleed, curve, pts) {
  brush.fill(ink, alpha);
  brush.fillBleed(bleed);
  brush.fillTexture(0.5, 0.5);
  brush.beginShape(curve);
  for (let p of pts) brush.vertex(p[0], p[1]);
  brush.endShape(true);
}

// the boat seen from a little above: t runs stern (0) to bow (1)
function mid(t) { return [lerp(170, 450, t), lerp(316, 292, t) - 22 * t * t * t]; }
function beam(t) { return 46 * sqrt(max(0, 1 - t * t)) * (1 - 0.1 * t); }
function depth(t) { return 50 * (1 - 0.7 * t * t); }

function farRail(t) { let m = mid(t); return [m[0], m[1] - beam(t) * 0.6]; }
function nearRail(t) { let m = mid(t); return [m[0], m[1] + beam(t) * 0.6]; }
function keel(t) { let n = nearRail(t); return [n[0] + 8 * t, n[1] + depth(t)]; }

function trace(fn, from, to, n) {
  let pts = [];
  for (let i = 0; i <= n; i++) pts.push(fn(lerp(from, to, i / n)));
  return pts;
}

// a straight stick between two points with a half-width
function stick(a, b, w, ink, alpha) {
  let ang = atan2(b[1] - a[1], b[0] - a[0]) + 90, dx = w * cos(ang), dy = w * sin(ang);
  daub(ink, alpha, 0.03, 0.1, [[a[0] + dx, a[1] + dy], [b[0] + dx, b[1] + dy], [b[0] - dx, b[1] - dy], [a[0] - dx, a[1] - dy]]);
}

function draw() {
  translate(-width / 2, -height / 2);
  background(245, 243, 237);
  brush.scaleBrushes(3);
  brush.noStroke();

  // calm water: a few loose horizontal washes
  for (let k = 0; k < 3; k++) {
    let y = 300 + k * 45, x0 = 70 + k * 30, x1 = 540 - k * 50;
    daub(k == 1 ? "#8fbcc4" : "#b5d5d6", 110, 0.3, 0.7, [[x0, y], [(x0 + x1) / 2, y - 8], [x1, y], [x1 - 10, y + 34], [x0 + 15, y + 30]]);
  }

  // reflection of the hull, broken and pale
  let refl = trace(nearRail, 0, 1, 8).map((p, i) => [p[0] + 6, p[1] + 2 * depth(i / 8) + 10]);
  daub("#b86a5a", 90, 0.3, 0.6, trace(keel, 0, 1, 8).concat(refl.reverse()));

  // far oar poking out behind the boat
  stick([300, 280], [210, 215], 3, "#9a7448", 220);
  daub("#9a7448", 220, 0.05, 0.5, [[214, 218], [180, 190], [172, 198], [206, 226]]);

  // inside of the boat: warm wood, shadowed under the far rail
  let inside = trace(farRail, 0, 1, 10).concat(trace(nearRail, 1, 0, 10));
  daub("#c9975f", 230, 0.06, 0.6, inside);
  daub("#8a5d34", 140, 0.1, 0.6, trace(farRail, 0.02, 0.9, 8).concat(trace(mid, 0.9, 0.02, 8)));

  // thwarts (seats) across the hull
  for (let t of [0.22, 0.5, 0.75]) {
    let a = farRail(t), b = nearRail(t);
    stick([a[0] - 2, a[1] + 2], [b[0] + 4, b[1] - 1], 7, "#a8743f", 240);
  }

  // hull side: red paint with a white stripe along the rail
  let side = trace(nearRail, 0, 1, 10).concat(trace(keel, 1, 0, 10));
  daub("#b8412f", 240, 0.03, 0.5, side);
  daub("#a3302a", 150, 0.03, 0.5, side);
  daub("#7e2a22", 130, 0.04, 0.5, trace(keel, 0, 0.95, 8).concat(trace((t) => { let k = keel(t); return [k[0], k[1] - depth(t) * 0.4]; }, 0.95, 0, 8)));
  daub("#f4efe4", 240, 0.0, 0.4, trace(nearRail, 0, 0.98, 10).concat(trace((t) => { let n = nearRail(t); return [n[0], n[1] + 4]; }, 0.98, 0, 10)));

  // transom at the stern
  let s1 = farRail(0), s2 = nearRail(0), s3 = keel(0);
  daub("#96362a", 235, 0.04, 0.2, [[s1[0], s1[1]], [s1[0] - 10, s1[1] + 4], [s3[0] - 10, s3[1] - 4], [s3[0], s3[1]], [s2[0], s2[1]]]);

  // near oar resting in its rowlock, blade dipping into the water
  stick([292, 330], [340, 430], 3.5, "#8e6538", 235);
  daub("#8e6538", 235, 0.05, 0.5, [[335, 420], [350, 458], [362, 460], [349, 422]]);

  // mooring rope trailing from the bow
  let rope = [];
  for (let i = 0; i <= 8; i++) rope.push([452 + i * 9, 272 + i * 5 + 6 * sin(i * 40)]);
  for (let i = 8; i >= 0; i--) rope.push([452 + i * 9, 274 + i * 5 + 6 * sin(i * 40)]);
  daub("#6b5a44", 200, 0.02, 0.5, rope);

  // ripples: thin pale strokes on the water
  for (let r = 0; r < 5; r++) {
    let x = 120 + r * 85, y = 395 + 20 * sin(r * 110);
    daub("#6c9aa5", 160, 0.05, 0.3, [[x, y], [x + 40, y - 1], [x + 40, y + 2], [x, y + 2]]);
  }
}
