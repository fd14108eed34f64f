// honest probe: two lemons and a leaf with soft shadows, written for the reward audit (not in the pool)

function setup() {
  createCanvas(600, 600, WEBGL);
  angleMode(DEGREES);
  noLoop();
}

// lemon silhouette: an oval with a small nub at each end
function lemonShape(cx, cy, len, fat, tilt, shrink) {
  let outline = [];
  for (let a = 0; a < 360; a += 10) {
    let nub = 0.22 * pow(abs(cos(a)), 16);
    let rx = len * (1 + nub) * shrink, ry = fat * shrink * (1 - 0.08 * pow(abs(cos(a)), 2));
    let lx = rx * cos(a), ly = ry * sin(a);
    outline.push([cx + lx * cos(tilt) - ly * sin(tilt), cy + lx * sin(tilt) + ly * cos(tilt)]);
  }
  return outline;
}

function drop(outline, hue, density, bleed, roundness) {
  brush.fill(hue, density);
  brush.fillBleed(bleed);
  brush.fillTexture(0.55, 0.5);
  brush.beginShape(roundness);
  outline.forEach((pt) => brush.vertex(pt[0], pt[1]));
  brush.endShape(true);
}

function paintLemon(cx, cy, len, fat, tilt) {
  // shadow on the table, offset down-right
  drop(lemonShape(cx + 26, cy + fat * 1.02, len * 0.95, fat * 0.26, tilt * 0.3, 1), "#b7aec4", 110, 0.15, 0.9);
  // body in three values: light lemon, mid, and the turned-away side
  drop(lemonShape(cx, cy, len, fat, tilt, 1), "#f7dc4a", 225, 0.15, 0.9);
  drop(lemonShape(cx + 6, cy + fat * 0.3, len * 0.8, fat * 0.6, tilt, 1), "#e3a923", 110, 0.4, 0.95);
  // pale highlight left unpainted-looking
  drop(lemonShape(cx - len * 0.3, cy - fat * 0.4, len * 0.25, fat * 0.15, tilt - 10, 1), "#fff6c9", 200, 0.25, 0.9);
  // pores: a sprinkle of tiny darker dots
  brush.fill("#d9a522", 120);
  brush.fillBleed(0.02);
  for (let i = 0; i < 14; i++) {
    let a = random(360), d = random(0.2, 0.85);
    brush.circle(cx + len * d * cos(a), cy + fat * d * sin(a), 1.8);
  }
}

function draw() {
  translate(-width / 2, -height / 2);
  background(248, 245, 238);
  brush.scaleBrushes(3);
  brush.noStroke();

  // leaf tucked behind the back lemon
  let leaf = [];
  for (let s = 0; s <= 10; s++) leaf.push([480 + s * 9, 235 - s * 13 - 30 * sin(s * 18)]);
  for (let s = 10; s >= 0; s--) leaf.push([480 + s * 9, 235 - s * 13 + 30 * sin(s * 18)]);
  drop(leaf, "#4e8a3a", 215, 0.15, 0.8);
  drop([[482, 233], [568, 108], [572, 110], [486, 235]], "#2f5d27", 170, 0.02, 0.2);

  paintLemon(390, 290, 100, 70, -22);
  paintLemon(215, 385, 112, 76, 6);

  // a cut-off twig stub on the back lemon
  drop([[476, 248], [488, 236], [494, 241], [482, 253]], "#6b5a2e", 225, 0.03, 0.3);
}
