// starter pool: other-mountains
// another subject than a hibiscus (a mountains), rated nope (issue 33); written for the audit, not by compose.py

function setup() {
  createCanvas(600, 600, WEBGL);
  angleMode(DEGREES);
  noLoop();
}

function wash(ink, alpha, bleed, curve, pts) {
  brush.fill(ink, alpha);
  brush.fillBleed(bleed);
  brush.fillTexture(0.6, 0.5);
  brush.beginShape(curve);
  for (let p of pts) brush.vertex(p[0], p[1]);
  brush.endShape(true);
}

// a ridge line through the given peaks [x, y], closed down to `base`
function ridge(peaks, base, jag) {
  let pts = [];
  for (let i = 0; i < peaks.length - 1; i++) {
    let a = peaks[i], b = peaks[i + 1];
    for (let k = 0; k < 4; k++) {
      let t = k / 4;
      pts.push([lerp(a[0], b[0], t), lerp(a[1], b[1], t) + (k ? random(-jag, jag) : 0)]);
    }
  }
  pts.push(peaks[peaks.length - 1]);
  pts.push([peaks[peaks.length - 1][0], base], [peaks[0][0], base]);
  return pts;
}

// snow cap: a small ragged triangle hanging from a peak
function snow(px, py, w, h) {
  wash("#fbfaf7", 250, 0.02, 0.1, [[px, py - 2], [px + w, py + h * 0.8], [px + w * 0.5, py + h * 0.6],
    [px + w * 0.1, py + h], [px - w * 0.4, py + h * 0.7], [px - w * 0.8, py + h * 0.9]]);
}

// a little fir: stacked triangles on a stick
function fir(x, y, h) {
  wash("#2d4a3e", 225, 0.03, 0.05, [[x - 1, y], [x + 1, y], [x + 1, y - h * 0.2], [x - 1, y - h * 0.2]]);
  for (let k = 0; k < 3; k++) {
    let yy = y - h * 0.15 - k * h * 0.25, w = h * (0.32 - k * 0.08);
    wash("#2f5646", 220, 0.03, 0.05, [[x - w, yy], [x + w, yy], [x, yy - h * 0.45]]);
  }
}

function draw() {
  translate(-width / 2, -height / 2);
  background(247, 244, 240);
  brush.scaleBrushes(3);
  brush.noStroke();

  // evening glow behind the range
  wash("#f2c9b4", 80, 0.5, 0.9, [[110, 160], [300, 130], [500, 160], [510, 230], [300, 240], [100, 230]]);

  // far range: pale violet
  wash("#a29dcb", 200, 0.15, 0.1, ridge([[70, 330], [150, 250], [215, 285], [300, 190], [380, 270], [450, 230], [530, 320]], 360, 6));
  snow(300, 190, 32, 38);
  snow(450, 230, 22, 24);
  snow(150, 250, 20, 24);

  // near range: deeper blue, shadowed left faces
  wash("#5a74a6", 230, 0.12, 0.1, ridge([[90, 380], [180, 300], [250, 335], [340, 265], [430, 330], [510, 380]], 400, 5));
  wash("#4d6592", 140, 0.15, 0.1, [[180, 300], [205, 330], [225, 395], [120, 395]]);
  wash("#4d6592", 140, 0.15, 0.1, [[340, 265], [320, 320], [300, 395], [270, 395], [262, 340]]);
  snow(340, 265, 26, 28);

  // band of mist along the valley floor
  wash("#f4f1ec", 200, 0.4, 0.9, [[80, 372], [300, 360], [520, 372], [520, 388], [300, 395], [80, 390]]);

  // still lake reflecting the sky, with a couple of streaks
  wash("#a9c4d8", 150, 0.25, 0.6, [[110, 405], [300, 398], [490, 405], [460, 440], [300, 448], [140, 440]]);
  wash("#ffffff", 200, 0.05, 0.1, [[200, 418], [300, 416], [300, 419], [200, 421]]);
  wash("#ffffff", 200, 0.05, 0.1, [[330, 430], [420, 428], [420, 431], [330, 433]]);

  // foreground shore and firs on the right
  wash("#7f9a62", 170, 0.2, 0.6, [[360, 450], [440, 432], [520, 440], [530, 470], [370, 470]]);
  for (let i = 0; i < 5; i++) fir(395 + i * 24 + random(-5, 5), 458, 46 + 18 * sin(i * 70));

  // two birds over the peaks
  for (let b of [[230, 170], [255, 158]]) {
    wash("#3b3b48", 200, 0.02, 0.3, [[b[0] - 9, b[1] - 3], [b[0], b[1]], [b[0] + 9, b[1] - 3], [b[0], b[1] + 2]]);
  }
}
