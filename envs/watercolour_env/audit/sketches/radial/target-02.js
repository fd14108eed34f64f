// audit probe: a small old-style archery target (crimson and cream rings, navy bull's-eye) seen at an angle on a straw boss, right of centre in a garden, painted for the reward audit (not in any pool)

const T = { x: 395, y: 300, rx: 100, ry: 128, tilt: -6 };

function setup() {
  createCanvas(600, 600, WEBGL);
  angleMode(DEGREES);
  noLoop();
}

function paint(ink, alpha, bleed, grain, curve, verts) {
  brush.fill(ink, alpha);
  brush.fillBleed(bleed, "out");
  brush.fillTexture(grain, grain * 0.75);
  brush.beginShape(curve);
  for (const v of verts) brush.vertex(v[0], v[1]);
  brush.endShape(true);
}

// an ellipse around the target's centre, scaled by f, shifted sideways by sx (the face is turned a little)
function oval(f, sx = 0, sy = 0) {
  const v = [];
  for (let a = 0; a < 360; a += 10) {
    const x = T.rx * f * cos(a), y = T.ry * f * sin(a);
    v.push([T.x + sx + x * cos(T.tilt) - y * sin(T.tilt), T.y + sy + x * sin(T.tilt) + y * cos(T.tilt)]);
  }
  return v;
}

function draw() {
  translate(-width / 2, -height / 2);
  background(250, 247, 241);
  brush.scaleBrushes(3);
  brush.noStroke();

  // sky, a dark hedge, and a sloping lawn
  paint("#d6e4ea", 140, 0.35, 0.6, 0.3, [[12, 12], [588, 12], [588, 300], [12, 300]]);
  const hedge = [[12, 330]];
  for (let x = 12; x <= 588; x += 36) hedge.push([x, 225 + 14 * sin(x * 1.3) + 8 * cos(x * 3.1 + 40)]);
  hedge.push([588, 340]);
  paint("#4f7046", 190, 0.25, 0.6, 0.7, hedge);
  paint("#2f4f34", 110, 0.25, 0.6, 0.7, hedge.map((p) => [p[0], p[1] + 30]));
  paint("#a9c77c", 220, 0.25, 0.6, 0.5, [[0, 360], [300, 330], [600, 350], [600, 600], [0, 600]]);
  paint("#8db365", 130, 0.3, 0.6, 0.5, [[0, 470], [320, 440], [600, 470], [600, 600], [0, 600]]);

  // tripod legs
  paint("#7d5634", 230, 0.04, 0.3, 0.05, [[352, 415], [362, 415], [330, 520], [320, 518]]);
  paint("#7d5634", 230, 0.04, 0.3, 0.05, [[432, 410], [442, 410], [470, 515], [460, 518]]);
  paint("#5c3d22", 200, 0.04, 0.3, 0.05, [[398, 428], [406, 428], [412, 480], [404, 481]]);
  // shadow on the lawn
  paint("#5f7d4a", 120, 0.3, 0.5, 0.9, [[300, 520], [380, 505], [500, 512], [470, 535], [340, 538]]);

  // the straw boss: its thickness shows on the right as a crescent, then the face
  paint("#b58b3c", 230, 0.1, 0.6, 0.9, oval(1.12, 12, 2));
  paint("#dcb864", 250, 0.1, 0.6, 0.9, oval(1.12));
  paint("#d8b25a", 220, 0.06, 0.5, 0.9, oval(1.1));
  paint("#e8cf8a", 120, 0.1, 0.5, 0.9, oval(1.04, -4, -4));

  // the cream face, then each crimson ring as two half-rings (a single ring shape with a hole fills solid)
  paint("#f6efdc", 255, 0.02, 0.4, 1, oval(1.0));
  paint("#f6efdc", 240, 0.02, 0.4, 1, oval(0.98));
  paint("#faf4e4", 220, 0.02, 0.3, 1, oval(0.96));
  for (const [outer, inner] of [[1.0, 0.84], [0.68, 0.52], [0.37, 0.22]]) {
    const o = oval(outer), n = oval(inner);
    for (let k = 0; k < 3; k++) { o.push(o[k]); n.push(n[k]); }
    // four overlapping quarter-arcs per ring (a single ring shape with a hole fills solid)
    for (const from of [0, 9, 18, 27]) {
      const arc = o.slice(from, from + 11), back = n.slice(from, from + 11).reverse();
      paint("#b82e3a", 235, 0.0, 0.35, 0.15, arc.concat(back));
    }
  }
  paint("#26335e", 245, 0.02, 0.4, 1, oval(0.12));
  paint("#3a4a80", 150, 0.02, 0.4, 1, oval(0.08, -2, -3));
  paint("#f4ecd8", 200, 0.02, 0.3, 1, oval(0.03));

  // light falls from the left: a warm glaze on that side of the face
  paint("#fff4d6", 90, 0.2, 0.3, 0.9, oval(0.7, -30, -20));

  // one arrow, nocked deep in the crimson, shaft angled back toward the viewer
  paint("#4a3526", 240, 0.02, 0.2, 0.05, [[372, 318], [376, 314], [262, 396], [258, 392]]);
  paint("#e9e2cf", 230, 0.03, 0.3, 0.1, [[285, 375], [262, 396], [250, 384], [272, 368]]);
  paint("#2f6d9e", 230, 0.03, 0.3, 0.1, [[283, 378], [262, 396], [270, 410], [290, 388]]);

  // a bow lying on the grass
  const bow = [];
  for (let t = 0; t <= 1.001; t += 0.1) bow.push([90 + 200 * t, 520 - 40 * sin(t * 180) + 20 * t]);
  for (let t = 1; t >= -0.001; t -= 0.1) bow.push([90 + 200 * t, 526 - 34 * sin(t * 180) + 20 * t]);
  paint("#6b3f22", 230, 0.04, 0.3, 0.6, bow);
  paint("#d8d2c4", 200, 0.02, 0.2, 0.05, [[90, 521], [290, 541], [290, 543], [90, 523]]);
}
