// audit probe: an orange five-armed starfish lying centred on wet sand, painted for the reward audit (not in any pool)

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

// outline of a starfish: five arms with rounded tips and soft webbing between them
function starOutline(cx, cy, armLen, hub, rot, curl) {
  const pts = [];
  for (let i = 0; i < 5; i++) {
    const a = rot + i * 72;
    const c = curl[i];
    // valley between previous arm and this one
    pts.push([cx + hub * cos(a - 36), cy + hub * sin(a - 36)]);
    // arm side, tip, other side
    pts.push([cx + armLen * 0.55 * cos(a - 13 + c * 0.5), cy + armLen * 0.55 * sin(a - 13 + c * 0.5)]);
    pts.push([cx + armLen * 0.93 * cos(a - 3 + c), cy + armLen * 0.93 * sin(a - 3 + c)]);
    pts.push([cx + armLen * cos(a + c * 1.2), cy + armLen * sin(a + c * 1.2)]);
    pts.push([cx + armLen * 0.93 * cos(a + 3 + c), cy + armLen * 0.93 * sin(a + 3 + c)]);
    pts.push([cx + armLen * 0.55 * cos(a + 13 + c * 0.5), cy + armLen * 0.55 * sin(a + 13 + c * 0.5)]);
  }
  return pts;
}

function dab(x, y, r, hex, alpha) {
  const pts = [];
  for (let k = 0; k < 8; k++) pts.push([x + r * cos(k * 45), y + r * sin(k * 45)]);
  wash(pts, hex, alpha, 0.05, 1, 0.2);
}

function draw() {
  translate(-width / 2, -height / 2);
  background(249, 244, 233);
  brush.scaleBrushes(3);
  brush.noStroke();

  // wet sand: warm ochre washes with a darker damp patch
  wash([[15, 15], [585, 15], [585, 585], [15, 585]], "#e2c58f", 170, 0.3, 0.2, 0.7);
  wash([[40, 360], [250, 330], [560, 380], [580, 580], [30, 580]], "#cfa76c", 120, 0.4, 0.8, 0.7);
  wash([[360, 40], [570, 60], [560, 200], [420, 170]], "#b9cccc", 110, 0.4, 0.8, 0.6);

  const cx = 300, cy = 305, rot = -90;
  const curl = [0, 6, -4, 5, -7];

  // cast shadow, then body in three values
  wash(starOutline(cx + 14, cy + 16, 205, 70, rot, curl), "#8c6e50", 130, 0.25, 0.5, 0.5);
  wash(starOutline(cx, cy, 205, 70, rot, curl), "#ef8a3c", 240, 0.15, 0.5, 0.5);
  wash(starOutline(cx, cy, 198, 66, rot, curl), "#ec7a30", 200, 0.1, 0.5, 0.5);
  wash(starOutline(cx + 4, cy + 6, 175, 52, rot, curl), "#d2541f", 170, 0.2, 0.5, 0.5);
  wash(starOutline(cx - 3, cy - 4, 120, 34, rot, curl), "#f7b261", 120, 0.25, 0.5, 0.4);

  // ridge down each arm
  for (let i = 0; i < 5; i++) {
    const a = rot + i * 72 + curl[i] * 0.6;
    wash([
      [cx + 18 * cos(a - 20), cy + 18 * sin(a - 20)],
      [cx + 170 * cos(a), cy + 170 * sin(a)],
      [cx + 18 * cos(a + 20), cy + 18 * sin(a + 20)],
    ], "#a83818", 170, 0.12, 0.6, 0.4);
    // rows of bumpy tubercles
    for (let d = 40; d < 175; d += 16) {
      const w = 10 * (1 - d / 230);
      dab(cx + d * cos(a) - w * sin(a), cy + d * sin(a) + w * cos(a), 3.6, "#8e2e12", 200);
      dab(cx + d * cos(a) + w * sin(a), cy + d * sin(a) - w * cos(a), 3.6, "#8e2e12", 200);
    }
  }

  // central disc and madreporite
  wash([[cx - 26, cy], [cx, cy - 26], [cx + 26, cy], [cx, cy + 26]], "#b2401a", 190, 0.2, 1, 0.4);
  dab(cx + 10, cy - 8, 5, "#fff0c0", 255);
}
