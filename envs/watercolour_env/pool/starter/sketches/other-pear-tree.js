// starter pool: other-pear-tree
// another subject than a hibiscus (a pear-tree), rated nope (issue 33); written for the audit, not by compose.py

function setup() {
  createCanvas(600, 600, WEBGL);
  angleMode(DEGREES);
  noLoop();
}

function layer(ink, alpha, bleed, curve, outline) {
  brush.fill(ink, alpha);
  brush.fillBleed(bleed);
  brush.fillTexture(0.5, 0.5);
  brush.beginShape(curve);
  outline.forEach(function (v) { brush.vertex(v[0], v[1]); });
  brush.endShape(true);
}

// a tapering limb from (x, y) heading `dir` degrees, as a closed quad strip
function limb(x, y, dir, len, w0, w1) {
  let ex = x + len * cos(dir), ey = y + len * sin(dir);
  let nx = cos(dir + 90), ny = sin(dir + 90);
  layer("#6b4a32", 170, 0.05, 0.3, [
    [x + nx * w0, y + ny * w0], [ex + nx * w1, ey + ny * w1],
    [ex - nx * w1, ey - ny * w1], [x - nx * w0, y - ny * w0]]);
  return [ex, ey];
}

// leafy mass: lumpy oval with a ragged edge
function foliage(cx, cy, rx, ry, ink, alpha) {
  let pts = [];
  for (let a = 0; a < 360; a += 20) {
    let k = 1 + 0.12 * sin(a * 5) + random(-0.05, 0.05);
    pts.push([cx + rx * k * cos(a), cy + ry * k * sin(a)]);
  }
  layer(ink, alpha, 0.25, 0.7, pts);
}

// a pear: narrow neck swelling into a round bottom, with a blush and a stalk
const PEAR = [[0, -24], [5, -22], [8, -14], [10, -6], [15, 2], [18, 10], [17, 18], [11, 24], [0, 26],
              [-11, 24], [-17, 18], [-18, 10], [-15, 2], [-10, -6], [-8, -14], [-5, -22]];
function pear(x, y, s, lean) {
  let c = cos(lean), n = sin(lean);
  let pts = PEAR.map((p) => [x + s * (p[0] * c - p[1] * n), y + 24 * s + s * (p[0] * n + p[1] * c)]);
  layer("#e0c63c", 235, 0.06, 0.5, pts);
  layer("#d0862f", 120, 0.2, 0.6, pts.slice(3, 9));
  layer("#fff2a8", 150, 0.15, 0.8, [[x - 8 * s, y + 30 * s], [x - 4 * s, y + 26 * s], [x - 3 * s, y + 38 * s], [x - 8 * s, y + 40 * s]]);
  layer("#4a3520", 235, 0.01, 0.1, [[x - 1, y + 2], [x + 2, y - 9 * s], [x + 4, y - 8 * s], [x + 2, y + 2]]);
}

function draw() {
  translate(-width / 2, -height / 2);
  background(247, 244, 234);
  brush.scaleBrushes(3);
  brush.noStroke();

  // gentle hill of grass
  layer("#b4c98a", 120, 0.35, 0.8, [[40, 500], [200, 470], [380, 478], [560, 500], [560, 540], [40, 540]]);

  // trunk and main limbs
  layer("#5e4029", 230, 0.05, 0.3, [[262, 505], [284, 390], [292, 330], [312, 330], [312, 390], [330, 505]]);
  limb(296, 340, -135, 95, 9, 4);
  limb(306, 335, -60, 105, 9, 4);
  limb(300, 336, -95, 90, 8, 4);
  limb(292, 372, -160, 50, 6, 3);

  // crown: several overlapping greens, dark underneath, light on top
  foliage(300, 250, 150, 100, "#5c8838", 210);
  foliage(230, 268, 80, 60, "#4c7035", 170);
  foliage(372, 262, 86, 62, "#567c3b", 170);
  foliage(300, 205, 100, 60, "#a1bd6a", 130);
  foliage(260, 300, 70, 34, "#3e5c2c", 110);

  // pears hanging through the leaves
  let hang = [[205, 262, 0.9], [262, 300, 1.0], [335, 292, 0.95], [395, 256, 0.9], [300, 205, 0.8], [440, 220, 0.75], [170, 222, 0.75]];
  for (let h of hang) pear(h[0], h[1], h[2], random(-10, 10));

  // two windfalls in the grass with soft shadows
  layer("#8e9a6c", 100, 0.2, 0.9, [[360, 512], [420, 510], [422, 518], [362, 520]]);
  pear(385, 470, 0.9, 80);
  pear(172, 476, 0.85, -30);

  // bright dabs of light in the crown
  brush.fill("#d8e39c", 150);
  brush.fillBleed(0.2);
  for (let i = 0; i < 8; i++) brush.circle(220 + i * 22, 185 + 18 * sin(i * 80), 8);
}
