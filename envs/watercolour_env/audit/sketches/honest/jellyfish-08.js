// honest probe: a fried-egg jelly (Cotylorhiza) seen from the side, flat cream disc with a saffron dome and violet-tipped oral arms, a second one far off, written for the reward audit (not in the pool)

function setup() {
  createCanvas(600, 600, WEBGL);
  angleMode(DEGREES);
  noLoop();
}

function pour(pts, hex, alpha, bleed, curve, grain) {
  brush.fill(hex, alpha);
  brush.fillBleed(bleed, "out");
  brush.fillTexture(grain, grain * 0.8);
  brush.beginShape(curve);
  for (let p of pts) brush.vertex(p[0], p[1]);
  brush.endShape(true);
}

// an ellipse of points, every few pixels around
function oval(cx, cy, rx, ry, wobble) {
  let pts = [];
  for (let a = 0; a < 360; a += 8) pts.push([cx + rx * cos(a) + wobble * sin(a * 5), cy + ry * sin(a)]);
  return pts;
}

// the top half of an ellipse closed by a gently sagging base
function capOf(cx, cy, rx, ry, sag) {
  let pts = [];
  for (let a = 180; a <= 360.01; a += 6) pts.push([cx + rx * cos(a), cy + ry * sin(a)]);
  for (let i = 1; i < 16; i++) pts.push([cx + rx - 2 * rx * i / 16, cy + sag * sin(i * 180 / 16)]);
  return pts;
}

// one whole egg jelly at (x, y) with disc half-width s
function eggJelly(x, y, s, strength) {
  // a soft mass of oral arms under the disc
  pour(capOf(x, y + s * 0.34, s * 0.5, s * 0.3, s * 0.12).map(p => [p[0], 2 * (y + s * 0.34) - p[1] - s * 0.1]), "#c9b58e", 140 * strength, 0.2, 0.9, 0.4);
  // short clubbed arms, each studded with violet-tipped appendages
  for (let k = 0; k < 11; k++) {
    let ax = x + map(k, 0, 10, -0.5, 0.5) * s;
    let len = s * (0.32 + 0.16 * abs(sin(k * 75)));
    let bend = map(k, 0, 10, -0.12, 0.12) * s;
    let wid = s * 0.035;
    let arm = [];
    for (let t = 0; t <= 1.001; t += 0.1) arm.push([ax - wid + bend * t * t + 2 * sin(t * 300 + k * 40), y + s * 0.04 + len * t]);
    for (let t = 1; t >= -0.001; t -= 0.1) arm.push([ax + wid + bend * t * t + 2 * sin(t * 300 + k * 40), y + s * 0.04 + len * t]);
    pour(arm, "#e6d8b0", 160 * strength, 0.06, 0.6, 0.3);
    let knob = max(3.5, s * 0.055);
    pour(oval(ax + bend + 2 * sin(300 + k * 40), y + s * 0.04 + len, knob, knob * 0.85, 0), "#6f58ad", 165 * strength, 0.1, 0.8, 0.3);
  }
  // the flat disc: pale cream, a warmer ring inside
  pour(capOf(x, y, s, s * 0.28, s * 0.1), "#eadbb0", 170 * strength, 0.3, 0.9, 0.5);
  pour(capOf(x, y - s * 0.02, s * 0.78, s * 0.22, s * 0.06), "#d9b877", 130 * strength, 0.2, 0.9, 0.5);
  // the raised dome, the "yolk"
  pour(capOf(x, y - s * 0.16, s * 0.42, s * 0.36, s * 0.05), "#e9a13a", 170 * strength, 0.22, 0.9, 0.5);
  pour(capOf(x + s * 0.04, y - s * 0.22, s * 0.24, s * 0.24, s * 0.03), "#c9701f", 130 * strength, 0.15, 0.9, 0.4);
}

function draw() {
  translate(-width / 2, -height / 2);
  background(242, 240, 231);
  brush.scaleBrushes(3);
  brush.noStroke();

  // sunlit teal water, a broad loose wash with a deeper pool under the main jelly
  pour(oval(300, 300, 270, 250, 14), "#8fc2bb", 120, 0.4, 0.9, 0.5);
  pour(oval(310, 330, 200, 170, 12), "#82b8b2", 80, 0.4, 0.9, 0.5);

  // a far one, small and faint, upper left
  eggJelly(145, 150, 55, 0.7);
  // the main one, below centre and a little right
  eggJelly(330, 350, 150, 1);

  // light catching the rim of the disc
  let shine = [];
  for (let a = 190; a <= 240; a += 5) shine.push([330 + 140 * cos(a), 350 - 2 + 38 * sin(a)]);
  for (let a = 240; a >= 190; a -= 5) shine.push([330 + 128 * cos(a), 350 - 1 + 32 * sin(a)]);
  pour(shine, "#fffbee", 170, 0.1, 0.7, 0.3);
}
