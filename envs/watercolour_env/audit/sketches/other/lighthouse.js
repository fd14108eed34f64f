// other subject: lighthouse, written for the reward audit (not in the pool)

function setup() {
  createCanvas(600, 600, WEBGL);
  angleMode(DEGREES);
  noLoop();
}

let tower = { x: 330, base: 440, peak: 200, wBase: 40, wTop: 25 };

function stain(ink, alpha, bleed, curve, pts) {
  brush.fill(ink, alpha);
  brush.fillBleed(bleed);
  brush.fillTexture(0.55, 0.45);
  brush.beginShape(curve);
  for (let i = 0; i < pts.length; i++) brush.vertex(pts[i][0], pts[i][1]);
  brush.endShape(true);
}

// half-width of the tapering tower at height y
function halfW(y) {
  return map(y, tower.base, tower.peak, tower.wBase, tower.wTop);
}

// a horizontal slice of the tower between y0 (lower) and y1 (upper)
function slice(y0, y1, ink, alpha) {
  let x = tower.x;
  stain(ink, alpha, 0.04, 0.05, [[x - halfW(y0), y0], [x + halfW(y0), y0], [x + halfW(y1), y1], [x - halfW(y1), y1]]);
}

function draw() {
  translate(-width / 2, -height / 2);
  background(243, 241, 236);
  brush.scaleBrushes(3);
  brush.noStroke();

  // pale sky glow behind the lantern
  stain("#f6e3a6", 90, 0.5, 0.9, [[260, 120], [400, 120], [420, 200], [330, 230], [240, 200]]);

  // the sea: bands of blue-green that fade out at the edges
  stain("#7fa9c0", 150, 0.3, 0.6, [[70, 440], [300, 430], [540, 440], [520, 470], [300, 482], [90, 470]]);
  stain("#4f7f9c", 120, 0.25, 0.6, [[120, 470], [320, 468], [500, 474], [460, 500], [140, 498]]);
  for (let i = 0; i < 6; i++) {
    let x = 100 + i * 72, y = 452 + 22 * (i % 2);
    stain("#ffffff", 210, 0.05, 0.3, [[x, y], [x + 30, y - 2], [x + 30, y + 1], [x, y + 2]]);
  }

  // tower: white body with three red bands, and a shaded right side
  slice(440, 200, "#f0ece4", 220);
  for (let b = 0; b < 3; b++) slice(420 - b * 80, 380 - b * 80, "#c83a32", 235);
  let x = tower.x;
  stain("#8d8aa0", 90, 0.1, 0.05, [[x + 8, 440], [x + halfW(440), 440], [x + halfW(200), 200], [x + 6, 200]]);

  // door and two small windows
  stain("#3e4a5c", 230, 0.02, 0.1, [[x - 8, 440], [x + 8, 440], [x + 8, 418], [x, 412], [x - 8, 418]]);
  stain("#3e4a5c", 220, 0.02, 0.1, [[x - 5, 350], [x + 5, 350], [x + 5, 336], [x - 5, 336]]);
  stain("#3e4a5c", 220, 0.02, 0.1, [[x - 4, 270], [x + 4, 270], [x + 4, 258], [x - 4, 258]]);

  // gallery, lantern glass with its warm light, and a red cap
  stain("#2f3440", 235, 0.02, 0.05, [[x - 36, 200], [x + 36, 200], [x + 36, 192], [x - 36, 192]]);
  stain("#2f3440", 200, 0.02, 0.05, [[x - 30, 192], [x + 30, 192], [x + 30, 184], [x - 30, 184]]);
  stain("#f3c74d", 240, 0.08, 0.1, [[x - 20, 184], [x + 20, 184], [x + 20, 152], [x - 20, 152]]);
  stain("#2f3440", 230, 0.01, 0.05, [[x - 2, 184], [x + 2, 184], [x + 2, 152], [x - 2, 152]]);
  stain("#b8322c", 240, 0.03, 0.3, [[x - 26, 152], [x + 26, 152], [x + 12, 136], [x, 128], [x - 12, 136]]);
  stain("#2f3440", 240, 0.01, 0.1, [[x - 2, 130], [x + 2, 130], [x + 2, 116], [x - 2, 116]]);

  // beams of light reaching out either side
  stain("#f7dc82", 90, 0.2, 0.1, [[x + 20, 160], [x + 200, 130], [x + 200, 190], [x + 20, 176]]);
  stain("#f7dc82", 90, 0.2, 0.1, [[x - 20, 160], [x - 210, 140], [x - 210, 196], [x - 20, 176]]);

  // rocky headland the tower stands on
  stain("#7b6e62", 225, 0.1, 0.4, [[240, 470], [262, 440], [300, 432], [372, 434], [410, 450], [430, 478], [240, 480]]);
  stain("#5a5048", 170, 0.1, 0.4, [[330, 452], [380, 440], [420, 460], [430, 480], [340, 480]]);
  stain("#9c8f80", 200, 0.1, 0.4, [[210, 482], [236, 466], [262, 470], [272, 488], [214, 490]]);
  stain("#e9e4da", 160, 0.2, 0.6, [[200, 488], [300, 480], [440, 482], [470, 492], [300, 496], [210, 496]]);

  // a few gulls wheeling around the light
  for (let g of [[200, 250, 1], [235, 225, 0.8], [450, 235, 0.9]]) {
    let [gx, gy, s] = g;
    stain("#3a3f4a", 210, 0.02, 0.3, [[gx - 14 * s, gy - 2], [gx - 6 * s, gy - 7 * s], [gx, gy], [gx + 6 * s, gy - 7 * s],
      [gx + 14 * s, gy - 2], [gx + 6 * s, gy - 4 * s], [gx, gy + 3], [gx - 6 * s, gy - 4 * s]]);
  }
}
