// starter pool: jellyfish-27
// several jellyfish
function setup() {
  createCanvas(600, 600, WEBGL);
  angleMode(DEGREES);
  noLoop();
}

const PAPER = [246, 244, 240];
const SEA = [

];
const JELLIES = [
  {"tilt": 0, "squash": 0.8, "lobes": 16, "n": 5, "len": 90, "curl": 1.2, "drift": 20, "thick": 1.3, "alpha": 105, "bleed": 0.3, "tent": "#86acd4", "ta": 110, "x": 110, "y": 120, "r": 40, "bell": ["#9cc0e4"]},
  {"tilt": 0, "squash": 0.8, "lobes": 16, "n": 5, "len": 80, "curl": 1.2, "drift": 20, "thick": 1.3, "alpha": 105, "bleed": 0.3, "tent": "#dc90b0", "ta": 110, "x": 420, "y": 90, "r": 35, "bell": ["#eaa8c2"]},
  {"tilt": 0, "squash": 0.8, "lobes": 16, "n": 6, "len": 100, "curl": 1.2, "drift": 20, "thick": 1.3, "alpha": 105, "bleed": 0.3, "tent": "#a088d0", "ta": 110, "x": 260, "y": 300, "r": 45, "bell": ["#b8a0e0"]},
  {"tilt": 0, "squash": 0.8, "lobes": 16, "n": 5, "len": 90, "curl": 1.2, "drift": 20, "thick": 1.3, "alpha": 105, "bleed": 0.3, "tent": "#7cbcb6", "ta": 110, "x": 500, "y": 380, "r": 38, "bell": ["#98d0ca"]},
  {"tilt": 0, "squash": 0.8, "lobes": 16, "n": 5, "len": 90, "curl": 1.2, "drift": 20, "thick": 1.3, "alpha": 105, "bleed": 0.3, "tent": "#dca870", "ta": 110, "x": 140, "y": 450, "r": 42, "bell": ["#eec08a"]}
];

function local(j, x, y) {
  return [j.x + x * cos(j.tilt) - y * sin(j.tilt), j.y + x * sin(j.tilt) + y * cos(j.tilt)];
}

function put(j, x, y) {
  const p = local(j, x, y);
  brush.vertex(p[0], p[1]);
}

function paintSea() {
  for (const w of SEA) {
    brush.fill(w.c, w.a);
    brush.fillBleed(0.5, "out");
    brush.fillTexture(0.7, 0.3);
    brush.circle(w.x, w.y, w.r);
  }
}

function paintBell(j, scale, colour, alpha, bleed) {
  const r = j.r * scale;
  const hgt = j.r * j.squash * scale;
  brush.fill(colour, alpha);
  brush.fillBleed(bleed, "out");
  brush.fillTexture(0.5, 0.2);
  brush.beginShape(0.6);
  for (let a = 180; a <= 360; a += 12) {
    const wob = 1 + 0.035 * sin(a * j.lobes);
    put(j, r * wob * cos(a), hgt * wob * sin(a) - (1 - scale) * j.r * 0.2);
  }
  for (let a = 0; a <= 180; a += 30) {
    put(j, r * 0.96 * cos(a), hgt * 0.14 * sin(a) - (1 - scale) * j.r * 0.2);
  }
  brush.endShape(true);
}

function paintTentacle(j, k) {
  const n = 14;
  const x0 = (k / max(1, j.n - 1) - 0.5) * j.r * 1.7;
  const len = j.len * (0.7 + 0.3 * noise(k * 1.7, j.x * 0.01));
  const edgeA = [];
  const edgeB = [];
  for (let i = 0; i <= n; i++) {
    const t = i / n;
    const dx = (noise(k * 3.1 + j.x * 0.02, t * j.curl) - 0.5) * j.drift * t * 2;
    const w = j.thick * (1 - t * 0.75);
    edgeA.push([x0 + dx - w, j.r * j.squash * 0.1 + len * t]);
    edgeB.push([x0 + dx + w, j.r * j.squash * 0.1 + len * t]);
  }
  brush.fill(j.tent, j.ta);
  brush.fillBleed(0.05);
  brush.fillTexture(0.3, 0);
  brush.beginShape(0.8);
  for (const p of edgeA) put(j, p[0], p[1]);
  for (let i = edgeB.length - 1; i >= 0; i--) put(j, edgeB[i][0], edgeB[i][1]);
  brush.endShape(true);
}

function draw() {
  translate(-width / 2, -height / 2);
  background(PAPER[0], PAPER[1], PAPER[2]);
  brush.scaleBrushes(3);
  brush.noStroke();
  paintSea();
  JELLIES.forEach((j) => {
    for (let k = 0; k < j.n; k++) paintTentacle(j, k);
    for (let l = 0; l < j.bell.length; l++) {
      paintBell(j, 1 - l * 0.27, j.bell[l], j.alpha + l * 30, j.bleed * (1 - l * 0.3));
    }
  });
}
