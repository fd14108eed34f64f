// honest probe: a moon jelly (Aurelia) drifting in pale water, with four pink gonad rings and frilly oral arms, written for the reward audit (not in the pool)

function setup() {
  createCanvas(600, 600, WEBGL);
  angleMode(DEGREES);
  noLoop();
}

// a wide, shallow dome: the rim sits at (cx, cy), the crown rises h above it
function domePoints(cx, cy, w, h, sag) {
  let pts = [];
  for (let a = 180; a <= 360.01; a += 5) {
    let s = sin(a);
    pts.push([cx + w * cos(a), cy + h * s * (0.9 + 0.1 * abs(s))]);
  }
  // underside: a soft, scalloped margin curving back from right to left
  for (let i = 1; i < 30; i++) {
    let t = i / 30;
    let x = cx + w - 2 * w * t;
    let y = cy + sag * sin(t * 180) + 3 * sin(t * 180 * 8);
    pts.push([x, y]);
  }
  return pts;
}

function layWash(pts, hex, alpha, bleed, roundness) {
  brush.fill(hex, alpha);
  brush.fillBleed(bleed, "out");
  brush.fillTexture(0.55, 0.4);
  brush.beginShape(roundness);
  for (let p of pts) brush.vertex(p[0], p[1]);
  brush.endShape(true);
}

// a drifting ribbon: width tapers from w0 at its root to almost nothing at its tip
function driftRibbon(x0, y0, len, w0, sway, phase, hex, alpha) {
  let left = [], right = [];
  let steps = max(6, floor(len / 7));
  for (let i = 0; i <= steps; i++) {
    let t = i / steps;
    let x = x0 + sway * sin(phase + t * 300) * t;
    let y = y0 + len * t;
    let w = max(1.2, w0 * (1 - 0.85 * t) * (1 + 0.35 * sin(t * 1400 + phase)));
    left.push([x - w, y]);
    right.unshift([x + w, y]);
  }
  layWash(left.concat(right), hex, alpha, 0.12, 0.6);
}

function draw() {
  translate(-width / 2, -height / 2);
  background(244, 241, 233);
  brush.scaleBrushes(3);
  brush.noStroke();

  // a loose pool of blue-grey water behind, leaving the corners as paper
  let water = [];
  for (let a = 0; a < 360; a += 12) {
    let r = 235 + 25 * sin(a * 3 + 20);
    water.push([300 + r * cos(a), 300 + r * 1.08 * sin(a)]);
  }
  layWash(water, "#8eacc2", 105, 0.35, 0.8);

  let cx = 300, cy = 250;

  // oral arms first, so the bell lies over their roots
  let armX = [-34, -12, 14, 36];
  for (let k = 0; k < 4; k++) {
    driftRibbon(cx + armX[k], cy + 6, 180 + 35 * (k % 2), 15, 26, k * 80, "#a877a8", 150);
  }
  // fine marginal fringe, many short hairs
  for (let k = 0; k < 22; k++) {
    let x = cx - 150 + k * (300 / 21);
    let lift = 6 * sin(map(k, 0, 21, 0, 180));
    driftRibbon(x, cy + 2 + lift, 45 + random(25), 1.8, 8, k * 40, "#8f8fb8", 120);
  }

  // bell: a wide pale wash, then a smaller deeper one inside
  layWash(domePoints(cx, cy, 165, 115, 22), "#a9bddc", 150, 0.3, 0.9);
  layWash(domePoints(cx, cy - 8, 120, 85, 14), "#8497c8", 130, 0.25, 0.9);
  layWash(domePoints(cx + 6, cy - 30, 60, 50, 8), "#c7d2ea", 90, 0.2, 0.9);

  // the four horseshoe gonads, pink rings seen through the bell
  let spots = [[-58, -34], [-20, -58], [22, -58], [60, -32]];
  for (let s of spots) {
    let ring = [];
    for (let a = 20; a <= 340; a += 20) ring.push([cx + s[0] + 24 * cos(a), cy + s[1] + 17 * sin(a)]);
    for (let a = 340; a >= 20; a -= 20) ring.push([cx + s[0] + 14 * cos(a), cy + s[1] + 9 * sin(a)]);
    layWash(ring, "#c86a8e", 150, 0.12, 0.6);
  }

  // a sheen of paper white along the crown
  brush.fill("#ffffff", 140);
  brush.fillBleed(0.15);
  let sheen = [];
  for (let a = 205; a <= 255; a += 5) sheen.push([cx + 140 * cos(a), cy - 6 + 100 * sin(a)]);
  for (let a = 255; a >= 205; a -= 5) sheen.push([cx + 126 * cos(a), cy - 6 + 88 * sin(a)]);
  brush.beginShape(0.7);
  for (let p of sheen) brush.vertex(p[0], p[1]);
  brush.endShape(true);

  // a few motes of plankton
  brush.fill("#7d93ad", 120);
  brush.fillBleed(0.1);
  for (let i = 0; i < 14; i++) brush.circle(random(90, 520), random(80, 540), random(1.5, 3.5));
}
