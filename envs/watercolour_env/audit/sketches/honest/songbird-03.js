// honest probe: two goldfinches facing each other on a branch falling from the top-left corner, with thistles, written for the reward audit (not in the pool)

function setup() {
  createCanvas(600, 600, WEBGL);
  angleMode(DEGREES);
  noLoop();
}

// one watercolour wash over a list of [x, y] points
function paintShape(pts, ink, alpha, bleed, curve) {
  brush.fill(ink, alpha);
  brush.fillBleed(bleed);
  brush.fillTexture(0.5, 0.35);
  brush.beginShape(curve);
  for (const p of pts) brush.vertex(p[0], p[1]);
  brush.endShape(true);
}

// small round dab from vertices (tiny brush.circle calls come out square)
function roundDab(x, y, r, ink, alpha, bleed) {
  let pts = [];
  for (let i = 0; i < 12; i++) pts.push([x + r * cos(i * 30), y + r * sin(i * 30)]);
  paintShape(pts, ink, alpha, bleed, 1);
}

// the bird's own frame: x runs toward the beak, y down; pose places and mirrors it
let pose = { x: 300, y: 300, s: 1, face: 1, tilt: 0 };

function toSheet(x, y) {
  let c = cos(pose.tilt), sn = sin(pose.tilt);
  let rx = x * c - y * sn, ry = x * sn + y * c;
  return [pose.x + pose.face * rx * pose.s, pose.y + ry * pose.s];
}

function eggShape(cx, cy, rx, ry, egg, turn) {
  let out = [];
  for (let a = 0; a < 360; a += 20) {
    let x = rx * cos(a), y = ry * sin(a) * (1 + egg * cos(a));
    out.push(toSheet(cx + x * cos(turn) - y * sin(turn), cy + x * sin(turn) + y * cos(turn)));
  }
  return out;
}

function polyShape(list) {
  return list.map(q => toSheet(q[0], q[1]));
}

// tail from the rump; ang > 0 droops, ang < 0 cocks it up
function tailShape(ang, len, wTip, forked) {
  let bx = -34, by = 2;
  let dx = -cos(ang), dy = sin(ang), nx = sin(ang), ny = cos(ang);
  let at = (along, side) => [bx + dx * along + nx * side, by + dy * along + ny * side];
  let pts;
  if (forked) {
    pts = [at(0, -10), at(len * 0.7, -wTip), at(len * 1.55, -wTip * 1.5), at(len * 1.5, -wTip * 1.1),
           at(len * 0.8, 0), at(len * 1.5, wTip * 1.1), at(len * 1.55, wTip * 1.5), at(len * 0.7, wTip), at(0, 10)];
  } else {
    pts = [at(0, -10), at(len * 0.5, -wTip * 0.8), at(len, -wTip), at(len * 1.04, 0), at(len, wTip), at(len * 0.5, wTip * 0.8), at(0, 10)];
  }
  return polyShape(pts);
}

// a whole small bird in layered washes; c holds its colours, opt its shape
function paintBird(c, opt, perchY) {
  let bl = opt.beak || 16;
  paintShape(tailShape(opt.tailAng, opt.tailLen, opt.tailW, opt.forked), c.tail, 235, 0.12, 0.4);
  paintShape(tailShape(opt.tailAng, opt.tailLen * 0.8, opt.tailW * 0.5, opt.forked), c.tail2 || c.tail, 200, 0.08, 0.4);
  paintShape(eggShape(0, 0, 54, 38, 0.16, -6), c.body, 230, 0.25, 0.9);
  paintShape(eggShape(-8, -12, 46, 24, 0.1, -12), c.back, 225, 0.2, 0.9);
  paintShape(eggShape(24, 6, 32, 30, 0.1, 20), c.breast, 240, 0.25, 0.9);
  paintShape(eggShape(28, 2, 20, 20, 0.1, 20), c.breast2 || c.breast, 215, 0.18, 0.9);
  if (c.belly) paintShape(eggShape(6, 24, 30, 12, 0, 0), c.belly, 235, 0.2, 0.9);
  paintShape(eggShape(44, -37, 31, 29, 0.05, 0), c.head, 235, 0.2, 0.9);
  if (c.cap) paintShape(eggShape(44, -53, 26, 13, 0, -8), c.cap, 235, 0.12, 0.9);
  if (c.cheek) paintShape(eggShape(48, -30, 16, 11, 0, 10), c.cheek, 240, 0.1, 0.9);
  let wl = opt.wingLen || 1;
  paintShape(polyShape([[24, -16], [8, -26], [-24, -23], [-64 * wl, -6], [-74 * wl, 2], [-40, 12], [0, 8], [20, -2]]), c.wing, 235, 0.15, 0.8);
  paintShape(polyShape([[6, -14], [-22, -15], [-62 * wl, -2], [-34, 5], [0, 2]]), c.wing2, 220, 0.1, 0.8);
  if (c.bar) paintShape(polyShape([[4, -6], [-20, -9], [-44, -4], [-22, -1]]), c.bar, 245, 0.06, 0.6);
  if (opt.extras) opt.extras();
  // beak, closed or open in song
  if (opt.sing) {
    paintShape(polyShape([[68, -44], [68 + bl, -48], [68 + bl * 0.95, -45], [70, -37]]), c.beak, 250, 0.03, 0.2);
    paintShape(polyShape([[68, -35], [68 + bl * 0.85, -27], [68 + bl * 0.8, -30], [70, -38]]), c.beak, 250, 0.03, 0.2);
  } else {
    paintShape(polyShape([[68, -43], [68 + bl * 0.6, -39], [68 + bl, -36], [68 + bl * 0.6, -33], [68, -30]]), c.beak, 250, 0.03, 0.3);
  }
  // eye: stacked dark dabs and a glint
  let e = toSheet(55, -42), er = 4.8 * pose.s;
  roundDab(e[0], e[1], er, "#120c0a", 255, 0);
  roundDab(e[0], e[1], er * 0.85, "#120c0a", 255, 0);
  roundDab(e[0], e[1], er * 0.65, "#120c0a", 255, 0);
  roundDab(e[0] + pose.face * er * 0.3, e[1] - er * 0.35, er * 0.25, "#ffffff", 240, 0);
  // legs down to the perch, toes curled round it
  for (const lx of [-6, 12]) {
    let hip = toSheet(lx, 32);
    let py = perchY(hip[0]);
    paintShape([[hip[0] - 1.6, hip[1]], [hip[0] + 1.6, hip[1]], [hip[0] + 2, py - 2], [hip[0] - 2, py - 2]], c.leg, 250, 0.02, 0);
    paintShape([[hip[0] - 9, py - 4], [hip[0], py - 5], [hip[0] + 10, py - 3], [hip[0] + 9, py + 1], [hip[0], py - 1], [hip[0] - 9, py]], c.leg, 250, 0.02, 0.4);
  }
}

// a branch along a polyline, painted in short overlapping pieces with a tapering width
function limb(path, w0, w1, ink, alpha) {
  let pts = [];
  for (let i = 0; i < path.length - 1; i++) {
    let a = path[i], b = path[i + 1];
    let n = max(1, floor(dist(a[0], a[1], b[0], b[1]) / 7));
    for (let k = 0; k < n; k++) pts.push([lerp(a[0], b[0], k / n), lerp(a[1], b[1], k / n)]);
  }
  pts.push(path[path.length - 1]);
  let side = [];
  for (let i = 0; i < pts.length; i++) {
    let p = pts[max(0, i - 1)], q = pts[min(pts.length - 1, i + 1)];
    let h = atan2(q[1] - p[1], q[0] - p[0]);
    let w = lerp(w0, w1, i / (pts.length - 1)) / 2 + 1.2 * sin(i * 57);
    side.push([sin(h) * w, -cos(h) * w]);
  }
  for (let s0 = 0; s0 < pts.length - 1; s0 += 9) {
    let s1 = min(pts.length - 1, s0 + 11);
    let left = [], right = [];
    for (let i = s0; i <= s1; i++) {
      left.push([pts[i][0] + side[i][0], pts[i][1] + side[i][1]]);
      right.unshift([pts[i][0] - side[i][0], pts[i][1] - side[i][1]]);
    }
    paintShape(left.concat(right), ink, alpha, 0.1, 0.5);
  }
}

// a pointed leaf from its stalk end, with a darker inner wash
function leafShape(x, y, dir, len, wide, ink, deep) {
  let make = (l, w) => {
    let pts = [];
    for (let t = 0; t <= 1.001; t += 0.1) pts.push([l * t, -w * sin(t * 180)]);
    for (let t = 0.9; t > 0.05; t -= 0.1) pts.push([l * t, w * 0.85 * sin(t * 180)]);
    return pts.map(([a, b]) => [x + a * cos(dir) - b * sin(dir), y + a * sin(dir) + b * cos(dir)]);
  };
  paintShape(make(len, wide), ink, 225, 0.22, 0.7);
  if (deep) paintShape(make(len * 0.7, wide * 0.45), deep, 190, 0.12, 0.7);
}

// five-petal blossom
function blossom(x, y, r, petal, heart, turn) {
  for (let k = 0; k < 5; k++) {
    let a = turn + k * 72;
    roundDab(x + r * 0.55 * cos(a), y + r * 0.55 * sin(a), r * 0.5, petal, 215, 0.2);
  }
  roundDab(x, y, r * 0.22, heart, 240, 0.05);
}

// the branch falls from the top-left corner toward the right
function boughY(x) {
  return 150 + x * 0.5;
}

function goldfinch(x, face, s) {
  pose = { x: x, y: boughY(x) - 52 * s, s: s, face: face, tilt: face > 0 ? 5 : -5 };
  paintBird({
    tail: "#2c2622", tail2: "#141010", body: "#e2c49a", back: "#b88c5a", breast: "#d8b084", breast2: "#c89a68",
    belly: "#f6ecdc", head: "#aaa298", cap: "#221c1a", wing: "#2c2622", wing2: "#181312", bar: "#f4c20a",
    beak: "#e4c2a4", leg: "#8a7264"
  }, {
    tailAng: 8, tailLen: 46, tailW: 12, beak: 15,
    extras: () => {
      paintShape(eggShape(62, -36, 14, 13, 0, 0), "#d2281e", 245, 0.1, 0.9);
      paintShape(eggShape(64, -36, 9, 8, 0, 0), "#b0141a", 220, 0.05, 0.9);
      roundDab(toSheet(-56, 0)[0], toSheet(-56, 0)[1], 3 * s, "#f8f4ea", 240, 0);
      roundDab(toSheet(-44, 2)[0], toSheet(-44, 2)[1], 3 * s, "#f8f4ea", 240, 0);
    }
  }, boughY);
}

function thistle(x, y, r) {
  paintShape([[x - r, y], [x - r * 0.7, y + r * 1.1], [x, y + r * 1.4], [x + r * 0.7, y + r * 1.1], [x + r, y]], "#7e9a58", 230, 0.15, 0.8);
  for (let k = 0; k < 7; k++) {
    let a = 200 + k * 24;
    paintShape([[x - 3, y + 2], [x + r * 1.5 * cos(a) - 3, y + r * 1.5 * sin(a)], [x + r * 1.5 * cos(a) + 3, y + r * 1.5 * sin(a)], [x + 3, y + 2]], "#b05aa8", 215, 0.2, 0.6);
  }
  roundDab(x, y - r * 0.5, r * 0.6, "#8c3a8a", 190, 0.2);
}

function draw() {
  translate(-width / 2, -height / 2);
  background(248, 244, 234);
  brush.scaleBrushes(3);
  brush.noStroke();

  paintShape([[120, 60], [330, 50], [480, 120], [470, 230], [300, 250], [140, 170]], "#eee0b8", 110, 0.45, 0.9);

  limb([[-20, 140], [80, 190], [180, 240], [300, 300], [420, 360], [520, 410], [575, 438]], 24, 6, "#8a6c50", 240);
  limb([[-20, 146], [150, 230], [330, 320], [480, 396]], 9, 3, "#4e3a2a", 200);
  // thistle spurs
  limb([[430, 365], [440, 320], [452, 284]], 6, 4, "#6f8a4c", 230);
  limb([[150, 225], [146, 190], [150, 160]], 6, 4, "#6f8a4c", 230);
  limb([[520, 410], [548, 460], [560, 500]], 5, 3, "#6f8a4c", 220);
  thistle(452, 270, 18);
  thistle(150, 148, 15);
  thistle(560, 510, 14);
  leafShape(250, 276, 120, 56, 14, "#8aa460", "#5f7e3e");
  leafShape(370, 336, 70, 50, 13, "#8aa460", "#5f7e3e");
  leafShape(90, 196, 150, 44, 12, "#9cb470", "#6a8a48");

  goldfinch(222, 1, 1.1);
  goldfinch(392, -1, 1.1);
}
