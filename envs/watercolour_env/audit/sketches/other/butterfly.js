// other subject: butterfly, written for the reward audit (not in the pool)

function setup() {
  createCanvas(600, 600, WEBGL);
  angleMode(DEGREES);
  noLoop();
}

const CX = 300, CY = 300;
// right-hand wings relative to the body; the left side is the mirror image
const FORE = [[4, -12], [40, -62], [100, -98], [160, -106], [180, -92], [168, -44], [136, -6], [72, 10], [8, 4]];
const HIND = [[6, 6], [70, 14], [122, 32], [136, 72], [114, 118], [72, 138], [32, 122], [6, 40]];

function puddle(pts, ink, alpha, bleed, curve) {
  brush.fill(ink, alpha);
  brush.fillBleed(bleed);
  brush.fillTexture(0.5, 0.5);
  brush.beginShape(curve);
  for (let p of pts) brush.vertex(p[0], p[1]);
  brush.endShape(true);
}

// wing outline placed on the page, shrunk toward its own centroid by k
function onPage(shape, side, k) {
  let mx = 0, my = 0;
  for (let p of shape) { mx += p[0] / shape.length; my += p[1] / shape.length; }
  return shape.map((p) => [CX + side * (mx + (p[0] - mx) * k), CY + my + (p[1] - my) * k]);
}

function vein(side, x0, y0, x1, y1, w) {
  let a = [CX + side * x0, CY + y0], b = [CX + side * x1, CY + y1];
  let ang = atan2(b[1] - a[1], b[0] - a[0]) + 90;
  let dx = w * cos(ang), dy = w * sin(ang);
  puddle([[a[0] + dx, a[1] + dy], [b[0] + dx * 0.5, b[1] + dy * 0.5], [b[0] - dx * 0.5, b[1] - dy * 0.5], [a[0] - dx, a[1] - dy]],
    "#2a1d17", 200, 0.02, 0.2);
}

function draw() {
  translate(-width / 2, -height / 2);
  background(249, 246, 239);
  brush.scaleBrushes(3);
  brush.noStroke();

  // faint shadow of the butterfly on the paper, offset below
  for (let side of [-1, 1]) {
    puddle(onPage(FORE, side, 1).map((p) => [p[0] + 14, p[1] + 22]), "#d9d2c4", 90, 0.3, 0.6);
    puddle(onPage(HIND, side, 1).map((p) => [p[0] + 14, p[1] + 22]), "#d9d2c4", 90, 0.3, 0.6);
  }

  for (let side of [-1, 1]) {
    // orange panels first, glowing paler toward the body
    puddle(onPage(FORE, side, 1), "#e8842a", 240, 0.06, 0.4);
    puddle(onPage(HIND, side, 1), "#e0741f", 240, 0.06, 0.5);
    puddle(onPage(FORE, side, 0.85), "#dc6418", 140, 0.1, 0.4);
    puddle(onPage(HIND, side, 0.85), "#d85e16", 140, 0.1, 0.5);
    puddle(onPage(FORE, side, 0.5), "#f6b94c", 130, 0.25, 0.6);
    puddle(onPage(HIND, side, 0.5), "#f3aa40", 130, 0.25, 0.6);

    // black margins: a band between the outline and an inset copy of it
    for (let shape of [FORE, HIND]) {
      let outer = onPage(shape, side, 1.02), inner = onPage(shape, side, 0.82), n = shape.length;
      for (let i = 0; i < n; i++) {
        let j = (i + 1) % n;
        if (shape[i][0] < 12 && shape[j][0] < 12) continue;
        puddle([outer[i], outer[j], inner[j], inner[i]], "#241a15", 240, 0.02, 0.1);
      }
    }

    // veins radiating from the body
    for (let v of [[10, -8, 150, -90, 2.5], [10, -4, 150, -60, 2], [10, 0, 130, -20, 2], [8, 4, 80, 6, 2]]) vein(side, v[0], v[1], v[2], v[3], v[4]);
    for (let v of [[8, 8, 120, 50, 2], [8, 12, 110, 100, 2], [8, 16, 70, 128, 2], [8, 20, 36, 112, 2]]) vein(side, v[0], v[1], v[2], v[3], v[4]);

    // white spots along the dark margins, two per edge
    brush.fill("#fdfbf5", 250);
    brush.fillBleed(0.01);
    brush.fillTexture(0, 0);
    for (let shape of [FORE, HIND]) {
      let mid = onPage(shape, side, 0.92), n = shape.length;
      for (let i = 1; i < n - 1; i++) {
        let p = mid[i], q = mid[i + 1];
        brush.circle(lerp(p[0], q[0], 0.3), lerp(p[1], q[1], 0.3), 3.5);
        brush.circle(lerp(p[0], q[0], 0.7), lerp(p[1], q[1], 0.7), 3.5);
      }
    }
  }

  // body: head, thorax, slim abdomen, and two clubbed antennae
  puddle([[CX - 6, CY - 28], [CX + 6, CY - 28], [CX + 8, CY + 10], [CX + 4, CY + 80], [CX, CY + 88], [CX - 4, CY + 80], [CX - 8, CY + 10]],
    "#231914", 240, 0.02, 0.7);
  puddle([[CX - 5, CY - 26], [CX + 5, CY - 26], [CX + 6, CY + 10], [CX, CY + 80], [CX - 6, CY + 10]], "#120c0a", 200, 0.02, 0.7);
  puddle([[CX - 8, CY - 42], [CX + 8, CY - 42], [CX + 8, CY - 28], [CX - 8, CY - 28]], "#231914", 240, 0.02, 0.9);
  for (let side of [-1, 1]) {
    puddle([[CX + side * 2, CY - 42], [CX + side * 34, CY - 104], [CX + side * 36, CY - 102], [CX + side * 4, CY - 40]], "#231914", 220, 0.01, 0.4);
    brush.fill("#231914", 240);
    brush.circle(CX + side * 36, CY - 106, 4);
  }
}
