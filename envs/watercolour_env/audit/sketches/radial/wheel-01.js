// audit probe: a wooden cart wheel with twelve spokes, six felloes and an iron tyre, standing centred on a dusty track, painted for the reward audit (not in any pool)

function setup() {
  createCanvas(600, 600, WEBGL);
  angleMode(DEGREES);
  noLoop();
}

function wash(pts, hex, alpha, bleed, curve, grain = 0.45) {
  brush.fill(hex, alpha);
  brush.fillBleed(bleed, "out");
  brush.fillTexture(grain, grain * 0.7);
  brush.beginShape(curve);
  for (const p of pts) brush.vertex(p[0], p[1]);
  brush.endShape(true);
}

const W = { x: 300, y: 290, R: 220 };

function polar(a, d, ox = 0, oy = 0) {
  return [W.x + ox + d * cos(a), W.y + oy + d * sin(a)];
}

// an arc band between radii r0 and r1 from angle a0 to a1
function arcBand(a0, a1, r0, r1, ox = 0, oy = 0) {
  const pts = [];
  const n = max(3, ceil((a1 - a0) / 6));
  for (let i = 0; i <= n; i++) pts.push(polar(lerp(a0, a1, i / n), r1, ox, oy));
  for (let i = n; i >= 0; i--) pts.push(polar(lerp(a0, a1, i / n), r0, ox, oy));
  return pts;
}

// a spoke: slightly thicker at the hub, tapering toward the rim
function spoke(a, r0, r1, w0, w1) {
  const nx = -sin(a), ny = cos(a);
  const p0 = polar(a, r0), p1 = polar(a, r1);
  return [[p0[0] + nx * w0, p0[1] + ny * w0], [p1[0] + nx * w1, p1[1] + ny * w1], [p1[0] - nx * w1, p1[1] - ny * w1], [p0[0] - nx * w0, p0[1] - ny * w0]];
}

function draw() {
  translate(-width / 2, -height / 2);
  background(249, 245, 236);
  brush.scaleBrushes(3);
  brush.noStroke();

  // barn-board backdrop and a dusty track
  wash([[12, 12], [588, 12], [588, 470], [12, 470]], "#d9d1bf", 130, 0.3, 0.2, 0.6);
  for (let x = 60; x < 588; x += 96) wash([[x - 2, 14], [x + 2, 14], [x + 2, 468], [x - 2, 468]], "#b7ab92", 120, 0.05, 0.05, 0.4);
  wash([[12, 450], [588, 440], [588, 588], [12, 588]], "#d8b987", 170, 0.3, 0.4, 0.6);
  wash([[90, 505], [520, 500], [560, 530], [60, 535]], "#9a8060", 110, 0.3, 0.8, 0.5);

  // shadow of the wheel on the boards
  for (let k = 0; k < 6; k++) wash(arcBand(k * 60 + 2, k * 60 + 61, W.R - 30, W.R + 4, 16, 14), "#8c7f68", 90, 0.15, 0.4);

  // twelve spokes, two values each
  for (let i = 0; i < 12; i++) {
    const a = i * 30 + 8;
    wash(spoke(a, 36, W.R - 24, 9, 6), "#a9793f", 230, 0.05, 0.05);
    wash(spoke(a + 1.2, 36, W.R - 26, 4, 3), "#7d5428", 150, 0.03, 0.05);
  }

  // six felloes, each a separate curved piece of wood with a visible joint
  for (let k = 0; k < 6; k++) {
    const a0 = k * 60 + 0.4, a1 = k * 60 + 59.6;
    wash(arcBand(a0, a1, W.R - 34, W.R - 6), "#b5843f", 245, 0.03, 0.3);
    wash(arcBand(a0 + 3, a1 - 3, W.R - 26, W.R - 12), "#cf9f5a", 120, 0.05, 0.3);
  }
  // the iron tyre: dark, with a cool highlight along its top
  for (let k = 0; k < 12; k++) wash(arcBand(k * 30 - 1, k * 30 + 31, W.R - 7, W.R + 6), "#34302e", 250, 0.02, 0.2, 0.3);
  for (let k = 0; k < 12; k++) wash(arcBand(k * 30 + 14, k * 30 + 46, W.R - 5, W.R + 4), "#4a4440", 160, 0.02, 0.2, 0.3);
  for (let a = 200; a < 320; a += 30) wash(arcBand(a, a + 31, W.R - 1, W.R + 3), "#a9b6be", 170, 0.02, 0.3, 0.3);
  // rivets where felloes meet the tyre
  for (let k = 0; k < 12; k++) {
    const c = polar(k * 30 + 8, W.R - 20);
    const dot = [];
    for (let j = 0; j < 8; j++) dot.push([c[0] + 4 * cos(j * 45), c[1] + 4 * sin(j * 45)]);
    wash(dot, "#3b3430", 200, 0.02, 1, 0.2);
  }

  // the hub: a turned wooden nave with iron bands and a dark axle hole
  const ring = (r, hex, al) => {
    const p = [];
    for (let a = 0; a < 360; a += 15) p.push(polar(a, r));
    wash(p, hex, al, 0.04, 1);
  };
  ring(52, "#8b5e2c", 235);
  ring(44, "#3f3a36", 210);
  ring(38, "#b17b3d", 235);
  ring(24, "#5a3d20", 220);
  ring(12, "#221b17", 230);
  const glint = [polar(215, 34), polar(240, 40), polar(250, 34), polar(228, 28)];
  wash(glint, "#f0d8a8", 180, 0.04, 0.6);
}
