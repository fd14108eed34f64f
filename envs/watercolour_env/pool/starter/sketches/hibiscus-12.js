// honest probe: a diagonal sprig with three small blush-and-crimson hibiscus blooms, written for the reward audit (not in the pool)

function setup() {
  createCanvas(600, 600, WEBGL);
  angleMode(DEGREES);
  noLoop();
}

function draw() {
  translate(-width / 2, -height / 2);
  background(250, 247, 242);
  brush.scaleBrushes(3);
  brush.noStroke();

  // closure that paints whatever outline it is handed, with fixed wash settings
  const painter = (tint, body, wet, texture) => (outline, curve) => {
    brush.fill(tint, body);
    brush.fillBleed(wet);
    brush.fillTexture(texture, 0.5);
    brush.beginShape(curve);
    for (const v of outline) brush.vertex(v.x, v.y);
    brush.endShape(true);
  };
  const twig = painter("#6b4f35", 220, 0.04, 0.3);
  const leafWash = painter("#4c7d3c", 205, 0.2, 0.45);
  const leafDark = painter("#33602d", 205, 0.2, 0.45);
  const blush = painter("#f39ab2", 220, 0.28, 0.5);
  const crimson = painter("#b3153a", 200, 0.18, 0.5);

  // the branch: a tapering band from lower left to upper right, offset across its own direction
  const onSpine = (s) => ({ x: lerp(40, 560, s), y: lerp(540, 110, s) + 40 * sin(s * 200) });
  for (let piece = 0; piece < 5; piece++) {
    const upper = [], lower = [];
    for (let s = piece * 0.2; s <= piece * 0.2 + 0.2201; s += 0.055) {
      const p = onSpine(s), q = onSpine(s + 0.01);
      const dir = atan2(q.y - p.y, q.x - p.x), half = 7 - 4 * s;
      upper.push({ x: p.x + half * cos(dir - 90), y: p.y + half * sin(dir - 90) });
      lower.unshift({ x: p.x + half * cos(dir + 90), y: p.y + half * sin(dir + 90) });
    }
    twig(upper.concat(lower), 0.5);
  }

  const leafAt = (s, ang, len, dark) => {
    const b = onSpine(s), pts = [];
    for (let t = 0; t <= 360; t += 24) {
      const along = len * (1 - cos(t)) * 0.5, side = len * 0.32 * sin(t) * (1 - 0.5 * along / len);
      pts.push({ x: b.x + along * cos(ang) - side * sin(ang), y: b.y + along * sin(ang) + side * cos(ang) });
    }
    (dark ? leafDark : leafWash)(pts, 0.8);
  };
  leafAt(0.2, 170, 120, false);
  leafAt(0.38, 60, 110, true);
  leafAt(0.62, -150, 100, false);
  leafAt(0.85, 40, 90, true);

  // blooms: position on the branch, offset, size, spin, how many petals are showing
  const blooms = [
    { s: 0.3, dx: 30, dy: -95, size: 95, spin: -80, shown: 5 },
    { s: 0.55, dx: 70, dy: 40, size: 78, spin: -30, shown: 5 },
    { s: 0.8, dx: -60, dy: -50, size: 55, spin: -120, shown: 3 },
  ];
  for (const b of blooms) {
    const root = onSpine(b.s), c = { x: root.x + b.dx, y: root.y + b.dy };
    const reach = dist(root.x, root.y, c.x, c.y), stop = max(0, 1 - (b.size * 0.3) / reach);
    const e = { x: lerp(root.x, c.x, stop), y: lerp(root.y, c.y, stop) };
    twig([{ x: root.x + 4, y: root.y }, { x: e.x + 3, y: e.y }, { x: e.x - 3, y: e.y }, { x: root.x - 4, y: root.y }], 0.3);
    const spanEach = b.shown === 5 ? 72 : 48;
    for (let k = 0; k < b.shown; k++) {
      const mid = b.spin + (k - (b.shown - 1) / 2) * spanEach, pts = [{ x: c.x, y: c.y }];
      for (let d = -spanEach * 0.6; d <= spanEach * 0.6; d += spanEach / 8) {
        const rr = b.size * (1 - 0.35 * pow(abs(d) / (spanEach * 0.6), 3));
        pts.push({ x: c.x + rr * cos(mid + d), y: c.y + rr * sin(mid + d) });
      }
      blush(pts, 0.85);
    }
    const eye = [];
    const eyeSpan = b.shown === 5 ? 360 : 150, eyeFrom = b.shown === 5 ? 0 : b.spin - 75;
    if (b.shown !== 5) eye.push({ x: c.x, y: c.y });
    for (let a = 0; a <= eyeSpan; a += 10) {
      const rr = b.size * (0.32 + 0.06 * cos(a * 5));
      eye.push({ x: c.x + rr * cos(a + eyeFrom), y: c.y + rr * sin(a + eyeFrom) });
    }
    crimson(eye, 0.9);
    // staminal column sticking out past the petals
    const col = { x: c.x + b.size * 0.95 * cos(b.spin + 20), y: c.y + b.size * 0.95 * sin(b.spin + 20) };
    crimson([{ x: c.x - 2, y: c.y + 2 }, { x: col.x - 2, y: col.y + 2 }, { x: col.x + 2, y: col.y - 2 }, { x: c.x + 2, y: c.y - 2 }], 0.1);
    brush.fill("#f2c84b", 250);
    brush.fillBleed(0.02);
    for (let i = 0; i < 7; i++) brush.circle(lerp(c.x, col.x, 0.7 + i * 0.04) + random(-6, 6), lerp(c.y, col.y, 0.7 + i * 0.04) + random(-6, 6), 3.5);
  }
}
