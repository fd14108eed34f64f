// starter pool: other-cottage
// another subject than a hibiscus (a cottage), rated nope (issue 33); written for the audit, not by compose.py

function setup() {
  createCanvas(600, 600, WEBGL);
  angleMode(DEGREES);
  noLoop();
}

function paint(ink, alpha, bleed, soft, pts) {
  brush.fill(ink, alpha);
  brush.fillBleed(bleed);
  brush.fillTexture(0.6, 0.4);
  brush.beginShape(soft);
  for (const [x, y] of pts) brush.vertex(x, y);
  brush.endShape(true);
}

// a slightly wobbly box, hand-drawn rather than ruled
function slab(x, y, w, h, ink, alpha, bleed) {
  let pts = [];
  let corners = [[x, y], [x + w, y], [x + w, y + h], [x, y + h]];
  for (let i = 0; i < 4; i++) {
    let a = corners[i], b = corners[(i + 1) % 4];
    for (let k = 0; k < 3; k++) {
      pts.push([lerp(a[0], b[0], k / 3) + random(-1.5, 1.5), lerp(a[1], b[1], k / 3) + random(-1.5, 1.5)]);
    }
  }
  paint(ink, alpha, bleed, 0.1, pts);
}

function blob(cx, cy, r, ink, alpha) {
  let pts = [];
  for (let a = 0; a < 360; a += 30) {
    let rr = r * random(0.8, 1.1);
    pts.push([cx + rr * cos(a), cy + rr * 0.85 * sin(a)]);
  }
  paint(ink, alpha, 0.3, 0.8, pts);
}

function draw() {
  translate(-width / 2, -height / 2);
  background(250, 247, 240);
  brush.scaleBrushes(3);
  brush.noStroke();

  // a soft wash of sky just above the roof
  paint("#a9c7e0", 60, 0.5, 0.9, [[150, 150], [300, 120], [470, 150], [480, 220], [320, 210], [140, 230]]);

  // meadow the cottage sits on, and a path to the door
  paint("#8fb36a", 130, 0.3, 0.7, [[90, 430], [250, 415], [420, 420], [520, 440], [500, 470], [300, 480], [110, 468]]);
  paint("#c4a473", 200, 0.1, 0.3, [[282, 428], [316, 428], [336, 478], [262, 478]]);

  // apple tree beside the house: trunk, then a cluster of leafy blobs
  slab(445, 330, 14, 100, "#6e5338", 210, 0.05);
  blob(455, 292, 58, "#6f9a4c", 190);
  blob(425, 318, 40, "#4f7a36", 170);
  blob(484, 314, 42, "#7fa957", 170);
  brush.fill("#c8402c", 220);
  brush.fillBleed(0.05);
  for (let i = 0; i < 6; i++) brush.circle(420 + i * 12, 300 + 20 * sin(i * 70), 5);

  // walls: cream plaster with a shaded gable end on the right
  slab(190, 300, 190, 130, "#efe1c2", 230, 0.05);
  slab(190, 300, 190, 130, "#d9c49b", 80, 0.2);
  paint("#cdb88e", 160, 0.05, 0, [[380, 300], [410, 285], [410, 416], [380, 430]]);

  // chimney, then a roof of terracotta tiles overhanging the walls
  paint("#c0603f", 230, 0.08, 0, [[172, 305], [222, 220], [392, 220], [420, 290], [398, 305]]);
  paint("#8f3f2a", 120, 0.2, 0, [[172, 305], [398, 305], [392, 292], [180, 292]]);
  slab(330, 188, 26, 58, "#a4533a", 235, 0.05);
  slab(326, 184, 34, 8, "#7d3a28", 220, 0.03);
  for (let r = 0; r < 4; r++) {
    let y = 236 + r * 17;
    paint("#9d4630", 90, 0.05, 0, [[210 - r * 9, y], [395 + r * 5, y], [395 + r * 5, y + 3], [210 - r * 9, y + 3]]);
  }

  // door with a small step, and two windows with sky-blue panes
  slab(282, 355, 34, 72, "#4f6f8c", 230, 0.03);
  brush.fill("#e9c46a", 240);
  brush.circle(309, 392, 3);
  for (let wx of [212, 334]) {
    slab(wx, 330, 36, 36, "#7a5a3e", 200, 0.02);
    slab(wx + 4, 334, 12, 12, "#b9d3e8", 230, 0.02);
    slab(wx + 20, 334, 12, 12, "#b9d3e8", 230, 0.02);
    slab(wx + 4, 350, 12, 12, "#9fbfd8", 230, 0.02);
    slab(wx + 20, 350, 12, 12, "#9fbfd8", 230, 0.02);
  }

  // curl of smoke from the chimney
  brush.fill("#aaa59e", 100);
  brush.fillBleed(0.3);
  for (let i = 0; i < 5; i++) brush.circle(343 + 10 * sin(i * 60) + i * 8, 168 - i * 20, 6 + i * 2.5);
}
