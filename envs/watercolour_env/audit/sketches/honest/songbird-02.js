// honest probe: a blue tit on a spur of an upright catkin twig, facing the stem, written for the reward audit (not in the pool)

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

// spur the bird sits on: from the stem out to the left
function spurY(x) {
  return map(x, 378, 150, 372, 344);
}

function draw() {
  translate(-width / 2, -height / 2);
  background(243, 244, 238);
  brush.scaleBrushes(3);
  brush.noStroke();

  // cool pale wash behind, loose
  paintShape([[60, 420], [200, 380], [330, 400], [330, 470], [180, 500], [50, 480]], "#d4e2c4", 90, 0.45, 0.8);
  paintShape([[150, 150], [300, 110], [330, 200], [250, 250], [140, 230]], "#c4d8e6", 90, 0.45, 0.9);

  // the upright twig, bottom to top, and its spur
  limb([[395, 620], [388, 520], [378, 420], [372, 330], [360, 230], [352, 140], [356, 60]], 22, 6, "#7b6a5a", 240);
  limb([[395, 620], [384, 480], [372, 330], [358, 180]], 9, 3, "#4a3e34", 200);
  limb([[380, 376], [320, 366], [250, 356], [160, 344], [140, 340]], 13, 5, "#7b6a5a", 240);
  limb([[360, 262], [410, 236], [455, 222]], 8, 3, "#7b6a5a", 230);

  // hanging catkins
  let cats = [[368, 150], [455, 224], [142, 344], [382, 470]];
  for (const k of cats) {
    for (let i = 0; i < 8; i++) roundDab(k[0] + 3 * sin(i * 50), k[1] + 6 + i * 7, 5.5 - i * 0.3, i % 2 ? "#c6b43a" : "#a8a030", 225, 0.1);
  }
  leafShape(352, 238, 200, 44, 12, "#8fae5a", "#5f8a3a");
  leafShape(382, 420, -30, 48, 13, "#8fae5a", "#5f8a3a");
  leafShape(200, 352, 100, 40, 11, "#a2bc68", "#6a9440");

  // blue tit facing the stem
  pose = { x: 262, y: 300, s: 1.2, face: 1, tilt: 4 };
  let colours = {
    tail: "#3f76b8", tail2: "#27518a", body: "#e8d45a", back: "#8ea64c", breast: "#f2c416", breast2: "#e6aa10",
    belly: "#f4e8a0", head: "#c8d0d6", cap: "#2e72c4", cheek: "#fbfaf6", wing: "#4a86c8", wing2: "#285c9c",
    bar: "#f6f4ee", beak: "#2a2a30", leg: "#5a6478"
  };
  paintBird(colours, {
    tailAng: 8, tailLen: 46, tailW: 11, beak: 12,
    extras: () => {
      // dark eye stripe, collar and bib
      paintShape(polyShape([[70, -41], [56, -45], [36, -42], [18, -36], [20, -32], [40, -38], [56, -39]]), "#1e3a6e", 240, 0.05, 0.6);
      paintShape(polyShape([[18, -30], [30, -18], [50, -12], [62, -14], [66, -20], [52, -18], [34, -22], [22, -34]]), "#1e3a6e", 225, 0.06, 0.7);
      paintShape(eggShape(60, -14, 7, 6, 0, 0), "#1e2e4e", 235, 0.05, 0.9);
    }
  }, spurY);
}
