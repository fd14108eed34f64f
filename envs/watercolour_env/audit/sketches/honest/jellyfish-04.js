// honest probe: a Pacific sea nettle, a golden striped bell high on the left with spiralling cream oral arms and long maroon tentacles in deep blue water, written for the reward audit (not in the pool)

function setup() {
  createCanvas(600, 600, WEBGL);
  angleMode(DEGREES);
  noLoop();
}

function wet(pts, hex, alpha, bleed, curve, grain = 0.55) {
  brush.fill(hex, alpha);
  brush.fillBleed(bleed, "out");
  brush.fillTexture(grain, grain * 0.75);
  brush.beginShape(curve);
  for (let p of pts) brush.vertex(p[0], p[1]);
  brush.endShape(true);
}

// a rounded dome whose sides fall almost straight to the rim
function nettleBell(cx, cy, w, h) {
  let pts = [];
  for (let a = 180; a <= 360.01; a += 5) {
    let s = sin(a), c = cos(a);
    pts.push([cx + w * c * (1 + 0.1 * s * s), cy + h * s * (0.85 + 0.15 * abs(s))]);
  }
  for (let i = 1; i < 32; i++) {
    let t = i / 32;
    pts.push([cx + w - 2 * w * t, cy + 6 * sin(t * 180) + 3 * abs(sin(t * 180 * 16))]);
  }
  return pts;
}

// a path hanging from (x0, y0) that coils gently as it falls; returns a tapering ribbon
function coil(x0, y0, len, wide, lean, twist, phase) {
  let l = [], r = [];
  let n = floor(len / 7);
  for (let i = 0; i <= n; i++) {
    let t = i / n;
    let x = x0 + lean * t + twist * sin(phase + t * 540) * (0.4 + t);
    let y = y0 + len * t;
    let w = max(1, wide * (1 - 0.75 * t) * (0.6 + 0.4 * abs(cos(phase + t * 540))));
    l.push([x - w, y]);
    r.unshift([x + w, y]);
  }
  return l.concat(r);
}

function draw() {
  translate(-width / 2, -height / 2);
  background(243, 240, 232);
  brush.scaleBrushes(3);
  brush.noStroke();

  // deep water: a tall blue wash, stronger toward the bottom
  let sea = [];
  for (let y = 40; y <= 560; y += 40) sea.push([50 + 14 * sin(y * 2), y]);
  for (let y = 560; y >= 40; y -= 40) sea.push([550 + 14 * sin(y * 2 + 60), y]);
  wet(sea, "#5d86a8", 105, 0.3, 0.7);
  let deep = [];
  for (let y = 300; y <= 560; y += 40) deep.push([70 + 12 * sin(y * 3), y]);
  for (let y = 560; y >= 300; y -= 40) deep.push([530 + 12 * sin(y * 3 + 30), y]);
  wet(deep, "#35577e", 90, 0.35, 0.7);

  let cx = 240, cy = 170;

  // long maroon tentacles from the rim, swept a little right
  for (let k = 0; k < 14; k++) {
    let x = cx - 92 + k * (184 / 13);
    wet(coil(x, cy + 4, 300 + random(80), 1.4, 50 + random(40), 8, k * 30), "#7a3526", 150, 0.02, 0.5, 0);
  }
  // four cream oral arms, spiralling ribbons, longer than the bell is tall
  for (let k = 0; k < 4; k++) {
    wet(coil(cx - 30 + k * 20, cy + 8, 280 + 30 * k, 14, 30 + 15 * k, 18, k * 95), "#f2e4c8", 170, 0.1, 0.7, 0.3);
    wet(coil(cx - 30 + k * 20, cy + 8, 200 + 30 * k, 6, 25 + 15 * k, 18, k * 95), "#d8a46a", 130, 0.06, 0.7, 0.15);
  }

  // the bell: pale gold, then deeper amber, then a burnt crown
  wet(nettleBell(cx, cy, 100, 110), "#e8b65a", 170, 0.3, 0.9);
  wet(nettleBell(cx, cy - 6, 72, 92), "#d68a3a", 130, 0.25, 0.9);
  wet(nettleBell(cx + 4, cy - 52, 32, 44), "#a4532a", 120, 0.2, 0.9);

  // rust stripes radiating from the crown
  for (let k = 0; k < 12; k++) {
    let ang = map(k, 0, 11, 192, 348);
    let band = [];
    for (let t = 0; t <= 1.001; t += 0.125) band.push([cx + (46 + 54 * t) * cos(ang - 2), cy + (44 + 48 * t) * sin(ang - 2)]);
    for (let t = 1; t >= -0.001; t -= 0.125) band.push([cx + (46 + 54 * t) * cos(ang + 2), cy + (44 + 48 * t) * sin(ang + 2)]);
    wet(band, "#b5602e", 100, 0.06, 0.5, 0.2);
  }

  // a few pale specks drifting in the blue
  brush.fill("#e9eef2", 170);
  brush.fillBleed(0.05);
  for (let i = 0; i < 18; i++) brush.circle(random(380, 530), random(60, 540), random(1.5, 3.5));
}
