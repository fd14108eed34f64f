// audit probe: an old red-spoked cart wheel seen at an angle, leaning against a grey stone wall in the lower left, with grass at its foot, painted for the reward audit (not in any pool)

// the wheel lives in its own plane; proj() turns it toward the viewer and leans it against the wall
const wheel = { cx: 215, cy: 370, R: 160, yaw: 36, lean: -8 };

function proj(a, d, depth = 0, off = 0) {
  // point on the wheel at angle a, radius d; depth pushes it along the axle (for the tyre's thickness),
  // off moves it sideways within the wheel's plane (for a spoke's width)
  let x = d * cos(a) - off * sin(a), y = d * sin(a) + off * cos(a), z = depth;
  const c = cos(wheel.yaw), s = sin(wheel.yaw);
  const xr = x * c + z * s;
  const cl = cos(wheel.lean), sl = sin(wheel.lean);
  return [wheel.cx + xr * cl - y * sl, wheel.cy + xr * sl + y * cl];
}

function setup() {
  createCanvas(600, 600, WEBGL);
  angleMode(DEGREES);
  noLoop();
}

function lay(ink, alpha, bleed, pts, curve = 0.3, grain = 0.45) {
  brush.fill(ink, alpha);
  brush.fillBleed(bleed, "out");
  brush.fillTexture(grain, grain * 0.7);
  brush.beginShape(curve);
  pts.forEach((p) => brush.vertex(p[0], p[1]));
  brush.endShape(true);
}

function rimPiece(a0, a1, r0, r1, depth0, depth1) {
  const pts = [];
  for (let a = a0; a <= a1 + 0.01; a += (a1 - a0) / 4) pts.push(proj(a, r1, depth1));
  for (let a = a1; a >= a0 - 0.01; a -= (a1 - a0) / 4) pts.push(proj(a, r0, depth0));
  return pts;
}

function draw() {
  translate(-width / 2, -height / 2);
  background(247, 245, 240);
  brush.scaleBrushes(3);
  brush.noStroke();

  // stone wall: a grey ground wash, then rows of irregular stones
  lay("#d3cfc6", 120, 0.3, [[12, 12], [588, 12], [588, 480], [12, 480]], 0.2, 0.6);
  let row = 0;
  for (let y = 30; y < 470; y += 52) {
    let x = 14 + (row % 2) * 40 - 40;
    while (x < 588) {
      const w = random(70, 110);
      const shade = random(["#aaa59b", "#b9b3a7", "#9d998f", "#c2b8a6"]);
      lay(shade, 120, 0.1, [[x + 4, y + random(-3, 3)], [x + w - 4, y + random(-3, 3)], [x + w - 2, y + 44 + random(-3, 3)], [x + 2, y + 46 + random(-3, 3)]], 0.6, 0.6);
      x += w;
    }
    row++;
  }
  // ground and grass
  lay("#b8a078", 200, 0.25, [[0, 470], [600, 460], [600, 600], [0, 600]], 0.4, 0.6);
  lay("#7fa35a", 180, 0.25, [[0, 500], [260, 480], [600, 505], [600, 600], [0, 600]], 0.5, 0.6);

  // shadow of the wheel cast on the wall, to the right
  const shadow = [];
  for (let a = 0; a < 360; a += 20) shadow.push([proj(a, wheel.R + 6)[0] + 34, proj(a, wheel.R + 6)[1] - 4]);
  lay("#6f6a62", 130, 0.2, shadow, 1, 0.5);

  // far side of the tyre (its thickness) shows as a darker crescent
  for (let k = 0; k < 8; k++) lay("#2e2a28", 170, 0.03, rimPiece(k * 45, k * 45 + 47, wheel.R - 4, wheel.R + 4, -14, -14), 0.2);

  // spokes: ten, painted red, faded and chipped
  for (let i = 0; i < 10; i++) {
    const a = i * 36 + 5, r1 = wheel.R - 24;
    lay("#a83a30", 250, 0.04, [proj(a, 28, 0, -8), proj(a, r1, 0, -5), proj(a, r1, 0, 5), proj(a, 28, 0, 8)], 0.05);
    lay("#e08a72", 140, 0.03, [proj(a, 34, 0, -1), proj(a, r1 - 4, 0, -1), proj(a, r1 - 4, 0, 2), proj(a, 34, 0, 3)], 0.05);
    lay("#6e2019", 150, 0.03, [proj(a, 34, 0, 4), proj(a, r1 - 4, 0, 3), proj(a, r1 - 4, 0, 5), proj(a, 34, 0, 7)], 0.05);
  }

  // felloes in weathered grey-green wood, then the iron tyre
  for (let k = 0; k < 5; k++) {
    lay("#6f7d66", 250, 0.03, rimPiece(k * 72 + 0.5, k * 72 + 71.5, wheel.R - 28, wheel.R - 4, 0, 0), 0.2);
    lay("#788a6c", 200, 0.03, rimPiece(k * 72 + 1.5, k * 72 + 70.5, wheel.R - 27, wheel.R - 5, 0, 0), 0.2);
    lay("#b3bda6", 120, 0.03, rimPiece(k * 72 + 6, k * 72 + 60, wheel.R - 22, wheel.R - 12, 0, 0), 0.2);
  }
  for (let k = 0; k < 8; k++) lay("#3a3532", 240, 0.02, rimPiece(k * 45 - 1, k * 45 + 46, wheel.R - 5, wheel.R + 4, 0, 0), 0.2);
  for (let a = 190; a < 290; a += 25) lay("#b4b8bb", 150, 0.02, rimPiece(a, a + 26, wheel.R - 1, wheel.R + 3, 0, 0), 0.2, 0.3);

  // hub: an oval nave with a red band and dark axle hole
  const oval = (r, depth) => {
    const p = [];
    for (let a = 0; a < 360; a += 20) p.push(proj(a, r, depth));
    return p;
  };
  lay("#5a4a3a", 220, 0.04, oval(34, -10), 1);
  lay("#9a7a55", 240, 0.04, oval(32, 0), 1);
  lay("#a8382f", 220, 0.03, oval(24, 4), 1);
  lay("#1f1a17", 230, 0.03, oval(10, 8), 1);

  // grass blades in front of the wheel's foot
  for (let i = 0; i < 50; i++) {
    const x = random(20, 580), y = random(505, 595), h = random(18, 50), l = random(-10, 10);
    lay(random(["#4f7d3a", "#6f9b4a", "#3b6530"]), 180, 0.02, [[x - 2.5, y], [x + l, y - h], [x + 2.5, y]], 0.2, 0.3);
  }
}
