// honest probe: a lion's mane jelly, a broad lobed crimson bell in the upper right trailing a long curtain of fine hair tentacles, written for the reward audit (not in the pool)

function setup() {
  createCanvas(600, 600, WEBGL);
  angleMode(DEGREES);
  noLoop();
}

function flood(pts, hex, alpha, bleed, curve, grain = 0.5) {
  brush.fill(hex, alpha);
  brush.fillBleed(bleed, "out");
  brush.fillTexture(grain, grain * 0.8);
  brush.beginShape(curve);
  for (let p of pts) brush.vertex(p[0], p[1]);
  brush.endShape(true);
}

// a flattened bell whose rim is cut into eight soft lobes
function lobedBell(cx, cy, w, h) {
  let pts = [];
  for (let a = 180; a <= 360.01; a += 5) pts.push([cx + w * cos(a), cy + h * sin(a)]);
  for (let i = 1; i < 48; i++) {
    let t = i / 48;
    let lobe = abs(sin(t * 180 * 8));
    pts.push([cx + w - 2 * w * t, cy + 4 + 12 * lobe + 10 * sin(t * 180)]);
  }
  return pts;
}

// one hair: a long, thin strand that drifts with the current
function hair(x0, y0, len, thick, lean, phase, hex, alpha) {
  let l = [], r = [];
  let n = floor(len / 8);
  for (let i = 0; i <= n; i++) {
    let t = i / n;
    let x = x0 + lean * t * t + 10 * sin(phase + t * 360) * t;
    let y = y0 + len * t;
    let w = max(0.9, thick * (1 - 0.6 * t));
    l.push([x - w, y]);
    r.unshift([x + w, y]);
  }
  flood(l.concat(r), hex, alpha, 0.02, 0.5, 0);
}

// the folded oral curtain: a wide ruffled ribbon
function curtain(x0, y0, len, wide, lean, phase, hex, alpha) {
  let l = [], r = [];
  let n = floor(len / 7);
  for (let i = 0; i <= n; i++) {
    let t = i / n;
    let x = x0 + lean * t + 8 * sin(phase + t * 500);
    let y = y0 + len * t;
    let w = wide * (1 - 0.7 * t) * (0.75 + 0.25 * sin(t * 1800 + phase)) + 1.5;
    l.push([x - w, y]);
    r.unshift([x + w, y]);
  }
  flood(l.concat(r), hex, alpha, 0.1, 0.7, 0.25);
}

function draw() {
  translate(-width / 2, -height / 2);
  background(241, 238, 230);
  brush.scaleBrushes(3);
  brush.noStroke();

  // cold grey-blue water laid in two loose veils
  let veil = [];
  for (let a = 0; a < 360; a += 10) {
    let r = 250 + 30 * sin(a * 3) + 15 * sin(a * 7 + 40);
    veil.push([310 + r * cos(a), 320 + r * sin(a)]);
  }
  flood(veil, "#8ea6b8", 110, 0.4, 0.9);
  flood(veil.map(p => [p[0] * 0.7 + 120, p[1] * 0.6 + 170]), "#7d98ab", 70, 0.4, 0.9);

  let cx = 360, cy = 150;

  // the mane: dozens of fine hairs streaming down and a little left
  for (let k = 0; k < 34; k++) {
    let x = cx - 140 + k * (280 / 33) + random(-3, 3);
    let tone = k % 3 == 0 ? "#7a2a20" : (k % 3 == 1 ? "#b0532c" : "#c9803e");
    hair(x, cy + 12, 300 + random(120), 1.3, -60 - random(60), k * 23, tone, 115 + random(30));
  }
  // folded oral curtains under the bell
  for (let k = 0; k < 5; k++) {
    curtain(cx - 50 + k * 25, cy + 14, 150 + random(60), 14, -30, k * 70, k % 2 ? "#c45a3c" : "#d9904e", 140);
  }

  // the bell: broad amber wash, deeper crimson inside, a dark heart near the crown
  flood(lobedBell(cx, cy, 158, 92), "#d99a5a", 150, 0.3, 0.9);
  flood(lobedBell(cx, cy - 4, 118, 72), "#b54a34", 140, 0.25, 0.9);
  flood(lobedBell(cx, cy - 18, 60, 42), "#7e2624", 140, 0.2, 0.9);

  // faint radial grooves across the bell
  for (let k = 0; k < 9; k++) {
    let ang = map(k, 0, 8, 200, 340);
    let groove = [];
    for (let t = 0; t <= 1.001; t += 0.1) groove.push([cx + (30 + 118 * t) * cos(ang) - 2, cy + (20 + 70 * t) * sin(ang)]);
    for (let t = 1; t >= -0.001; t -= 0.1) groove.push([cx + (30 + 118 * t) * cos(ang) + 2, cy + (20 + 70 * t) * sin(ang) + 1.5]);
    flood(groove, "#f0c08a", 110, 0.05, 0.5);
  }

  // light catching the top of the dome
  let glint = [];
  for (let a = 215; a <= 265; a += 5) glint.push([cx + 140 * cos(a), cy - 2 + 82 * sin(a)]);
  for (let a = 265; a >= 215; a -= 5) glint.push([cx + 124 * cos(a), cy - 2 + 72 * sin(a)]);
  flood(glint, "#fff3e2", 160, 0.15, 0.7);
}
