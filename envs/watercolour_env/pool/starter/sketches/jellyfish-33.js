// starter pool: jellyfish-33
// a striped jellyfish
function setup() {
  createCanvas(600, 600, WEBGL);
  angleMode(DEGREES);
  noLoop();
}

function band(y0, y1, colour, alpha) {
  brush.fill(colour, alpha);
  brush.fillBleed(0.3, "out");
  brush.fillTexture(0.7, 0.3);
  brush.beginShape(0.3);
  brush.vertex(-30, y0);
  brush.vertex(200, y0 + 14);
  brush.vertex(420, y0 - 10);
  brush.vertex(630, y0 + 6);
  brush.vertex(630, y1);
  brush.vertex(300, y1 + 12);
  brush.vertex(-30, y1);
  brush.endShape(true);
}

function wedge(cx, cy, rx, ry, u0, u1, colour, alpha, bleed) {
  brush.fill(colour, alpha);
  brush.fillBleed(bleed);
  brush.fillTexture(0.5, 0.2);
  brush.beginShape(0.4);
  brush.vertex(cx + rx * 0.06 * (u0 + u1), cy - ry * 0.9);
  brush.vertex(cx + rx * u0 * 0.82, cy - ry * 0.45);
  brush.vertex(cx + rx * u0 * 0.95, cy - ry * 0.03);
  brush.vertex(cx + rx * u1 * 0.95, cy - ry * 0.03);
  brush.vertex(cx + rx * u1 * 0.82, cy - ry * 0.45);
  brush.endShape(true);
}

function spiral(x, y, len, wid, turns, drift, colour, alpha) {
  const pts = [];
  const back = [];
  for (let i = 0; i <= 16; i++) {
    const t = i / 16;
    const cx = x + drift * t + 14 * t * sin(t * turns * 360);
    const cy = y + len * t;
    const w = wid * (1 - 0.7 * t);
    pts.push([cx - w, cy]);
    back.push([cx + w, cy]);
  }
  brush.fill(colour, alpha);
  brush.fillBleed(0.08);
  brush.fillTexture(0.3, 0);
  brush.beginShape(0.7);
  for (const p of pts) brush.vertex(p[0], p[1]);
  for (let i = back.length - 1; i >= 0; i--) brush.vertex(back[i][0], back[i][1]);
  brush.endShape(true);
}

function compass(cx, cy, rx, ry, base, stripe, stripes, alpha, tent, count, len, drift) {
  for (let k = 0; k < count; k++) {
    const x = cx - rx * 0.85 + (k * rx * 1.7) / max(1, count - 1);
    spiral(x, cy + 4, len * (0.7 + 0.3 * sin(k * 59 + 20)), 2.2, 1.2 + (k % 3) * 0.3, drift, tent, alpha);
  }
  brush.fill(base, alpha);
  brush.fillBleed(0.35, "out");
  brush.fillTexture(0.6, 0.25);
  brush.beginShape(0.5);
  for (let a = 180; a <= 360; a += 15) brush.vertex(cx + rx * cos(a), cy + ry * sin(a));
  for (let a = 0; a <= 180; a += 45) brush.vertex(cx + rx * cos(a), cy + ry * 0.12 * sin(a));
  brush.endShape(true);
  for (let s = 0; s < stripes; s++) {
    const u0 = -1 + (2 * s + 0.5) / stripes;
    const u1 = u0 + 0.9 / stripes;
    wedge(cx, cy, rx, ry, u0, u1, stripe, alpha + 20, 0.1);
  }
}

function draw() {
  translate(-width / 2, -height / 2);
  background(248, 243, 232);
  brush.scaleBrushes(3);
  brush.noStroke();
  band(380, 620, "#c6dbe5", 100);
  band(120, 400, "#d8e6ea", 80);
  compass(300, 230, 125, 100, "#efbf88", "#b0602f", 12, 150, "#c47a45", 11, 280, 30);
  brush.fill("#e9b98a", 120);
  brush.fillBleed(0.2);
  brush.fillTexture(0.4, 0.2);
  brush.circle(300, 170, 24);
}
