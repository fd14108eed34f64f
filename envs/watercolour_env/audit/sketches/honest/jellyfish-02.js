// honest probe: a compass jelly tilted as it swims up to the right, cream bell with sienna chevrons and long trailing tentacles, written for the reward audit (not in the pool)

let pivotX = 320, pivotY = 205, tilt = 16;

function setup() {
  createCanvas(600, 600, WEBGL);
  angleMode(DEGREES);
  noLoop();
}

// turn a point given in the jelly's own frame (origin at the rim centre, y down) into canvas space
function toCanvas(u, v) {
  return [pivotX + u * cos(tilt) - v * sin(tilt), pivotY + u * sin(tilt) + v * cos(tilt)];
}

function paintLocal(localPts, hex, alpha, bleed, curve) {
  brush.fill(hex, alpha);
  brush.fillBleed(bleed, "out");
  brush.fillTexture(0.5, 0.35);
  brush.beginShape(curve);
  for (let q of localPts) {
    let c = toCanvas(q[0], q[1]);
    brush.vertex(c[0], c[1]);
  }
  brush.endShape(true);
}

// a tall, rounded bell in the local frame
function bellShape(w, h, lip) {
  let out = [];
  for (let a = 180; a <= 360.01; a += 6) {
    let s = sin(a);
    out.push([w * cos(a) * (1 - 0.12 * pow(-s, 3)), h * s]);
  }
  for (let i = 1; i < 24; i++) {
    let t = i / 24;
    out.push([w - 2 * w * t, lip * sin(t * 180) + 2.5 * sin(t * 180 * 16)]);
  }
  return out;
}

// a long tentacle hanging from (u0, v0) in the local frame, drawn as a thin tapering strand
function strand(u0, v0, len, thick, drift, phase, hex, alpha) {
  let a = [], b = [];
  let n = floor(len / 8);
  for (let i = 0; i <= n; i++) {
    let t = i / n;
    let u = u0 + drift * t * t + 14 * sin(phase + t * 420) * t;
    let v = v0 + len * t;
    let w = max(1.1, thick * (1 - 0.7 * t));
    a.push([u - w, v]);
    b.unshift([u + w, v]);
  }
  paintLocal(a.concat(b), hex, alpha, 0.03, 0.5);
}

// add in-between vertices so no edge is longer than `step`
function densify(corners, step) {
  let out = [];
  for (let i = 0; i < corners.length; i++) {
    let p = corners[i], q = corners[(i + 1) % corners.length];
    let n = max(1, ceil(dist(p[0], p[1], q[0], q[1]) / step));
    for (let j = 0; j < n; j++) out.push([lerp(p[0], q[0], j / n), lerp(p[1], q[1], j / n)]);
  }
  return out;
}

function draw() {
  translate(-width / 2, -height / 2);
  background(246, 240, 228);
  brush.scaleBrushes(3);
  brush.noStroke();

  // a soft cloud of sea green behind, leaning with the jelly
  brush.fill("#8fbcae", 115);
  brush.fillBleed(0.4, "out");
  brush.fillTexture(0.6, 0.5);
  brush.beginShape(0.9);
  for (let a = 0; a < 360; a += 10) {
    let r = 200 + 30 * sin(a * 2 + 30) + 12 * sin(a * 5);
    brush.vertex(300 + r * 1.1 * cos(a + 20), 310 + r * sin(a + 20));
  }
  brush.endShape(true);

  // tentacles trail behind (down and to the left in the canvas, since the bell leans right)
  for (let k = 0; k < 12; k++) {
    let u = map(k, 0, 11, -112, 112);
    strand(u, 12 + 6 * sin(map(k, 0, 11, 0, 180)), 220 + random(120), 1.3, -40 - random(30), k * 37, "#8a4a2c", 125);
  }
  // four oral arms: broader, paler ribbons
  for (let k = 0; k < 4; k++) {
    strand(-24 + k * 16, 18, 150 + 40 * (k % 2), 5, -30, k * 90, "#b8754a", 130);
  }

  // bell washes: pale cream, then warmer honey inside, then a small rosy crown
  paintLocal(bellShape(125, 130, 20), "#dcb887", 160, 0.3, 0.9);
  paintLocal(bellShape(95, 108, 12).map(p => [p[0], p[1] - 6]), "#c98f5a", 120, 0.25, 0.9);
  paintLocal(bellShape(42, 48, 6).map(p => [p[0], p[1] - 70]), "#a9633c", 130, 0.2, 0.9);

  // sixteen sienna chevrons: V marks whose points touch the margin and whose arms reach for the crown
  for (let k = 0; k < 16; k++) {
    let ang = map(k, 0, 15, 190, 350);
    let spot = (r, da) => [r * cos(ang + da), r * sin(ang + da) * 1.04];
    let corners = [spot(46, 0), spot(112, -6), spot(112, -3), spot(58, 0), spot(112, 3), spot(112, 6)];
    paintLocal(densify(corners, 7), "#8c4a2a", 135, 0.08, 0.3);
  }

  // brown dots ringing the margin
  brush.fill("#7a3d22", 160);
  brush.fillBleed(0.05);
  for (let k = 0; k < 16; k++) {
    let c = toCanvas(map(k, 0, 15, -116, 116), 8 + 8 * sin(map(k, 0, 15, 0, 180)));
    brush.circle(c[0], c[1], 3);
  }

  // highlight on the shoulder of the bell
  let lite = [];
  for (let a = 200; a <= 240; a += 4) lite.push([112 * cos(a), 118 * sin(a)]);
  for (let a = 240; a >= 200; a -= 4) lite.push([98 * cos(a), 104 * sin(a)]);
  paintLocal(lite, "#fffaf0", 170, 0.15, 0.7);
}
