// honest probe: two yellow hibiscus blooms with maroon eyes and leaves, written for the reward audit (not in the pool)

function setup() {
  createCanvas(600, 600, WEBGL);
  angleMode(DEGREES);
  noLoop();
}

// queue of shapes: each item is {ink, a, ring} where ring is a list of points
let queue = [];

function addShape(ink, a, ring) {
  queue.push({ ink: ink, a: a, ring: ring });
}

// a fan-shaped petal: narrow at the base, broad frilly rim
function fanPetal(ox, oy, heading, reach, spread) {
  let ring = [[ox, oy]];
  for (let s = -spread; s <= spread; s += spread / 5) {
    let q = s / spread;
    let rim = reach * (0.93 + 0.07 * cos(s * 9)) * (1 - 0.38 * q * q * q * q);
    ring.push([ox + rim * cos(heading + s), oy + rim * sin(heading + s)]);
  }
  return ring;
}

function heartLeaf(bx, by, heading, size) {
  let ring = [];
  for (let u = 0; u <= 360; u += 20) {
    let rx = size * (0.55 * sin(u)) * (1 + 0.05 * ((u / 20) % 2));
    let ry = size * (0.5 - 0.5 * cos(u)) ;
    let along = ry, side = rx * (1 - ry / (size * 1.2));
    ring.push([bx + along * cos(heading) - side * sin(heading), by + along * sin(heading) + side * cos(heading)]);
  }
  return ring;
}

function queueBloom(cx, cy, size, spin) {
  for (let k = 0; k < 5; k++) {
    let h = spin + k * 72;
    addShape("#f7d23e", 210, fanPetal(cx, cy, h, size, 39));
  }
  for (let k = 0; k < 5; k++) {
    let h = spin + k * 72 + 10;
    addShape("#f0b323", 150, fanPetal(cx, cy, h, size * 0.7, 26));
  }
  for (let k = 0; k < 5; k++) {
    addShape("#7c1d2b", 200, fanPetal(cx, cy, spin + k * 72, size * 0.3, 40));
  }
  addShape("#6a1422", 210, fanPetal(cx, cy, spin, size * 0.12, 180));
  // column and anthers
  let tx = cx + size * 0.6 * cos(spin - 50), ty = cy + size * 0.6 * sin(spin - 50);
  addShape("#c98a2a", 230, [[cx - 3, cy], [tx - 3, ty], [tx + 3, ty + 3], [cx + 3, cy + 3]]);
  for (let j = 0; j < 8; j++) {
    let f = random(0.6, 1);
    let px = lerp(cx, tx, f) + random(-7, 7), py = lerp(cy, ty, f) + random(-7, 7);
    addShape("#e8891b", 240, [[px - 3, py - 3], [px + 3, py - 3], [px + 3, py + 3], [px - 3, py + 3]]);
  }
}

function draw() {
  translate(-width / 2, -height / 2);
  background(244, 243, 236);
  brush.scaleBrushes(3);
  brush.noStroke();

  addShape("#4c7a34", 200, heartLeaf(196, 445, 110, 140));
  addShape("#3c6a2c", 200, heartLeaf(482, 168, -20, 110));
  addShape("#5f8d3f", 190, heartLeaf(310, 400, 30, 125));
  queueBloom(220, 360, 135, -80);
  queueBloom(420, 190, 90, -60);

  for (const item of queue) {
    brush.fill(item.ink, item.a);
    brush.fillBleed(item.a > 220 ? 0.04 : 0.22);
    brush.fillTexture(0.5, 0.4);
    brush.beginShape(0.75);
    for (const pt of item.ring) brush.vertex(pt[0], pt[1]);
    brush.endShape(true);
  }
}
