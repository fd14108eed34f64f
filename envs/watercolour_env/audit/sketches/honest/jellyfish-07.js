// honest probe: a mauve stinger (Pelagia) rising towards the surface in the left third, spotted magenta bell, long fine tentacles and rising bubbles, written for the reward audit (not in the pool)

function setup() {
  createCanvas(600, 600, WEBGL);
  angleMode(DEGREES);
  noLoop();
}

function stain(pts, hex, alpha, bleed, curve, grain) {
  brush.fill(hex, alpha);
  brush.fillBleed(bleed, "out");
  brush.fillTexture(grain, grain * 0.8);
  brush.beginShape(curve);
  for (let p of pts) brush.vertex(p[0], p[1]);
  brush.endShape(true);
}

// an egg-shaped bell, a touch taller than a half circle, with a pinched rim
function eggBell(cx, cy, w, h) {
  let pts = [];
  for (let a = 180; a <= 360.01; a += 5) {
    let s = sin(a), c = cos(a);
    pts.push([cx + w * c * (1 - 0.18 * (1 + s)), cy + h * s]);
  }
  for (let i = 1; i < 22; i++) {
    let t = i / 22;
    pts.push([cx + w * 0.82 - 1.64 * w * t, cy + 7 * sin(t * 180) + 2 * sin(t * 180 * 8)]);
  }
  return pts;
}

// a long strand falling in an S-curve
function sCurve(x0, y0, len, amp, phase, thick, hex, alpha, grain) {
  let l = [], r = [];
  let n = floor(len / 7);
  for (let i = 0; i <= n; i++) {
    let t = i / n;
    let x = x0 + amp * sin(phase + t * 330) * (0.2 + t) + 25 * t;
    let y = y0 + len * t;
    let w = max(0.8, thick * (1 - 0.6 * t));
    l.push([x - w, y]);
    r.unshift([x + w, y]);
  }
  stain(l.concat(r), hex, alpha, 0.04, 0.5, grain);
}

function draw() {
  translate(-width / 2, -height / 2);
  background(244, 239, 234);
  brush.scaleBrushes(3);
  brush.noStroke();

  // surface light at the top, deeper indigo water below, laid as two soft bands
  let upper = [], lower = [];
  for (let x = -10; x <= 610; x += 40) upper.push([x, 30 + 10 * sin(x * 2)]);
  for (let x = 610; x >= -10; x -= 40) upper.push([x, 120 + 18 * sin(x * 1.1 + 30)]);
  stain(upper, "#a9b7d8", 90, 0.35, 0.7, 0.5);
  for (let x = -10; x <= 610; x += 40) lower.push([x, 112 + 18 * sin(x * 1.1 + 30)]);
  for (let x = 610; x >= -10; x -= 40) lower.push([x, 575 + 8 * sin(x * 3)]);
  stain(lower, "#7480b0", 90, 0.35, 0.7, 0.5);

  let cx = 200, cy = 260;

  // eight long tentacles and four frilled oral arms
  for (let k = 0; k < 8; k++) {
    sCurve(cx - 70 + k * 20, cy + 6, 250 + random(90), 16, k * 45, 1.2, "#7c2d6a", 150, 0);
  }
  for (let k = 0; k < 4; k++) {
    sCurve(cx - 24 + k * 16, cy + 8, 150 + 30 * (k % 2), 12, k * 70 + 30, 9, "#c36fa8", 140, 0.3);
  }

  // bell: a broad rosy wash, a deeper magenta inside, a plum crown
  stain(eggBell(cx, cy, 92, 112), "#d477b0", 175, 0.3, 0.9, 0.5);
  stain(eggBell(cx, cy - 6, 64, 88), "#a23d86", 140, 0.25, 0.9, 0.5);
  stain(eggBell(cx + 3, cy - 52, 26, 40), "#7a2766", 120, 0.2, 0.9, 0.4);

  // the warts that give the mauve stinger its speckled look
  brush.fill("#f6d6ea", 190);
  brush.fillBleed(0.05);
  for (let i = 0; i < 26; i++) {
    let a = random(195, 345), rr = random(0.35, 0.9);
    brush.circle(cx + 74 * rr * cos(a), cy + 98 * rr * sin(a), random(2, 4));
  }

  // bubbles rising past it to the surface
  brush.fillBleed(0.05);
  for (let i = 0; i < 9; i++) {
    let bx = 330 + 18 * sin(i * 70), by = 470 - i * 45, br = 4 + i * 1.1;
    brush.fill("#6d78ad", 150);
    brush.circle(bx, by, br);
    brush.fill("#f4f2f8", 200);
    brush.circle(bx - br * 0.15, by - br * 0.15, br * 0.62);
  }
  for (let i = 0; i < 5; i++) {
    let bx = 440 + 10 * sin(i * 90), by = 330 - i * 52, br = 3 + i * 0.9;
    brush.fill("#6d78ad", 140);
    brush.circle(bx, by, br);
    brush.fill("#f4f2f8", 200);
    brush.circle(bx - br * 0.15, by - br * 0.15, br * 0.6);
  }
}
