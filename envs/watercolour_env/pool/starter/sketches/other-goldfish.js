// starter pool: other-goldfish
// another subject than a hibiscus (a goldfish), rated nope (issue 33); written for the audit, not by compose.py

function setup() {
  createCanvas(600, 600, WEBGL);
  angleMode(DEGREES);
  noLoop();
}

// fish is drawn in its own frame: nose at +x, tail at -x, then rotated and placed
const fishAt = { x: 320, y: 290, turn: -14 };

function place(px, py) {
  let c = cos(fishAt.turn), s = sin(fishAt.turn);
  return [fishAt.x + px * c - py * s, fishAt.y + px * s + py * c];
}

function wash(pts, ink, alpha, bleed, curve, local) {
  brush.fill(ink, alpha);
  brush.fillBleed(bleed);
  brush.fillTexture(0.45, 0.5);
  brush.beginShape(curve);
  for (let p of pts) {
    let q = local ? place(p[0], p[1]) : p;
    brush.vertex(q[0], q[1]);
  }
  brush.endShape(true);
}

// plump teardrop body, fattest just behind the head
function bodyOutline(k, dy) {
  let pts = [];
  for (let a = 0; a < 360; a += 15) {
    let rx = a < 90 || a > 270 ? 70 : 95;
    let ry = 44 * (1 - 0.25 * max(0, -cos(a)));
    pts.push([(rx * cos(a) + 10) * k, ry * sin(a) * k + dy]);
  }
  return pts;
}

function draw() {
  translate(-width / 2, -height / 2);
  background(244, 241, 232);
  brush.scaleBrushes(3);
  brush.noStroke();

  // pale pond water behind the fish
  wash([[90, 190], [260, 150], [470, 170], [540, 260], [510, 380], [330, 420], [140, 400], [70, 300]],
       "#bcd8d6", 70, 0.4, 0.8, false);

  // two strands of pond weed rising from the lower left
  for (let w = 0; w < 2; w++) {
    let stem = [], x0 = 470 + w * 50;
    for (let i = 0; i <= 8; i++) stem.push([x0 + 14 * sin(i * 40 + w * 60), 520 - i * 30]);
    for (let i = 8; i >= 0; i--) stem.push([x0 + 18 + 14 * sin(i * 40 + w * 60), 520 - i * 30]);
    wash(stem, "#5f8f5a", 170, 0.15, 0.7, false);
  }

  // flowing veil tail: two broad lobes fanning back from the tail stock, overlapping the body
  for (let side = -1; side <= 1; side += 2) {
    let lobe = [[-50, side * 2]];
    for (let ang = 0; ang <= 40; ang += 5) {
      let r = 120 + 22 * sin(ang * 9) + ang;
      lobe.push([-60 - r * cos(ang + 5), side * r * sin(ang + 5)]);
    }
    wash(lobe, side < 0 ? "#f08a3c" : "#ee7530", 170, 0.25, 0.5, true);
  }
  wash([[-60, -4], [-130, -30], [-180, -12], [-180, 14], [-130, 26], [-60, 4]], "#f7b26c", 110, 0.35, 0.6, true);

  // dorsal fin along the back and a pelvic fin underneath
  wash([[-30, -36], [-10, -66], [30, -72], [40, -44]], "#ec7a2f", 170, 0.2, 0.7, true);
  wash([[10, 38], [-4, 68], [20, 72], [34, 42]], "#f09247", 160, 0.2, 0.7, true);

  // body in three values: orange base, deep red-orange back, golden belly
  wash(bodyOutline(1, 0), "#f0782a", 220, 0.15, 0.9, true);
  wash(bodyOutline(0.75, -14), "#cf4b1c", 140, 0.3, 0.9, true);
  wash(bodyOutline(0.55, 20), "#f9c46e", 150, 0.3, 0.9, true);

  // side fin behind the gill
  wash([[28, 10], [0, 32], [-10, 50], [16, 38], [36, 18]], "#f6a35a", 190, 0.1, 0.7, true);

  // scales: a lattice of small dabs along the flank
  brush.fill("#c84617", 110);
  brush.fillBleed(0.05);
  for (let col = 0; col < 5; col++) {
    for (let row = -1; row <= 1; row++) {
      let q = place(-40 + col * 18, row * 14 + (col % 2) * 7);
      brush.circle(q[0], q[1], 6);
    }
  }

  // gill arc and eye
  wash([[48, -30], [40, 0], [48, 30], [52, 30], [45, 0], [53, -30]], "#a83a14", 170, 0.02, 0.6, true);
  let e = place(66, -10);
  brush.fillTexture(0, 0);
  brush.fill("#fff3dc", 250);
  brush.circle(e[0], e[1], 11);
  brush.fill("#1f1a17", 250);
  brush.circle(e[0] + 1, e[1], 7);
  brush.circle(e[0] + 1, e[1], 6);

  // bubbles drifting up from the mouth
  brush.fill("#9cc6cc", 160);
  for (let i = 0; i < 5; i++) {
    let b = place(100 + i * 6, -30 - i * 28);
    brush.circle(b[0] + 6 * sin(i * 70), b[1], 4 + i * 1.5);
  }
}
