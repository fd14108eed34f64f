// audit probe: a four-vaned paper pinwheel on a wooden stick, centred against a soft sky, painted for the reward audit (not in any pool)

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

function at(cx, cy, a, d) {
  return [cx + d * cos(a), cy + d * sin(a)];
}

// one paper vane, cut from a square: the hub, the sharp outer corner, straight along the
// square's edge to its midpoint, then back to the hub
function vane(cx, cy, a, R) {
  return [
    at(cx, cy, a + 40, 10),
    at(cx, cy, a, R),
    at(cx, cy, a + 22, R * 0.76),
    at(cx, cy, a + 45, R * 0.707),
    at(cx, cy, a + 62, R * 0.42),
  ];
}

// the corner folded in to the pin, showing the paper's pale reverse as a narrow cone
function flap(cx, cy, a, R) {
  return [
    at(cx, cy, a - 20, 8),
    at(cx, cy, a, R * 0.98),
    at(cx, cy, a + 16, R * 0.55),
    at(cx, cy, a + 40, 12),
  ];
}

function draw() {
  translate(-width / 2, -height / 2);
  background(250, 248, 242);
  brush.scaleBrushes(3);
  brush.noStroke();

  // sky and a few loose clouds
  wash([[10, 10], [590, 10], [590, 590], [10, 590]], "#a9cce4", 180, 0.3, 0.3, 0.6);
  wash([[60, 90], [200, 60], [260, 110], [150, 140]], "#ffffff", 150, 0.3, 1, 0.4);
  wash([[380, 460], [520, 430], [570, 500], [430, 520]], "#ffffff", 140, 0.3, 1, 0.4);

  const cx = 300, cy = 250, R = 200;

  // stick: from under the hub down to the bottom edge
  wash([[292, 262], [306, 262], [318, 598], [300, 598]], "#b98b55", 220, 0.08, 0.2, 0.4);
  wash([[301, 262], [306, 262], [318, 598], [311, 598]], "#7b5530", 150, 0.05, 0.2, 0.3);

  // shadow of the vanes on the sky, then each vane in two values
  const colours = [["#e04a3f", "#b62f2e"], ["#f2b632", "#d98e1e"], ["#3f8fce", "#2a6aa4"], ["#4fae5c", "#2f8141"]];
  for (let i = 0; i < 4; i++) {
    wash(vane(cx + 8, cy + 10, i * 90 - 80, R), "#6f8aa0", 100, 0.2, 0.05, 0.4);
  }
  for (let i = 0; i < 4; i++) {
    const a = i * 90 - 80;
    wash(vane(cx, cy, a, R), colours[i][0], 240, 0.1, 0.05, 0.5);
    wash(vane(cx, cy, a + 14, R * 0.78), colours[i][1], 150, 0.12, 0.05, 0.5);
    wash(flap(cx, cy, a, R), "#fbf3e4", 230, 0.06, 0.05, 0.3);
    wash(flap(cx, cy, a + 2, R * 0.8), colours[i][0], 60, 0.08, 0.05, 0.3);
  }

  // the pin through the hub
  brush.fill("#e8e2d6", 240);
  brush.fillBleed(0.05);
  brush.circle(cx, cy, 16);
  brush.fill("#6b5a48", 200);
  brush.fillBleed(0.05);
  brush.circle(cx + 2, cy + 2, 7);
}
