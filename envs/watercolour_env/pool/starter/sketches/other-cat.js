// starter pool: other-cat
// another subject than a hibiscus (a cat), rated nope (issue 33); written for the audit, not by compose.py

function setup() {
  createCanvas(600, 600, WEBGL);
  angleMode(DEGREES);
  noLoop();
}

function shade(ink, alpha, bleed, curve, pts) {
  brush.fill(ink, alpha);
  brush.fillBleed(bleed);
  brush.fillTexture(0.5, 0.45);
  brush.beginShape(curve);
  for (let i = 0; i < pts.length; i++) brush.vertex(pts[i][0], pts[i][1]);
  brush.endShape(true);
}

function oval(cx, cy, rx, ry, step) {
  let pts = [];
  for (let a = 0; a < 360; a += step) pts.push([cx + rx * cos(a), cy + ry * sin(a)]);
  return pts;
}

// a thin curved stroke made as a narrow closed band
function band(x0, y0, x1, y1, bow, w, ink, alpha) {
  let pts = [], back = [];
  for (let i = 0; i <= 6; i++) {
    let t = i / 6, b = bow * sin(t * 180);
    let x = lerp(x0, x1, t), y = lerp(y0, y1, t) + b;
    let ww = w * sin(t * 180) + 0.6;
    pts.push([x, y - ww]);
    back.unshift([x, y + ww]);
  }
  shade(ink, alpha, 0.03, 0.5, pts.concat(back));
}

function draw() {
  translate(-width / 2, -height / 2);
  background(242, 238, 232);
  brush.scaleBrushes(3);
  brush.noStroke();

  // soft shadow on the floor
  shade("#c3bccb", 120, 0.3, 0.9, oval(320, 470, 150, 22, 30));

  // tail: a thick stroke sweeping out to the right and curling up at the tip
  let outer = [], inner = [];
  for (let i = 0; i <= 12; i++) {
    let t = i / 12, a = 200 - t * 230;
    let cx = 400 + 55 * cos(a) + t * 20, cy = 400 + 60 * sin(a) * (1 - 0.3 * t) + 40;
    let w = 13 - 4 * t;
    outer.push([cx + w * cos(a), cy + w * sin(a)]);
    inner.unshift([cx - w * cos(a), cy - w * sin(a)]);
  }
  shade("#6c7079", 220, 0.08, 0.6, outer.concat(inner));

  // body: a rounded pear, grey with a pale chest
  shade("#737882", 230, 0.12, 0.85, [[260, 270], [340, 270], [385, 340], [400, 420], [380, 465], [300, 472], [220, 465], [200, 420], [215, 340]]);
  shade("#e9e4dc", 210, 0.2, 0.9, [[276, 300], [324, 300], [340, 380], [300, 420], [260, 380]]);
  for (let k = 0; k < 3; k++) {
    band(222 + k * 6, 330 + k * 34, 262, 350 + k * 34, -6, 5, "#464a52", 200);
    band(378 - k * 6, 330 + k * 34, 338, 350 + k * 34, -6, 5, "#464a52", 200);
  }

  // front paws
  for (let px of [272, 328]) {
    shade("#5d616a", 160, 0.05, 0.9, oval(px, 462, 25, 15, 30));
    shade("#f4f0ea", 240, 0.05, 0.9, oval(px, 460, 21, 12, 30));
    band(px - 6, 456, px - 6, 470, 0, 1.2, "#8a8e96", 160);
    band(px + 6, 456, px + 6, 470, 0, 1.2, "#8a8e96", 160);
  }

  // ears, then head with pink inner ears
  shade("#6d717b", 230, 0.05, 0.15, [[236, 215], [238, 138], [290, 190]]);
  shade("#6d717b", 230, 0.05, 0.15, [[364, 215], [362, 138], [310, 190]]);
  shade("#e7b3b0", 170, 0.05, 0.2, [[246, 200], [246, 156], [278, 190]]);
  shade("#e7b3b0", 170, 0.05, 0.2, [[354, 200], [354, 156], [322, 190]]);
  shade("#7a7f89", 235, 0.1, 0.9, oval(300, 235, 78, 64, 20));
  shade("#ece7df", 200, 0.15, 0.9, oval(300, 268, 40, 28, 30));

  // forehead tabby marks
  band(300, 176, 300, 208, 0, 4, "#41454d", 210);
  band(284, 180, 288, 206, 2, 3, "#41454d", 190);
  band(316, 180, 312, 206, -2, 3, "#41454d", 190);

  // eyes: green-gold with dark slit pupils
  for (let side of [-1, 1]) {
    let ex = 300 + side * 30;
    shade("#b7c35a", 240, 0.03, 0.9, oval(ex, 236, 15, 11, 30));
    shade("#1e1f22", 240, 0.01, 0.6, [[ex - 2, 227], [ex + 2, 227], [ex + 3, 236], [ex + 2, 245], [ex - 2, 245], [ex - 3, 236]]);
  }

  // nose, mouth and whiskers
  shade("#d98a8c", 240, 0.02, 0.3, [[291, 258], [309, 258], [300, 268]]);
  band(300, 268, 288, 278, 3, 1.5, "#4a4d55", 190);
  band(300, 268, 312, 278, 3, 1.5, "#4a4d55", 190);
  for (let w = 0; w < 3; w++) {
    band(276, 266 + w * 7, 200, 254 + w * 14, -4, 1.2, "#3f4249", 150);
    band(324, 266 + w * 7, 400, 254 + w * 14, -4, 1.2, "#3f4249", 150);
  }
}
