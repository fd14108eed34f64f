// audit probe: an indigo and magenta mandala of chevrons, scallops, squares and spokes set low-left on a lilac wash, with a quarter-motif in the top right corner, painted for the reward audit (not in any pool)

let O = { x: 250, y: 340 };

// each ring of the design: motif type, count, radii and inks, painted from the outside in
const RINGS = [
  { kind: "scallop", n: 16, r0: 170, r1: 198, ink: "#3d3f8f", alpha: 200 },
  { kind: "dots", n: 32, r0: 206, r1: 206, ink: "#c23b7a", alpha: 220, size: 4 },
  { kind: "band", n: 40, r0: 150, r1: 166, ink: "#7c5bb0", alpha: 180 },
  { kind: "chevron", n: 20, r0: 112, r1: 146, ink: "#c23b7a", alpha: 210 },
  { kind: "squares", n: 10, r0: 88, r1: 108, ink: "#2d2f75", alpha: 220 },
  { kind: "spokes", n: 24, r0: 42, r1: 82, ink: "#8f6ac8", alpha: 200 },
  { kind: "band", n: 24, r0: 34, r1: 42, ink: "#e0a23c", alpha: 220 },
  { kind: "dots", n: 1, r0: 0, r1: 0, ink: "#3d3f8f", alpha: 230, size: 26 },
  { kind: "dots", n: 1, r0: 0, r1: 0, ink: "#f2d8e8", alpha: 230, size: 11 },
];

function setup() {
  createCanvas(600, 600, WEBGL);
  angleMode(DEGREES);
  noLoop();
}

function pt(a, d) {
  return [O.x + d * cos(a), O.y + d * sin(a)];
}

function fillPoly(points, ink, alpha, bleed = 0.04, curve = 0.1) {
  brush.fill(ink, alpha);
  brush.fillBleed(bleed, "out");
  brush.fillTexture(0.35, 0.25);
  brush.beginShape(curve);
  points.forEach((q) => brush.vertex(q[0], q[1]));
  brush.endShape(true);
}

function roundSpot(x, y, r, ink, alpha) {
  const q = [];
  for (let k = 0; k < 12; k++) q.push([x + r * cos(k * 30), y + r * sin(k * 30)]);
  fillPoly(q, ink, alpha, 0.03, 1);
}

function motif(ring, i) {
  const step = 360 / ring.n, a = i * step, { r0, r1, ink, alpha } = ring;
  switch (ring.kind) {
    case "scallop": {
      const q = [];
      for (let t = -1; t <= 1.001; t += 0.25) q.push(pt(a + t * step * 0.5, r0 + (r1 - r0) * sqrt(1 - t * t)));
      fillPoly(q, ink, alpha, 0.05, 0.6);
      const inner = q.map((p) => [lerp(pt(a, r0)[0], p[0], 0.6), lerp(pt(a, r0)[1], p[1], 0.6)]);
      fillPoly(inner, "#b8b0e0", 170, 0.03, 0.6);
      break;
    }
    case "dots":
      roundSpot(pt(a, r0)[0], pt(a, r0)[1], ring.size, ink, alpha);
      break;
    case "band":
      fillPoly([pt(a, r0), pt(a + step + 0.5, r0), pt(a + step + 0.5, r1), pt(a, r1)], ink, alpha, 0.03, 0.2);
      break;
    case "chevron": {
      const w = step * 0.42, m = (r0 + r1) / 2;
      fillPoly([pt(a - w, r0), pt(a, m - 4), pt(a + w, r0), pt(a + w, r0 + 10), pt(a, r1), pt(a - w, r0 + 10)], ink, alpha);
      break;
    }
    case "squares": {
      const c = pt(a, (r0 + r1) / 2), h = (r1 - r0) * 0.62;
      fillPoly([[c[0], c[1] - h], [c[0] + h, c[1]], [c[0], c[1] + h], [c[0] - h, c[1]]], ink, alpha, 0.03, 0.02);
      roundSpot(c[0], c[1], 3.5, "#f4c9de", 230);
      break;
    }
    case "spokes":
      fillPoly([pt(a - 2.2, r0), pt(a, r1), pt(a + 2.2, r0)], ink, alpha, 0.03, 0.05);
      break;
  }
}

function draw() {
  translate(-width / 2, -height / 2);
  background(250, 247, 243);
  brush.scaleBrushes(3);
  brush.noStroke();

  // lilac wash behind the design, pooled darker toward the lower left
  fillPoly([[14, 14], [586, 14], [586, 586], [14, 586]], "#d9cfe6", 140, 0.35, 0.3);
  const pool = [];
  for (let a = 0; a < 360; a += 15) pool.push(pt(a, 245 + 12 * sin(a * 4)));
  fillPoly(pool, "#c3b4dc", 110, 0.35, 1);

  for (const ring of RINGS) for (let i = 0; i < ring.n; i++) motif(ring, i);

  // a quarter mandala echoing the design, tucked into the top right corner
  O = { x: 586, y: 14 };
  for (let i = 0; i < 6; i++) motif({ kind: "scallop", n: 24, r0: 96, r1: 116, ink: "#7c5bb0", alpha: 170 }, 4 + i);
  for (let i = 0; i < 10; i++) motif({ kind: "dots", n: 40, r0: 128, r1: 128, ink: "#c23b7a", alpha: 200, size: 3 }, 20 + i);
  for (let i = 0; i < 8; i++) motif({ kind: "spokes", n: 32, r0: 30, r1: 80, ink: "#3d3f8f", alpha: 180 }, 8 + i);
}
