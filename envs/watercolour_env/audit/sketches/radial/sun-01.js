// audit probe: a blazing sun with long and short alternating rays, centred on a pale sky, painted for the reward audit (not in any pool)

function setup() {
  createCanvas(600, 600, WEBGL);
  angleMode(DEGREES);
  noLoop();
}

function wash(pts, hex, alpha, bleed, curve, grain) {
  brush.fill(hex, alpha);
  brush.fillBleed(bleed, "out");
  brush.fillTexture(grain, grain * 0.7);
  brush.beginShape(curve);
  for (const p of pts) brush.vertex(p[0], p[1]);
  brush.endShape(true);
}

function ring(cx, cy, r, wobble, seed) {
  const pts = [];
  for (let a = 0; a < 360; a += 12) {
    const rr = r * (1 + wobble * (noise(seed + cos(a) * 0.8, seed + sin(a) * 0.8) - 0.5));
    pts.push([cx + rr * cos(a), cy + rr * sin(a)]);
  }
  return pts;
}

// a tapered flame-like ray from the disc edge outward
function ray(cx, cy, ang, r0, len, half, bend) {
  const tip = r0 + len;
  return [
    [cx + r0 * cos(ang - half), cy + r0 * sin(ang - half)],
    [cx + (r0 + len * 0.55) * cos(ang - half * 0.45 + bend), cy + (r0 + len * 0.55) * sin(ang - half * 0.45 + bend)],
    [cx + tip * cos(ang + bend * 1.6), cy + tip * sin(ang + bend * 1.6)],
    [cx + (r0 + len * 0.5) * cos(ang + half * 0.35 + bend), cy + (r0 + len * 0.5) * sin(ang + half * 0.35 + bend)],
    [cx + r0 * cos(ang + half), cy + r0 * sin(ang + half)],
  ];
}

function draw() {
  translate(-width / 2, -height / 2);
  background(250, 246, 236);
  brush.scaleBrushes(3);
  brush.noStroke();

  const cx = 300, cy = 300;

  // pale sky: a cool blue veil around, a warm glow near the sun
  wash([[20, 20], [580, 20], [580, 580], [20, 580]], "#a9c6dc", 70, 0.3, 0.2, 0.6);
  wash(ring(cx, cy, 250, 0.3, 3), "#fbe7b0", 120, 0.4, 0.9, 0.5);
  wash(ring(cx, cy, 190, 0.2, 8), "#f9d98a", 90, 0.35, 0.9, 0.5);

  // long rays, then short rays between them
  for (let i = 0; i < 12; i++) {
    const a = i * 30 - 90;
    wash(ray(cx, cy, a, 92, 150, 9, 4), "#f3a83a", 150, 0.2, 0.6, 0.5);
    wash(ray(cx, cy, a, 92, 105, 5, 3), "#e8772a", 120, 0.15, 0.6, 0.4);
  }
  for (let i = 0; i < 12; i++) {
    const a = i * 30 - 75;
    wash(ray(cx, cy, a, 90, 78, 7, -3), "#f6c44a", 160, 0.2, 0.6, 0.5);
  }

  // the disc: golden base, a deeper orange lower-right, a hot pale core
  wash(ring(cx, cy, 112, 0.08, 1), "#f7c93e", 220, 0.15, 0.95, 0.5);
  wash(ring(cx + 14, cy + 16, 90, 0.12, 5), "#ec8d2c", 120, 0.3, 0.95, 0.5);
  wash(ring(cx - 22, cy - 24, 52, 0.15, 11), "#fff2c2", 170, 0.3, 0.95, 0.4);
  wash(ring(cx - 30, cy - 32, 22, 0.2, 14), "#fffbeb", 190, 0.2, 0.95, 0.3);
}
