// honest probe: two barn swallows facing left on a slender branch, sky above and meadow below, written for the reward audit (not in the pool)

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

// a slender branch across the upper third, thinning to the right
function wireY(x) {
  return 250 - x * 0.05 + 6 * sin(x * 0.5);
}

function swallow(x, face) {
  pose = { x: x, y: wireY(x) - 46, s: 1.05, face: face, tilt: face > 0 ? -4 : 4 };
  paintBird({
    tail: "#26386e", tail2: "#17244e", body: "#dcc8ac", back: "#2a3f7a", breast: "#e4d0b4", breast2: "#d8bc9c",
    belly: "#efe2cc", head: "#2c4280", cap: "#1c2c5e", cheek: "#c4a090", wing: "#2a3c74", wing2: "#18264e",
    beak: "#1a1a1e", leg: "#3a3434"
  }, {
    tailAng: 10, tailLen: 44, tailW: 8, forked: true, wingLen: 1.4, beak: 10,
    extras: () => {
      // rust forehead and throat under a dark breast band
      paintShape(eggShape(60, -22, 11, 8, 0, 10), "#b4401e", 235, 0.08, 0.9);
      paintShape(polyShape([[58, -12], [40, -8], [22, -12], [24, -17], [42, -13], [56, -17]]), "#2a3c74", 215, 0.08, 0.7);
    }
  }, wireY);
}

function draw() {
  translate(-width / 2, -height / 2);
  background(244, 243, 238);
  brush.scaleBrushes(3);
  brush.noStroke();

  // summer sky: soft blue washes and a paler cloud band, all below and around the perch
  paintShape([[-20, 60], [150, 40], [330, 70], [520, 40], [620, 60], [620, 190], [400, 170], [180, 200], [-20, 180]], "#b8d4e8", 110, 0.5, 0.8);
  paintShape([[-20, 470], [200, 450], [420, 480], [620, 460], [620, 620], [-20, 620]], "#c8d6a8", 110, 0.4, 0.7);
  paintShape([[-20, 520], [260, 510], [620, 530], [620, 620], [-20, 620]], "#a8c088", 100, 0.4, 0.7);

  let path = [];
  for (let x = -20; x <= 500; x += 40) path.push([x, wireY(x)]);
  path.push([530, wireY(500) - 14]);
  limb(path, 16, 4, "#6a5444", 240);
  limb(path.slice(0, 8), 6, 3, "#3a2c22", 200);
  limb([[120, wireY(120)], [150, 200], [166, 168]], 6, 3, "#6a5444", 230);
  leafShape(166, 170, -70, 38, 11, "#8aa464", "#5a7a40");
  leafShape(150, 200, 200, 34, 10, "#9ab470", null);
  leafShape(520, 226, -30, 36, 10, "#8aa464", "#5a7a40");
  leafShape(540, 236, 20, 32, 9, "#9ab470", null);
  leafShape(60, 254, 120, 34, 10, "#8aa464", null);

  swallow(200, -1);
  swallow(420, -1);
}
