// audit probe: a stellar-plate snowflake drifting in the upper right of a violet winter sky, with small flakes and snowy pines below, painted for the reward audit (not in any pool)

function setup() {
  createCanvas(600, 600, WEBGL);
  angleMode(RADIANS);
  noLoop();
}

// rotate-and-place helper: local (u, v) in a flake's frame to sheet coordinates
function place(f, u, v, rot) {
  const c = cos(f.spin + rot), s = sin(f.spin + rot);
  return [f.x + f.r * (u * c - v * s), f.y + f.r * (u * s + v * c)];
}

function shape(points, ink, alpha, bleed, curve) {
  brush.fill(ink, alpha);
  brush.fillBleed(bleed, "out");
  brush.fillTexture(0.4, 0.3);
  brush.beginShape(curve);
  for (const q of points) brush.vertex(q[0], q[1]);
  brush.endShape(true);
}

// a stellar plate arm in unit coordinates: a stem that widens into a broad spade with notches
const ARM = [[0, -0.05], [0.42, -0.05], [0.5, -0.16], [0.6, -0.1], [0.72, -0.2], [0.84, -0.1], [1.0, 0], [0.84, 0.1], [0.72, 0.2], [0.6, 0.1], [0.5, 0.16], [0.42, 0.05], [0, 0.05]];
const VEIN = [[0.05, -0.012], [0.95, -0.004], [0.95, 0.004], [0.05, 0.012]];

function flake(f, inks) {
  for (let k = 0; k < 6; k++) {
    const rot = (k * TWO_PI) / 6;
    shape(ARM.map((q) => place(f, q[0] * 1.05, q[1] * 1.4, rot)), inks[0], 110, 0.1, 0.1);
  }
  for (let k = 0; k < 6; k++) {
    const rot = (k * TWO_PI) / 6;
    shape(ARM.map((q) => place(f, q[0], q[1], rot)), inks[1], 210, 0.05, 0.05);
    shape(VEIN.map((q) => place(f, q[0], q[1] * 2, rot)), inks[2], 180, 0.02, 0.05);
    // little ribs across the spade
    for (const u of [0.58, 0.72]) shape([place(f, u - 0.02, -0.12, rot), place(f, u + 0.02, -0.12, rot), place(f, u + 0.02, 0.12, rot), place(f, u - 0.02, 0.12, rot)], inks[2], 120, 0.02, 0.05);
  }
  const hub = [];
  for (let k = 0; k < 6; k++) hub.push(place(f, 0.24, 0, (k * TWO_PI) / 6 + PI / 6));
  shape(hub, inks[2], 170, 0.04, 0.02);
  const hub2 = [];
  for (let k = 0; k < 6; k++) hub2.push(place(f, 0.12, 0, (k * TWO_PI) / 6));
  shape(hub2, "#f1eef8", 220, 0.04, 0.02);
}

function draw() {
  translate(-width / 2, -height / 2);
  background(247, 246, 243);
  brush.scaleBrushes(3);
  brush.noStroke();

  // sky in two veils, violet fading down to a pale horizon
  shape([[12, 12], [588, 12], [588, 380], [12, 380]], "#b9b1d6", 150, 0.35, 0.3);
  shape([[12, 12], [588, 12], [588, 200], [12, 240]], "#8f88bd", 90, 0.4, 0.6);

  // snowy hill and a row of dim pines on the left
  shape([[0, 470], [120, 420], [300, 440], [460, 500], [600, 490], [600, 600], [0, 600]], "#d7dbe8", 160, 0.2, 0.8);
  for (let i = 0; i < 6; i++) {
    const x = 40 + i * 42 + random(-8, 8), base = 450 + i * 6, h = random(90, 140);
    const tree = [[x, base - h]];
    // tiered boughs: each tier juts out, then steps back in toward the trunk
    for (let t = 1; t <= 4; t++) {
      tree.push([x + 8 * t, base - h + (h * t) / 4 - 6]);
      if (t < 4) tree.push([x + 3 * t, base - h + (h * t) / 4 - 4]);
    }
    tree.push([x + 8, base]);
    tree.push([x + 3, base + 12]);
    tree.push([x - 3, base + 12]);
    tree.push([x - 8, base]);
    for (let t = 4; t >= 1; t--) {
      if (t < 4) tree.push([x - 3 * t, base - h + (h * t) / 4 - 4]);
      tree.push([x - 8 * t, base - h + (h * t) / 4 - 6]);
    }
    shape(tree, i % 2 ? "#56607f" : "#68708f", 170, 0.12, 0.15);
  }
  shape([[0, 520], [200, 490], [420, 540], [600, 520], [600, 600], [0, 600]], "#eef0f6", 200, 0.2, 0.8);

  // the main flake, upper right
  flake({ x: 420, y: 180, r: 120, spin: 0.2 }, ["#cfe0f2", "#6f9fd1", "#34598f"]);

  // a scatter of small flakes falling
  const small = [[150, 110, 26, 0.5], [250, 300, 18, 1.1], [530, 360, 22, 0.8], [330, 70, 14, 0.3], [90, 250, 16, 0.9]];
  for (const [x, y, r, s] of small) flake({ x, y, r, spin: s }, ["#dfe7f4", "#8fb2da", "#4d6fa3"]);
}
