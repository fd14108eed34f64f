// audit probe: a geometric mandala of concentric rings (triangles, arches, dots, a central star) in teal, terracotta and gold, centred, painted for the reward audit (not in any pool)

function setup() {
  createCanvas(600, 600, WEBGL);
  angleMode(DEGREES);
  noLoop();
}

const C = [300, 300];

function pol(a, d) {
  return [C[0] + d * cos(a), C[1] + d * sin(a)];
}

function wash(pts, hex, alpha, bleed, curve, grain = 0.4) {
  brush.fill(hex, alpha);
  brush.fillBleed(bleed, "out");
  brush.fillTexture(grain, grain * 0.7);
  brush.beginShape(curve);
  for (const p of pts) brush.vertex(p[0], p[1]);
  brush.endShape(true);
}

// a ring built from short curved segments, so it stays a ring (a single shape with a hole fills solid)
function annulus(r0, r1, hex, alpha, bleed, n = 24) {
  const step = 360 / n;
  for (let i = 0; i < n; i++) {
    const a = i * step;
    const pts = [];
    for (let t = 0; t <= 1.001; t += 0.5) pts.push(pol(a + t * step + 0.6, r1));
    for (let t = 1; t >= -0.001; t -= 0.5) pts.push(pol(a + t * step + 0.6, r0));
    wash(pts, hex, alpha, bleed, 0.3, 0.3);
  }
}

function disc(a, d, r, hex, alpha) {
  const pts = [];
  for (let k = 0; k < 10; k++) pts.push([pol(a, d)[0] + r * cos(k * 36), pol(a, d)[1] + r * sin(k * 36)]);
  wash(pts, hex, alpha, 0.04, 1, 0.2);
}

function draw() {
  translate(-width / 2, -height / 2);
  background(249, 245, 237);
  brush.scaleBrushes(3);
  brush.noStroke();

  // a warm paper tone behind the whole design
  const halo = [];
  for (let a = 0; a < 360; a += 12) halo.push(pol(a, 272 + 8 * sin(a * 5)));
  wash(halo, "#f0dcc0", 120, 0.35, 1, 0.6);

  // ring 1 (outer): 24 teal triangles pointing outward
  annulus(216, 230, "#4a9a98", 170, 0.04, 36);
  for (let i = 0; i < 24; i++) {
    const a = i * 15;
    wash([pol(a - 6.5, 230), pol(a, 270), pol(a + 6.5, 230)], "#2f7f83", 210, 0.04, 0.05);
    wash([pol(a - 3, 234), pol(a, 256), pol(a + 3, 234)], "#b9ddd6", 170, 0.03, 0.05);
    disc(a + 7.5, 246, 3, "#c8643c", 220);
  }
  // ring 2: 12 terracotta ogee arches, each outlined dark with a paler inside and a gold keystone
  for (let i = 0; i < 12; i++) {
    const a = i * 30 + 15;
    const arch = (inset) => {
      const w = 12.5 - inset * 0.35, r0 = 152 + inset, r1 = 176, top = 208 - inset;
      return [pol(a - w, r0), pol(a - w, r1), pol(a - w * 0.75, r1 + 14), pol(a - w * 0.3, top - 10),
        pol(a, top), pol(a + w * 0.3, top - 10), pol(a + w * 0.75, r1 + 14), pol(a + w, r1), pol(a + w, r0)];
    };
    wash(arch(0), "#a8482a", 220, 0.04, 0.25);
    wash(arch(6), "#ecae82", 200, 0.03, 0.25);
    wash(arch(14), "#d9774a", 150, 0.03, 0.25);
    disc(a, 168, 4, "#e1b13b", 240);
  }
  // small dots between the arches
  for (let i = 0; i < 12; i++) disc(i * 30, 196, 4.5, "#2f7f83", 220);

  // ring 3: a gold band studded with 36 small dark dots
  annulus(128, 146, "#e6b94a", 200, 0.03, 30);
  for (let i = 0; i < 36; i++) disc(i * 10, 137, 3.2, "#7a3b22", 200);
  // ring 4: 8 teal diamonds
  for (let i = 0; i < 8; i++) {
    const a = i * 45;
    wash([pol(a, 56), pol(a - 16, 92), pol(a, 124), pol(a + 16, 92)], "#3d8c8f", 210, 0.06, 0.05);
    wash([pol(a, 72), pol(a - 8, 92), pol(a, 110), pol(a + 8, 92)], "#a8d3cf", 170, 0.04, 0.05);
  }
  // centre: an eight-pointed star over a terracotta disc, and a gold eye
  const disk = [];
  for (let a = 0; a < 360; a += 15) disk.push(pol(a, 56));
  wash(disk, "#b85436", 190, 0.08, 1);
  const star = [];
  for (let i = 0; i < 16; i++) star.push(pol(i * 22.5 + 22.5, i % 2 ? 20 : 50));
  wash(star, "#e2a62a", 250, 0.03, 0.02);
  wash(star.map((p) => [lerp(C[0], p[0], 0.6), lerp(C[1], p[1], 0.6)]), "#f7e2a0", 220, 0.03, 0.02);
  disc(0, 0, 11, "#7a3b22", 220);
}
