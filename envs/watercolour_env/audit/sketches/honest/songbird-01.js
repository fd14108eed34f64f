// honest probe: a robin facing left on a hawthorn branch rising from the lower right, written for the reward audit (not in the pool)

function setup() {
  createCanvas(600, 600, WEBGL);
  angleMode(DEGREES);
  noLoop();
}

// where the bird sits and which way it looks (-1 = facing left)
let birdX = 305, birdY = 258, facing = -1, S = 1.55;

// bird-local point -> sheet point (x grows toward the beak)
function bp(x, y) {
  return [birdX + facing * x * S, birdY + y * S];
}

function wash(pts, ink, alpha, bleed, curve) {
  brush.fill(ink, alpha);
  brush.fillBleed(bleed);
  brush.fillTexture(0.55, 0.4);
  brush.beginShape(curve);
  for (const p of pts) brush.vertex(p[0], p[1]);
  brush.endShape(true);
}

// an egg in bird space: fatter toward +x by `egg`
function eggLocal(cx, cy, rx, ry, egg, tilt) {
  let out = [];
  for (let a = 0; a < 360; a += 20) {
    let x = rx * cos(a), y = ry * sin(a) * (1 + egg * cos(a));
    out.push(bp(cx + x * cos(tilt) - y * sin(tilt), cy + x * sin(tilt) + y * cos(tilt)));
  }
  return out;
}

function localPoly(list) {
  return list.map(q => bp(q[0], q[1]));
}

// the branch as a line from (x0,y0) to (x1,y1) with a thickness that tapers
function branchY(x) {
  return map(x, 600, 60, 470, 250);
}

function bough(x0, x1, w0, w1, ink, alpha) {
  let step = 60;
  for (let x = x0; x > x1; x -= step * 0.8) {
    let xe = max(x - step, x1);
    let upper = [], low = [];
    for (let xx = x; xx >= xe - 0.1; xx -= 7) {
      let w = map(xx, x0, x1, w0, w1) + 1.5 * sin(xx * 7);
      upper.push([xx, branchY(xx) - w / 2]);
      low.unshift([xx, branchY(xx) + w / 2]);
    }
    wash(upper.concat(low), ink, alpha, 0.12, 0.5);
  }
}

// a small round dab built from vertices (tiny brush.circle calls come out square)
function dab(x, y, r, ink, alpha, bleed) {
  let pts = [];
  for (let i = 0; i < 12; i++) pts.push([x + r * cos(i * 30), y + r * sin(i * 30)]);
  wash(pts, ink, alpha, bleed, 1);
}

function leafAt(x, y, dir, len, wide, ink, alpha) {
  let pts = [];
  for (let t = 0; t <= 1.001; t += 0.1) pts.push([len * t, -wide * sin(t * 180)]);
  for (let t = 0.9; t > 0.05; t -= 0.1) pts.push([len * t, wide * 0.8 * sin(t * 180)]);
  pts = pts.map(([a, b]) => [x + a * cos(dir) - b * sin(dir), y + a * sin(dir) + b * cos(dir)]);
  wash(pts, ink, alpha, 0.2, 0.7);
}

function draw() {
  translate(-width / 2, -height / 2);
  background(246, 240, 228);
  brush.scaleBrushes(3);
  brush.noStroke();

  // a very pale sky wash behind, kept loose and off the edges
  wash([[90, 200], [200, 120], [380, 100], [520, 150], [540, 250], [430, 300], [260, 330], [120, 300]], "#c9d8dc", 110, 0.45, 0.9);

  // branch: pale bark first, then a darker underside
  bough(640, 70, 28, 9, "#7a5a3e", 240);
  bough(640, 100, 12, 4, "#3e2c20", 225);
  // a side twig down to the right
  wash([[400, 396], [440, 420], [470, 446], [478, 440], [446, 412], [404, 388]], "#6f5440", 220, 0.05, 0.3);

  // leaves
  leafAt(170, 306, 150, 60, 16, "#7d9a5a", 225);
  leafAt(210, 296, 200, 54, 14, "#5f7f44", 225);
  leafAt(430, 412, 70, 58, 15, "#7d9a5a", 225);
  leafAt(500, 440, 20, 62, 16, "#5f7f44", 225);
  leafAt(350, 372, 110, 46, 13, "#8ea866", 215);
  leafAt(540, 452, 290, 50, 14, "#6c8b4c", 225);

  // berries in small clusters
  let berries = [[470, 452], [482, 462], [466, 466], [140, 318], [128, 308], [150, 330], [360, 384]];
  for (const b of berries) {
    dab(b[0], b[1], 8, "#c4281f", 245, 0.12);
    dab(b[0] + 2, b[1] + 2, 4, "#7e1416", 230, 0.05);
  }

  // --- the robin ---
  // tail first, tipped down behind the body
  wash(localPoly([[-38, -6], [-82, 14], [-104, 34], [-96, 42], [-80, 36], [-36, 18]]), "#6a523a", 245, 0.15, 0.4);
  // body: pale buff wash, then olive-brown back
  wash(eggLocal(0, 0, 54, 40, 0.15, -8), "#b89a72", 235, 0.25, 0.9);
  wash(eggLocal(-6, -12, 48, 26, 0.1, -14), "#6e5236", 235, 0.2, 0.9);
  // head
  wash(eggLocal(40, -36, 30, 28, 0.05, 0), "#7e6448", 235, 0.2, 0.9);
  // orange face and breast, pale then deeper
  wash(eggLocal(34, -10, 34, 36, 0.1, 20), "#f07a26", 250, 0.25, 0.9);
  wash(eggLocal(38, -16, 22, 26, 0.1, 20), "#c8441a", 235, 0.2, 0.9);
  // cream belly
  wash(eggLocal(8, 26, 30, 12, 0, 0), "#fbf4ea", 235, 0.2, 0.9);
  // wing: two washes, the second smaller and darker
  wash(localPoly([[22, -18], [4, -26], [-30, -22], [-66, -4], [-40, 10], [0, 6], [18, -4]]), "#5a4228", 240, 0.15, 0.8);
  wash(localPoly([[4, -14], [-22, -14], [-60, -3], [-30, 4], [0, 0]]), "#3a2818", 230, 0.1, 0.8);
  // crown a little darker
  wash(localPoly([[24, -52], [40, -63], [58, -58], [52, -50], [34, -48]]), "#5e4a36", 210, 0.15, 0.8);

  // beak
  wash(localPoly([[62, -38], [80, -34], [62, -29]]), "#2e221a", 250, 0.02, 0.1);
  // eye: two dark stacks and a glint
  let e = bp(50, -40);
  dab(e[0], e[1], 7, "#140e0a", 255, 0);
  dab(e[0], e[1], 6, "#140e0a", 255, 0);
  dab(e[0], e[1], 4.5, "#140e0a", 255, 0);
  dab(e[0] - facing * 2, e[1] - 2, 1.6, "#ffffff", 240, 0);

  // legs and toes gripping the branch
  for (const lx of [-4, 14]) {
    let upper = bp(lx, 34);
    let by = branchY(upper[0]) - 11;
    wash([[upper[0] - 1.5, upper[1]], [upper[0] + 1.5, upper[1]], [upper[0] + 2, by], [upper[0] - 2, by]], "#5a3f34", 250, 0.02, 0);
    wash([[upper[0] - 8, by - 1], [upper[0] + 8, by - 1], [upper[0] + 9, by + 3], [upper[0] - 9, by + 3]], "#4a3128", 250, 0.02, 0.3);
  }
}
