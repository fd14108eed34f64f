// honest probe: a bloom of small pink and violet jellies rising in a diagonal drift, near ones strong and far ones faint, written for the reward audit (not in the pool)

function setup() {
  createCanvas(600, 600, WEBGL);
  angleMode(DEGREES);
  noLoop();
}

function washIn(pts, hex, alpha, bleed, curve, grain) {
  brush.fill(hex, alpha);
  brush.fillBleed(bleed, "out");
  brush.fillTexture(grain, grain * 0.8);
  brush.beginShape(curve);
  for (let p of pts) brush.vertex(p[0], p[1]);
  brush.endShape(true);
}

// a little umbrella, leaning by `lean` degrees, rim centre at (x, y)
function umbrella(x, y, r, lean, squash) {
  let pts = [];
  let turn = (u, v) => [x + u * cos(lean) - v * sin(lean), y + u * sin(lean) + v * cos(lean)];
  for (let a = 180; a <= 360.01; a += 8) pts.push(turn(r * cos(a), r * squash * sin(a)));
  for (let i = 1; i < 10; i++) {
    let t = i / 10;
    pts.push(turn(r - 2 * r * t, r * 0.12 * sin(t * 180)));
  }
  return pts;
}

// one small jelly: two bell washes, a few wavy threads trailing behind
function smallJelly(x, y, r, lean, body, core, thread, alpha) {
  for (let k = 0; k < 5; k++) {
    let u = map(k, 0, 4, -0.7, 0.7) * r;
    let len = r * (2.2 + random(1.2));
    let l = [], rr = [];
    let n = max(5, floor(len / 7));
    for (let i = 0; i <= n; i++) {
      let t = i / n;
      let uu = u * (1 - 0.2 * t) + r * 0.18 * sin(k * 60 + t * 400);
      let vv = r * 0.1 + len * t;
      let w = max(0.7, 1.3 * (1 - 0.5 * t));
      l.push([x + (uu - w) * cos(lean) - vv * sin(lean), y + (uu - w) * sin(lean) + vv * cos(lean)]);
      rr.unshift([x + (uu + w) * cos(lean) - vv * sin(lean), y + (uu + w) * sin(lean) + vv * cos(lean)]);
    }
    washIn(l.concat(rr), thread, alpha * 0.9, 0.02, 0.5, 0);
  }
  washIn(umbrella(x, y, r, lean, 0.85), body, alpha, 0.28, 0.9, 0.5);
  washIn(umbrella(x - r * 0.05 * cos(lean), y - r * 0.12, r * 0.62, lean, 0.8), core, alpha * 0.9, 0.2, 0.9, 0.4);
}

function draw() {
  translate(-width / 2, -height / 2);
  background(246, 241, 236);
  brush.scaleBrushes(3);
  brush.noStroke();

  // a broad, soft current of blue-violet water leaning from lower left to upper right
  let stream = [];
  for (let a = 0; a < 360; a += 10) {
    let r = 1 + 0.08 * sin(a * 3 + 20);
    let u = 330 * r * cos(a), v = 150 * r * sin(a);
    stream.push([300 + u * cos(-38) - v * sin(-38), 300 + u * sin(-38) + v * cos(-38)]);
  }
  washIn(stream, "#aeb0d8", 110, 0.45, 0.9, 0.5);

  // the bloom: far ones small and faint, near ones larger and deeper; all leaning with the current
  let swarm = [
    [500, 95, 24, 28, 110], [440, 160, 20, 32, 105], [535, 195, 18, 24, 100], [395, 90, 16, 30, 95],
    [370, 215, 40, 26, 140], [285, 300, 30, 30, 130], [470, 275, 28, 22, 130],
    [190, 360, 58, 24, 170], [345, 385, 34, 32, 150], [100, 470, 40, 20, 160], [255, 470, 24, 28, 140]
  ];
  let bodies = ["#d67fa8", "#a77ccc", "#e0918a"];
  let cores = ["#a8436f", "#6a4a9a", "#b9575a"];
  for (let i = 0; i < swarm.length; i++) {
    let s = swarm[i];
    smallJelly(s[0], s[1], s[2], s[3], bodies[i % 3], cores[i % 3], "#8b5a8f", s[4]);
  }

  // tiny bright motes among them
  brush.fill("#ffffff", 180);
  brush.fillBleed(0.05);
  for (let i = 0; i < 12; i++) brush.circle(random(80, 560), random(60, 520), random(1.5, 3));
}
