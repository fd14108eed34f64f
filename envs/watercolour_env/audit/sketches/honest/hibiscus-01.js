// honest probe: hibiscus (red, centred, with leaves), written for the reward audit (not in the pool)

function setup() {
  createCanvas(600, 600, WEBGL);
  angleMode(DEGREES);
  noLoop();
}

// one rounded, slightly ruffled petal pointing along angle `dir`
function petalOutline(cx, cy, dir, len, wide) {
  let pts = [];
  for (let t = 0; t <= 1.0001; t += 0.08) {
    let along = len * t;
    let half = wide * sin(t * 165) * (0.55 + 0.45 * t);
    pts.push([along, -half]);
  }
  for (let t = 1; t >= 0; t -= 0.08) {
    let along = len * t;
    let half = wide * sin(t * 165) * (0.55 + 0.45 * t);
    pts.push([along, half + 4 * sin(t * 900)]);
  }
  return pts.map(([a, b]) => [cx + a * cos(dir) - b * sin(dir), cy + a * sin(dir) + b * cos(dir)]);
}

function paintPoly(pts, curve) {
  brush.beginShape(curve);
  for (const p of pts) brush.vertex(p[0], p[1]);
  brush.endShape(true);
}

function draw() {
  translate(-width / 2, -height / 2);
  background(247, 242, 232);
  brush.scaleBrushes(3);
  brush.noStroke();

  // leaves behind the flower
  brush.fill("#3a6a28", 200);
  brush.fillBleed(0.25);
  brush.fillTexture(0.5, 0.4);
  paintPoly([[340, 390], [420, 410], [520, 470], [450, 490], [370, 450]], 0.7);
  paintPoly([[240, 380], [170, 410], [80, 450], [120, 480], [230, 440]], 0.7);
  brush.fill("#2f5e2a", 170);
  paintPoly([[360, 220], [420, 150], [490, 90], [500, 140], [410, 230]], 0.7);

  // petals: pale wash first, then deeper red on top
  let centreX = 295, centreY = 305;
  brush.fillBleed(0.3, "out");
  brush.fillTexture(0.6, 0.5);
  for (let k = 0; k < 5; k++) {
    let a = -90 + k * 72 + 8;
    brush.fill("#d41f2c", 230);
    paintPoly(petalOutline(centreX, centreY, a, 150, 70), 0.9);
  }
  brush.fillBleed(0.15);
  for (let k = 0; k < 5; k++) {
    let a = -90 + k * 72 + 8;
    brush.fill("#8e0c24", 200);
    paintPoly(petalOutline(centreX, centreY, a + 4, 80, 32), 0.9);
  }

  // dark throat
  brush.fill("#6d0a1c", 170);
  brush.circle(centreX, centreY, 26);

  // staminal column reaching out to the upper right
  brush.fill("#c9851c", 240);
  brush.fillBleed(0.05);
  paintPoly([[centreX - 4, centreY - 6], [centreX + 80, centreY - 78], [centreX + 90, centreY - 66], [centreX + 6, centreY + 6]], 0.2);
  brush.fill("#f0b41c", 250);
  for (let i = 0; i < 9; i++) {
    brush.circle(centreX + 60 + random(-10, 14), centreY - 60 + random(-14, 10), 6);
  }
  brush.fill("#a3122a", 230);
  brush.circle(centreX + 92, centreY - 80, 9);
}
