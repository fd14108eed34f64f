// starter pool: other-teapot
// another subject than a hibiscus (a teapot), rated nope (issue 33); written for the audit, not by compose.py

function setup() {
  createCanvas(600, 600, WEBGL);
  angleMode(DEGREES);
  noLoop();
}

function glaze(ink, alpha, bleed, curve, pts) {
  brush.fill(ink, alpha);
  brush.fillBleed(bleed);
  brush.fillTexture(0.55, 0.5);
  brush.beginShape(curve);
  pts.forEach(([x, y]) => brush.vertex(x, y));
  brush.endShape(true);
}

function ellipsePts(cx, cy, rx, ry, from, to, step) {
  let out = [];
  for (let a = from; a <= to; a += step) out.push([cx + rx * cos(a), cy + ry * sin(a)]);
  return out;
}

// a thick ring segment between two ellipses, for handles and rims
function ring(cx, cy, rx, ry, w, from, to) {
  return ellipsePts(cx, cy, rx + w, ry + w, from, to, 10).concat(ellipsePts(cx, cy, rx - w, ry - w, from, to, 10).reverse());
}

function draw() {
  translate(-width / 2, -height / 2);
  background(246, 242, 236);
  brush.scaleBrushes(3);
  brush.noStroke();

  // warm table shadow under pot and cup
  glaze("#cdbfae", 120, 0.3, 0.9, ellipsePts(300, 432, 200, 24, 0, 350, 30));

  // handle behind the body on the left
  glaze("#2f6f78", 225, 0.06, 0.6, ring(170, 330, 42, 56, 11, 90, 270));

  // spout: a tapering tube rising to the right
  glaze("#357c84", 230, 0.06, 0.5, [[350, 365], [392, 330], [420, 290], [446, 262], [462, 258], [456, 272],
                                    [432, 306], [406, 350], [372, 395]]);

  // body: teal glaze, darker belly shadow, bright highlight on the shoulder
  let belly = ellipsePts(270, 345, 115, 85, 0, 350, 15);
  glaze("#3f8b91", 235, 0.1, 0.9, belly);
  glaze("#1f545d", 140, 0.25, 0.9, ellipsePts(290, 375, 95, 50, 0, 350, 20));
  glaze("#dff0ee", 190, 0.2, 0.9, ellipsePts(225, 300, 30, 14, 0, 350, 30));

  // a band of little white flowers painted on the glaze
  for (let i = 0; i < 7; i++) {
    let a = 150 - i * 20, x = 270 + 100 * cos(a), y = 318 + 16 * sin(a);
    brush.fill("#f4f1e8", 220);
    brush.fillBleed(0.05);
    brush.fillTexture(0, 0);
    for (let p = 0; p < 5; p++) brush.circle(x + 7 * cos(p * 72), y + 7 * sin(p * 72), 5);
    brush.fill("#e2b94a", 230);
    brush.circle(x, y, 3);
  }

  // lid with its rim and knob
  glaze("#2d6870", 230, 0.05, 0.7, ellipsePts(270, 266, 58, 12, 0, 350, 30));
  glaze("#3f8b91", 230, 0.08, 0.8, ellipsePts(270, 258, 46, 24, 180, 360, 20).concat([[270, 266]]));
  glaze("#2a5f66", 235, 0.05, 0.9, ellipsePts(270, 228, 13, 10, 0, 350, 30));

  // teacup on its saucer, to the right of the pot
  glaze("#d9d2c6", 200, 0.08, 0.9, ellipsePts(485, 428, 62, 12, 0, 350, 30));
  let cup = [[440, 380], [530, 380], [522, 410], [505, 428], [465, 428], [448, 410]];
  glaze("#cfd8da", 230, 0.05, 0.4, cup);
  glaze("#9fb0b4", 150, 0.15, 0.4, [[500, 382], [530, 380], [522, 410], [505, 428], [490, 428]]);
  glaze("#3f8b91", 200, 0.05, 0.6, [[444, 396], [526, 396], [522, 406], [448, 406]]);
  glaze("#2f6f78", 225, 0.05, 0.6, ring(535, 400, 10, 12, 4, -90, 90));
  glaze("#a5672f", 220, 0.05, 0.9, ellipsePts(485, 381, 44, 7, 0, 350, 30));

  // wisps of steam from the spout and cup
  brush.fill("#b9c4c8", 100);
  brush.fillBleed(0.35);
  brush.fillTexture(0.4, 0.4);
  for (let i = 0; i < 5; i++) {
    brush.circle(466 + 12 * sin(i * 80), 238 - i * 22, 7 + i * 2);
    brush.circle(488 + 10 * sin(i * 90 + 40), 360 - i * 22, 6 + i * 2);
  }
}
