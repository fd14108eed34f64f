// audit probe: a small purple sea star with curling arms in the lower right of a blue tide pool among pebbles, painted for the reward audit (not in any pool)

let star = { x: 390, y: 380, len: 118, hub: 30, turn: 12 };

function setup() {
  createCanvas(600, 600, WEBGL);
  angleMode(DEGREES);
  noLoop();
}

function layer(hex, alpha, bleed, grain) {
  brush.fill(hex, alpha);
  brush.fillBleed(bleed, "out");
  brush.fillTexture(grain, grain * 0.8);
}

function blob(x, y, rx, ry, tilt, n) {
  brush.beginShape(1);
  for (let k = 0; k < n; k++) {
    const a = (360 * k) / n;
    const wob = 1 + 0.08 * sin(a * 3 + x);
    const px = rx * wob * cos(a), py = ry * wob * sin(a);
    brush.vertex(x + px * cos(tilt) - py * sin(tilt), y + px * sin(tilt) + py * cos(tilt));
  }
  brush.endShape(true);
}

// spine of one arm: points along a gently curving line from the hub to the tip
function armSpine(angle, bend, scale) {
  const L = star.len * scale;
  const spine = [];
  for (let s = 0; s <= 10; s++) {
    const t = s / 10;
    const a = angle + bend * t * t;
    const d = star.hub * 0.8 + L * t;
    const w = lerp(star.hub * 0.8, 3.5, pow(t, 0.9));
    spine.push([star.x + d * cos(a), star.y + d * sin(a), a, w]);
  }
  return spine;
}

// the whole star as one closed outline, so the arms join without dark overlaps
function starBody(bends, sizes, grow) {
  brush.beginShape(0.7);
  for (let i = 0; i < 5; i++) {
    const base = star.turn + i * 72;
    const valley = base - 36;
    brush.vertex(star.x + star.hub * grow * cos(valley), star.y + star.hub * grow * sin(valley));
    const sp = armSpine(base, bends[i], sizes[i] * grow);
    for (let s = 1; s <= 10; s++) {
      const [x, y, a, w] = sp[s];
      brush.vertex(x + w * grow * sin(a), y - w * grow * cos(a));
    }
    for (let s = 10; s >= 1; s--) {
      const [x, y, a, w] = sp[s];
      brush.vertex(x - w * grow * sin(a), y + w * grow * cos(a));
    }
  }
  brush.endShape(true);
}

function draw() {
  translate(-width / 2, -height / 2);
  background(246, 244, 238);
  brush.scaleBrushes(3);
  brush.noStroke();

  // tide pool water: two blues and a shallow green edge
  layer("#8fbccb", 190, 0.35, 0.6);
  blob(300, 300, 280, 265, 0, 28);
  layer("#5f97ae", 150, 0.35, 0.6);
  blob(330, 340, 210, 190, 20, 24);
  layer("#a8c48f", 90, 0.3, 0.6);
  blob(110, 130, 110, 80, -30, 18);

  // pebbles
  const pebbles = [[120, 470, 46, 30, 10, "#b6a793"], [190, 520, 30, 22, -20, "#8f8577"], [520, 180, 40, 28, 35, "#a59a8c"],
    [470, 110, 24, 18, 0, "#c7baa5"], [80, 330, 28, 20, 60, "#9d9284"], [540, 520, 34, 24, -10, "#b3a690"]];
  for (const p of pebbles) {
    layer(p[5], 200, 0.12, 0.5);
    blob(p[0], p[1], p[2], p[3], p[4], 14);
    layer("#f4efe6", 150, 0.15, 0.3);
    blob(p[0] - p[2] * 0.3, p[1] - p[3] * 0.35, p[2] * 0.4, p[3] * 0.3, p[4], 10);
  }

  // kelp ribbons drifting in from the top-left
  for (let k = 0; k < 3; k++) {
    layer(["#6d8a3e", "#8a9b3f", "#55733a"][k], 170, 0.15, 0.5);
    brush.beginShape(0.8);
    for (let t = 0; t <= 10; t++) brush.vertex(30 + k * 40 + t * 22, 20 + t * 26 + 16 * sin(t * 40 + k * 60));
    for (let t = 10; t >= 0; t--) brush.vertex(30 + k * 40 + t * 22 + 12 - t, 20 + t * 26 + 16 * sin(t * 40 + k * 60) - 6);
    brush.endShape(true);
  }

  // the sea star: shadow, body, a deeper core, then lighter spines and knobs
  const bends = [10, -8, 12, -10, 9];
  const sizes = [1, 0.92, 1.05, 0.95, 0.9];
  star.x += 9; star.y += 11;
  layer("#3e5f6e", 140, 0.25, 0.4);
  starBody(bends, sizes, 1);
  star.x -= 9; star.y -= 11;

  layer("#8a3f7a", 240, 0.12, 0.5);
  starBody(bends, sizes, 1);
  layer("#9a4a88", 170, 0.08, 0.4);
  starBody(bends, sizes, 0.94);
  layer("#6e2a63", 130, 0.15, 0.5);
  starBody(bends, sizes, 0.6);
  const spines = [];
  for (let i = 0; i < 5; i++) spines.push(armSpine(star.turn + i * 72, bends[i], sizes[i]));

  for (const sp of spines) {
    for (let s = 1; s < sp.length - 1; s++) {
      const [x, y, a, w] = sp[s];
      layer("#e7b3d6", 220, 0.03, 0.2);
      blob(x, y, max(2.2, w * 0.28), max(2.2, w * 0.28), 0, 8);
      if (s % 2 === 0) {
        layer("#5c2452", 180, 0.03, 0.2);
        blob(x - w * 0.6 * sin(a), y + w * 0.6 * cos(a), 2.4, 2.4, 0, 8);
        blob(x + w * 0.6 * sin(a), y - w * 0.6 * cos(a), 2.4, 2.4, 0, 8);
      }
    }
  }
  layer("#f2c960", 230, 0.05, 0.2);
  blob(star.x + 6, star.y - 4, 5, 5, 0, 8);
}
