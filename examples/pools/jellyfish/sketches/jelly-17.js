// jellyfish example pool, written by hand outside the template (the pool's oracle): a peach
// jellyfish drifting on sea-blue paper, its dome washed three times and its arms laid as ribbons
function setup() {
  createCanvas(600, 600, WEBGL);
  angleMode(DEGREES);
  noLoop();
}

function draw() {
  translate(-width / 2, -height / 2);
  background(214, 230, 235);
  brush.scaleBrushes(3);
  brush.noStroke();

  // arms first, so the dome's washes sit over their roots: each a ribbon that narrows as it falls
  const roots = [232, 258, 284, 306, 330, 352, 374];
  roots.forEach((rootX, k) => {
    const drop = 250 + 50 * sin(k * 83);
    const left = [];
    const right = [];
    for (let step = 0; step <= 12; step++) {
      const along = step / 12;
      const wave = 16 * sin(k * 40 + step * 30) * along;
      const half = 9 * (1 - along) + 1.5;
      left.push([rootX + wave - half, 262 + drop * along]);
      right.unshift([rootX + wave + half, 262 + drop * along]);
    }
    brush.fill(k % 2 === 0 ? "#e9a27c" : "#d98466", 75);
    brush.fillBleed(0.22);
    brush.fillTexture(0.35, 0.3);
    brush.beginShape(0.8);
    for (const [x, y] of left.concat(right)) brush.vertex(x, y);
    brush.endShape(true);
  });

  // the dome: three washes, each smaller, warmer and more opaque than the last
  const washes = [
    { r: 138, tint: "#fbd3b8", alpha: 85, wet: 0.34 },
    { r: 112, tint: "#f3a681", alpha: 120, wet: 0.24 },
    { r: 82, tint: "#dd7656", alpha: 150, wet: 0.14 },
  ];
  for (const { r, tint, alpha, wet } of washes) {
    brush.fill(tint, alpha);
    brush.fillBleed(wet);
    brush.fillTexture(0.45, 0.3);
    brush.beginShape(0.55);
    for (let deg = 190; deg <= 350; deg += 20) brush.vertex(300 + r * cos(deg), 262 + 0.78 * r * sin(deg));
    for (let scallop = 0; scallop <= 8; scallop++) {
      brush.vertex(300 + r - (2 * r * scallop) / 8, 262 + (scallop % 2) * 12);
    }
    brush.endShape(true);
  }

  // a glow inside the dome
  brush.fill("#fff1e2", 90);
  brush.fillBleed(0.3);
  brush.circle(282, 212, 26);
}
