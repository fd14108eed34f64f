// honest probe: a box jelly, a small square-shouldered aqua bell with four corner stalks and long straight tentacles, written for the reward audit (not in the pool)

function setup() {
  createCanvas(600, 600, WEBGL);
  angleMode(DEGREES);
  noLoop();
}

function glaze(pts, hex, alpha, bleed, curve, grain) {
  brush.fill(hex, alpha);
  brush.fillBleed(bleed, "out");
  brush.fillTexture(grain, grain * 0.8);
  brush.beginShape(curve);
  for (let p of pts) brush.vertex(p[0], p[1]);
  brush.endShape(true);
}

// a box-shaped bell: near-vertical sides, rounded square shoulders, a slightly narrower crown
function boxBell(cx, cy, w, h) {
  let pts = [];
  for (let a = 180; a <= 360.01; a += 4) {
    let c = cos(a), s = sin(a);
    let sx = Math.sign(c) * pow(abs(c), 0.6), sy = Math.sign(s) * pow(abs(s), 0.6);
    pts.push([cx + w * sx * (1 - 0.12 * abs(sy)), cy + h * sy]);
  }
  for (let i = 1; i < 20; i++) pts.push([cx + w - 2 * w * i / 20, cy + 4 * sin(i * 9)]);
  return pts;
}

// a nearly straight tentacle falling with a slight curve, drawn crisp
function filament(x0, y0, len, bend, thick, hex, alpha) {
  let l = [], r = [];
  let n = floor(len / 8);
  for (let i = 0; i <= n; i++) {
    let t = i / n;
    let x = x0 + bend * sin(t * 120);
    let y = y0 + len * t;
    let w = max(0.8, thick * (1 - 0.5 * t));
    l.push([x - w, y]);
    r.unshift([x + w, y]);
  }
  glaze(l.concat(r), hex, alpha, 0.02, 0.4, 0);
}

function draw() {
  translate(-width / 2, -height / 2);
  background(245, 243, 238);
  brush.scaleBrushes(3);
  brush.noStroke();

  // a lilac-grey haze of water, off-centre, leaving a wide margin of paper
  let haze = [];
  for (let a = 0; a < 360; a += 10) {
    let r = 190 + 22 * sin(a * 4 + 10);
    haze.push([300 + r * 1.1 * cos(a), 320 + r * 1.3 * sin(a)]);
  }
  glaze(haze, "#a9a9cb", 110, 0.4, 0.9, 0.5);

  let cx = 300, cy = 250, w = 78, h = 118;

  // four corner stalks (pedalia), each with a tuft of long tentacles
  let corners = [-w + 8, -w / 3, w / 3, w - 8];
  for (let k = 0; k < 4; k++) {
    let x = cx + corners[k];
    let out = (k - 1.5) * 6;
    for (let j = 0; j < 4; j++) {
      let spread = out * 3.5 + (j - 1.5) * 14;
      filament(x + out + (j - 1.5) * 2.5, cy + 24, 250 + random(60), spread, 1.2, j % 2 ? "#3f7f89" : "#5b97a0", 150);
    }
    let stalk = [];
    for (let t = 0; t <= 1.001; t += 0.2) stalk.push([x - 6 + (2 + out) * t, cy - 4 + 30 * t]);
    for (let t = 1; t >= -0.001; t -= 0.2) stalk.push([x + 6 + (out - 2) * t, cy - 4 + 30 * t]);
    glaze(stalk, "#6aa9ad", 160, 0.05, 0.5, 0.3);
  }

  // bell: a wide pale aqua wash, then a deeper inner body, then the stomach hanging in it
  glaze(boxBell(cx, cy, w + 12, h + 10), "#9fcfd0", 150, 0.3, 0.8, 0.5);
  glaze(boxBell(cx + 4, cy - 6, w - 26, h - 24), "#7ab8ba", 85, 0.3, 0.8, 0.5);
  let gut = [];
  for (let a = 0; a < 360; a += 15) gut.push([cx + 15 * cos(a), cy - 40 + 24 * sin(a) * (sin(a) > 0 ? 1.4 : 1)]);
  glaze(gut, "#4f8f96", 95, 0.2, 0.8, 0.4);

  // small dark eyes (rhopalia) low on each face
  brush.fill("#253f4a", 190);
  brush.fillBleed(0.02);
  for (let k = 0; k < 3; k++) brush.circle(cx - 46 + k * 46, cy - 20, 3);

  // a reflected highlight down the left shoulder
  let hi = [];
  for (let t = 0; t <= 1.001; t += 0.1) hi.push([cx - 68 + 5 * sin(t * 180), cy - 104 + 84 * t]);
  for (let t = 1; t >= -0.001; t -= 0.1) hi.push([cx - 58 + 4 * sin(t * 180), cy - 104 + 84 * t]);
  glaze(hi, "#ffffff", 170, 0.1, 0.6, 0.3);
}
