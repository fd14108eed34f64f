// honest probe: scarlet hibiscus seen at an angle (foreshortened bloom) with stem and leaf, written for the reward audit (not in the pool)

// the bloom lies on a tilted disc: flatten one axis, then rotate the whole disc
const VIEW = { cx: 320, cy: 280, squash: 0.58, tilt: -18 };

function setup() {
  createCanvas(600, 600, WEBGL);
  angleMode(DEGREES);
  noLoop();
}

function project(x, y) {
  let fy = y * VIEW.squash;
  return [VIEW.cx + x * cos(VIEW.tilt) - fy * sin(VIEW.tilt), VIEW.cy + x * sin(VIEW.tilt) + fy * cos(VIEW.tilt)];
}

// petal outline in the flower's own (flat) plane
function flatPetal(angle, reach) {
  let pts = [];
  let steps = 14;
  for (let i = 0; i <= steps; i++) {
    let s = i / steps;
    let off = map(s, 0, 1, -40, 40);
    let r = reach * (1 - 0.3 * pow(abs(off) / 40, 2.5)) * (1 + 0.05 * sin(i * 97));
    pts.push([r * cos(angle + off), r * sin(angle + off)]);
  }
  pts.push([8 * cos(angle + 40), 8 * sin(angle + 40)]);
  pts.push([8 * cos(angle - 40), 8 * sin(angle - 40)]);
  return pts;
}

function paintFlat(pts, tone, strength, bleed) {
  brush.fill(tone, strength);
  brush.fillBleed(bleed);
  brush.fillTexture(0.55, 0.5);
  brush.beginShape(0.75);
  for (let p of pts) {
    let q = project(p[0], p[1]);
    brush.vertex(q[0], q[1]);
  }
  brush.endShape(true);
}

function paintFree(pts, tone, strength, bleed) {
  brush.fill(tone, strength);
  brush.fillBleed(bleed);
  brush.fillTexture(0.4, 0.4);
  brush.beginShape(0.7);
  for (let p of pts) brush.vertex(p[0], p[1]);
  brush.endShape(true);
}

function draw() {
  translate(-width / 2, -height / 2);
  background(244, 241, 233);
  brush.scaleBrushes(3);
  brush.noStroke();

  // stem dropping from under the bloom, and one broad leaf
  paintFree([[300, 360], [285, 440], [262, 520], [250, 600], [262, 600], [276, 522], [298, 442], [314, 362]], "#46733a", 215, 0.06);
  paintFree([[288, 468], [210, 430], [120, 420], [80, 460], [140, 490], [230, 492]], "#4f8540", 205, 0.2);
  paintFree([[286, 472], [180, 452], [100, 448]], "#2f5a2b", 150, 0.03);

  // back petals (far side of the disc) are a shade darker, painted first
  for (let k = 0; k < 5; k++) {
    let a = -90 + k * 72;
    let far = sin(a) < 0;
    paintFlat(flatPetal(a, 175), far ? "#c8202b" : "#e63b32", 200, 0.28);
  }
  // warm glaze on the near petals
  for (let k = 0; k < 5; k++) {
    let a = -90 + k * 72;
    if (sin(a) > 0) paintFlat(flatPetal(a + 4, 140), "#f05a3c", 130, 0.25);
  }
  // dark throat
  for (let k = 0; k < 5; k++) paintFlat(flatPetal(-90 + k * 72, 55), "#7a0a1e", 190, 0.2);

  // column rises out of the disc toward the viewer (up the page)
  let base = project(0, 0);
  let colTip = [base[0] + 40, base[1] - 120];
  paintFree([[base[0] - 4, base[1]], [colTip[0] - 3, colTip[1]], [colTip[0] + 4, colTip[1] + 2], [base[0] + 5, base[1]]], "#d2473f", 240, 0.02);
  brush.fill("#f4c53e", 250);
  brush.fillBleed(0.02);
  for (let i = 0; i < 12; i++) {
    let f = random(0.55, 0.95);
    brush.circle(lerp(base[0], colTip[0], f) + random(-9, 9), lerp(base[1], colTip[1], f) + random(-8, 8), random(3, 5));
  }
  brush.fill("#8a0b22", 250);
  brush.circle(colTip[0] + 2, colTip[1] - 6, 7);
}
