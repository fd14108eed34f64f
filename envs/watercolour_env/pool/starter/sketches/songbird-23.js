// starter pool: songbird-23
// bird and branch in washes
function setup() {
  createCanvas(600, 600, WEBGL);
  angleMode(DEGREES);
  noLoop();
}

// colours and placement
const SKY = ["#e2ecf3", "#eef1ea"];
const BARK = "#6d5443";
const LEAF = ["#a8c78c", "#5d8c44"];
const PLUM = [];
const BACK = ["#a3bde6", "#5b84c8", "#34589a"];
const BELLY = ["#f5bf90", "#e3864a", "#b65c25"];
const WING = ["#8eaee0", "#3f6cb6", "#22437e"];
const BIRD_X = 270, BIRD_SIZE = 72, FACING = 1;
const BOUGH = [20, 430, 580, 390];
const LAYERS = 3, STRENGTH = 1.0;

function oval(cx, cy, rx, ry, turn, tone, alpha, wet) {
  brush.fill(tone, alpha);
  brush.fillBleed(wet, "out");
  brush.fillTexture(0.45, 0.3);
  brush.beginShape(0.4);
  const steps = max(14, floor((rx + ry) / 4));
  for (let i = 0; i < steps; i++) {
    const a = (i * 360) / steps;
    const x = rx * cos(a), y = ry * sin(a);
    brush.vertex(cx + x * cos(turn) - y * sin(turn), cy + x * sin(turn) + y * cos(turn));
  }
  brush.endShape(true);
}

function boughY(x) {
  const t = (x - BOUGH[0]) / (BOUGH[2] - BOUGH[0]);
  return lerp(BOUGH[1], BOUGH[3], t) + 14 * sin(t * 180) + 6 * (noise(t * 3) - 0.5);
}

function bough() {
  // the bough is laid in short pieces so each wash stays narrow
  for (let x = BOUGH[0]; x < BOUGH[2]; x += 90) {
    const x2 = min(x + 100, BOUGH[2]);
    const top = [], bottom = [];
    for (let u = x; u <= x2; u += 10) {
      const w = map(u, BOUGH[0], BOUGH[2], 10, 4);
      top.push([u, boughY(u) - w]);
      bottom.unshift([u, boughY(u) + w * 0.8]);
    }
    brush.fill(BARK, 190);
    brush.fillBleed(0.05);
    brush.fillTexture(0.5, 0.35);
    brush.beginShape(0.2);
    for (const p of top.concat(bottom)) brush.vertex(p[0], p[1]);
    brush.endShape(true);
  }
}

function leafAt(x, y, turn, len) {
  for (let k = 0; k < 2; k++) {
    oval(x + (len / 2) * cos(turn), y + (len / 2) * sin(turn), len / 2 * (1 - k * 0.25), len / 5 * (1 - k * 0.3), turn, LEAF[k], 90 + k * 60, 0.18 - k * 0.1);
  }
}

function songbird(x, s, dir) {
  const feet = boughY(x) - 8;
  const y = feet - s * 0.85;
  // legs
  for (const dx of [-0.15, 0.12]) {
    brush.fill("#5b4a3e", 230);
    brush.fillBleed(0.01);
    brush.fillTexture(0.1, 0.1);
    brush.beginShape(0);
    brush.vertex(x + dx * s - 1.5, y + s * 0.5);
    brush.vertex(x + dx * s + 1.5, y + s * 0.5);
    brush.vertex(x + dx * s + 1.5, feet + 2);
    brush.vertex(x + dx * s - 1.5, feet + 2);
    brush.endShape(true);
  }
  for (let k = 0; k < LAYERS; k++) {
    const shrink = 1 - k * 0.2;
    // tail
    brush.fill(WING[k], (90 + k * 50) * STRENGTH);
    brush.fillBleed(0.2 - k * 0.07, "out");
    brush.fillTexture(0.45, 0.3);
    brush.beginShape(0.3);
    for (let i = 0; i <= 8; i++) {
      const t = i / 8;
      brush.vertex(x - dir * s * lerp(0.6, 1.8, t), y + s * lerp(0.05, 0.5, t) - s * 0.16 * shrink);
    }
    for (let i = 8; i >= 0; i--) {
      const t = i / 8;
      brush.vertex(x - dir * s * lerp(0.6, 1.75, t), y + s * lerp(0.05, 0.5, t) + s * 0.12 * shrink);
    }
    brush.endShape(true);
    oval(x, y, s * shrink, s * 0.68 * shrink, -dir * 22, BACK[k], (85 + k * 55) * STRENGTH, 0.28 - k * 0.1);
    oval(x + dir * s * 0.35, y + s * 0.22, s * 0.62 * shrink, s * 0.42 * shrink, -dir * 35, BELLY[k], (90 + k * 55) * STRENGTH, 0.22 - k * 0.08);
    oval(x + dir * s * 0.78, y - s * 0.62, s * 0.46 * shrink, s * 0.44 * shrink, 0, BACK[k], (90 + k * 55) * STRENGTH, 0.2 - k * 0.07);
    oval(x - dir * s * 0.25, y - s * 0.08, s * 0.78 * shrink, s * 0.36 * shrink, -dir * 18, WING[k], (95 + k * 55) * STRENGTH, 0.18 - k * 0.06);
  }
  // beak and eye
  brush.fill("#3b3430", 230);
  brush.fillBleed(0.02);
  brush.fillTexture(0.1, 0.1);
  brush.beginShape(0);
  brush.vertex(x + dir * s * 1.16, y - s * 0.72);
  brush.vertex(x + dir * s * 1.5, y - s * 0.62);
  brush.vertex(x + dir * s * 1.16, y - s * 0.52);
  brush.endShape(true);
  for (let k = 0; k < 2; k++) {
    brush.fill("#141110", 255);
    brush.fillBleed(0);
    brush.fillTexture(0, 0);
    brush.circle(x + dir * s * 0.95, y - s * 0.7, max(2.5, s * 0.08));
  }
}

function draw() {
  translate(-width / 2, -height / 2);
  background(248, 244, 236);
  brush.scaleBrushes(3);
  brush.noStroke();
  for (let i = 0; i < SKY.length; i++) {
    oval(300 + 120 * cos(i * 140), 260 + 80 * sin(i * 140), 260, 170, i * 25, SKY[i], 70, 0.45);
  }
  bough();
  leafAt(450, boughY(450) - 4, -70, 64);
  leafAt(470, boughY(470), 15, 58);
  leafAt(120, boughY(120), 200, 52);
  leafAt(530, boughY(530), 60, 50);
  songbird(BIRD_X, BIRD_SIZE, FACING);
}
