// starter pool: jellyfish-35
// a wide moon jelly
function setup() {
  createCanvas(600, 600, WEBGL);
  angleMode(DEGREES);
  noLoop();
}

let ROT = [300, 300, 0];

function v(x, y) {
  const dx = x - ROT[0];
  const dy = y - ROT[1];
  brush.vertex(ROT[0] + dx * cos(ROT[2]) - dy * sin(ROT[2]), ROT[1] + dx * sin(ROT[2]) + dy * cos(ROT[2]));
}

function bell(cx, cy, w, h, scallops, frill) {
  brush.beginShape(0.5);
  const n = 20;
  for (let i = 0; i <= n; i++) {
    const a = 180 + (i * 180) / n;
    v(cx + w * cos(a), cy + h * sin(a));
  }
  for (let i = 1; i < scallops * 2; i++) {
    const x = cx + w - (2 * w * i) / (scallops * 2);
    v(x, cy + (i % 2 === 1 ? frill : frill * 0.25));
  }
  brush.endShape(true);
}

function strand(x, y, len, wid, sway, phase, waves, ruffle, curv) {
  const n = 12;
  const left = [];
  const right = [];
  for (let i = 0; i <= n; i++) {
    const t = i / n;
    const px = x + sway * t * sin(phase + t * waves * 360);
    const py = y + len * t;
    const w = wid * (1 - t * 0.8) * (1 + ruffle * sin(i * 97));
    left.push([px - w, py]);
    right.push([px + w, py]);
  }
  brush.beginShape(curv);
  for (const p of left) v(p[0], p[1]);
  for (let i = right.length - 1; i >= 0; i--) v(right[i][0], right[i][1]);
  brush.endShape(true);
}

function jelly(cx, cy, w, h, pal, o) {
  ROT = [cx, cy, o.tilt];
  for (let k = 0; k < o.tentacles; k++) {
    const f = o.tentacles > 1 ? k / (o.tentacles - 1) : 0.5;
    const x = cx - w * 0.92 + f * w * 1.84;
    brush.fill(pal[3], o.alpha * 0.9);
    brush.fillBleed(0.06);
    brush.fillTexture(0.3, 0);
    strand(x, cy + o.frill * 0.6, o.tlen * (0.75 + 0.25 * sin(k * 71)), o.twid, o.sway, k * 40 + o.phase, o.waves, 0, 0.7);
  }
  for (let k = 0; k < o.arms; k++) {
    const x = cx + (k - (o.arms - 1) / 2) * w * 0.16;
    brush.fill(pal[2], o.alpha);
    brush.fillBleed(0.12);
    brush.fillTexture(0.4, 0.2);
    strand(x, cy - h * 0.05, o.alen * (0.8 + 0.2 * cos(k * 53)), w * 0.09, o.sway * 0.7, k * 65 + o.phase + 30, 0.8, 0.35, 0.8);
  }
  const layers = [[1.0, 1.0, 0], [0.74, 0.7, -0.08], [0.45, 0.42, -0.2]];
  for (let l = 0; l < o.layers; l++) {
    const s = layers[l];
    brush.fill(pal[l], o.alpha + l * 25);
    brush.fillBleed(o.bleed * (1 - l * 0.35), "out");
    brush.fillTexture(0.55, 0.25);
    bell(cx, cy + h * s[2], w * s[0], h * s[1], l === 0 ? o.scallops : 3, l === 0 ? o.frill : o.frill * 0.4);
  }
  if (o.gonads > 0) {
    for (let g = 0; g < o.gonads; g++) {
      const a = 200 + (g * 140) / max(1, o.gonads - 1);
      const p = [cx + w * 0.3 * cos(a), cy - h * 0.3 + h * 0.18 * sin(a)];
      brush.fill(pal[3], o.alpha + 40);
      brush.fillBleed(0.15);
      brush.fillTexture(0.4, 0);
      brush.circle(ROT[0] + (p[0] - ROT[0]) * cos(ROT[2]) - (p[1] - ROT[1]) * sin(ROT[2]),
        ROT[1] + (p[0] - ROT[0]) * sin(ROT[2]) + (p[1] - ROT[1]) * cos(ROT[2]), w * 0.11);
    }
  }
}

function draw() {
  translate(-width / 2, -height / 2);
  background(238, 243, 246);
  brush.scaleBrushes(3);
  brush.noStroke();
  brush.fill("#b9d2e6", 90);
  brush.fillBleed(0.45, "out");
  brush.fillTexture(0.6, 0.2);
  brush.circle(300, 330, 260);
  brush.fill("#a5c4dc", 70);
  brush.fillBleed(0.45, "out");
  brush.fillTexture(0.6, 0.2);
  brush.circle(430, 470, 150);
  jelly(300, 270, 175, 70, ["#b4c8ee", "#9aa6e2", "#7d6fc6", "#d475a8"], {"tilt": 0, "tentacles": 22, "tlen": 120, "twid": 1.4, "sway": 12, "phase": 0, "waves": 1.4, "arms": 4, "alen": 180, "layers": 3, "bleed": 0.3, "scallops": 12, "frill": 10, "gonads": 4, "alpha": 145});
}
