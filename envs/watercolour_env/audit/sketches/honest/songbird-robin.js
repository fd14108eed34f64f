// honest probe: a small robin perched on a bare branch, written for the reward audit (not in the pool)

var perch = { x0: 40, y0: 420, x1: 560, y1: 360 };

function setup() {
  createCanvas(600, 600, WEBGL);
  angleMode(DEGREES);
  noLoop();
}

function branchY(x) {
  return map(x, perch.x0, perch.x1, perch.y0, perch.y1) + 8 * sin(x * 1.3);
}

function shape(list, tone, strength, wet, soft) {
  brush.fill(tone, strength);
  brush.fillBleed(wet);
  brush.fillTexture(0.5, 0.45);
  brush.beginShape(soft);
  for (var i = 0; i < list.length; i++) brush.vertex(list[i][0], list[i][1]);
  brush.endShape(true);
}

function dab(x, y, r, tone, strength, wet) {
  if (r < 8) {
    brush.fill(tone, strength);
    brush.fillBleed(wet);
    brush.circle(x, y, r);
    return;
  }
  var ring = [];
  for (var a = 0; a < 360; a += 30) ring.push([x + r * cos(a), y + r * 0.92 * sin(a)]);
  shape(ring, tone, strength, wet, 0.9);
}

function draw() {
  translate(-width / 2, -height / 2);
  background(245, 242, 235);
  brush.scaleBrushes(3);
  brush.noStroke();

  // soft background wash so the bird sits in some air
  shape([[120, 120], [470, 100], [520, 300], [420, 470], [160, 480], [90, 300]], "#d5e3e8", 110, 0.4, 0.9);

  // branch: thick at the left, thinning to the right, plus a twig going up
  for (var seg = perch.x0; seg < perch.x1; seg += 130) {
    var upperEdge = [], under = [];
    for (var x = seg; x <= min(seg + 140, perch.x1); x += 35) {
      var thick = map(x, perch.x0, perch.x1, 12, 4);
      upperEdge.push([x, branchY(x) - thick]);
      under.unshift([x, branchY(x) + thick]);
    }
    shape(upperEdge.concat(under), "#6a4a33", 225, 0.03, 0.6);
  }
  shape([[420, branchY(420) - 4], [460, 300], [500, 250], [506, 254], [468, 306], [432, branchY(432) - 2]], "#6a4a33", 220, 0.04, 0.5);
  // two small leaves on the twig
  shape([[498, 254], [512, 240], [540, 222], [562, 228], [544, 248], [514, 258]], "#6f9a4e", 215, 0.1, 0.7);
  shape([[466, 300], [456, 290], [440, 268], [432, 248], [452, 262], [466, 284]], "#587f3d", 215, 0.1, 0.7);

  // bird: body centre sits just above the branch
  var bx = 280, by = branchY(280) - 62;
  // tail angling down behind the branch
  shape([[bx + 40, by + 10], [bx + 110, by + 50], [bx + 118, by + 38], [bx + 52, by - 6]], "#4f3d2e", 230, 0.06, 0.3);
  // body and back
  dab(bx, by, 54, "#7d4620", 250, 0.1);
  shape([[bx - 30, by - 40], [bx + 20, by - 50], [bx + 60, by - 10], [bx + 48, by + 18], [bx + 5, by - 12]], "#4a2c16", 220, 0.1, 0.8);
  // orange breast
  shape([[bx - 50, by - 20], [bx - 20, by - 8], [bx - 4, by + 22], [bx - 20, by + 46], [bx - 48, by + 26], [bx - 58, by]], "#e06a2c", 230, 0.12, 0.9);
  dab(bx - 30, by + 10, 24, "#f09a55", 140, 0.2);
  // head
  dab(bx - 38, by - 48, 32, "#5a3518", 250, 0.1);
  dab(bx - 52, by - 38, 14, "#e0773a", 190, 0.1);
  // wing with a couple of darker feather edges
  shape([[bx - 6, by - 20], [bx + 40, by - 26], [bx + 78, by + 4], [bx + 30, by + 20]], "#4a3526", 200, 0.06, 0.7);
  shape([[bx + 20, by - 4], [bx + 70, by + 4], [bx + 26, by + 10]], "#3f3226", 160, 0.03, 0.4);
  // beak and eye
  shape([[bx - 66, by - 54], [bx - 90, by - 48], [bx - 66, by - 42]], "#3a2f28", 240, 0.01, 0.1);
  dab(bx - 50, by - 54, 5, "#1e1a17", 250, 0.01);
  dab(bx - 51, by - 56, 1.5, "#ffffff", 230, 0.0);
  // legs gripping the branch
  shape([[bx - 12, by + 42], [bx - 14, branchY(bx) - 4], [bx - 10, branchY(bx) - 4], [bx - 8, by + 42]], "#4a3a30", 230, 0.01, 0.1);
  shape([[bx + 10, by + 44], [bx + 12, branchY(bx) - 6], [bx + 16, branchY(bx) - 6], [bx + 14, by + 44]], "#4a3a30", 230, 0.01, 0.1);
}
