// honest probe: orange hibiscus bloom with a closed bud on a branching stem, written for the reward audit (not in the pool)

function setup() {
  createCanvas(600, 600, WEBGL);
  angleMode(DEGREES);
  noLoop();
}

// points of an ellipse centred on (mx, my), tilted by rot, edge roughened with noise
function roughOval(mx, my, ra, rb, rot, grain) {
  const ring = [];
  for (let t = 0; t < 360; t += 12) {
    const j = 1 + grain * (noise(mx * 0.01 + cos(t), my * 0.01 + sin(t)) - 0.5);
    const px = ra * cos(t) * j, py = rb * sin(t) * j;
    ring.push({ x: mx + px * cos(rot) - py * sin(rot), y: my + px * sin(rot) + py * cos(rot) });
  }
  return ring;
}

function lay(ring, hue, strength, spread, bend) {
  brush.fill(hue, strength);
  brush.fillBleed(spread);
  brush.fillTexture(0.5, 0.5);
  brush.beginShape(bend);
  ring.forEach((p) => brush.vertex(p.x, p.y));
  brush.endShape(true);
}

function ribbon(path, half, hue, strength) {
  // a stroke of paint along a polyline, built as a closed strip
  const left = [], right = [];
  for (let i = 0; i < path.length; i++) {
    const a = path[max(0, i - 1)], b = path[min(path.length - 1, i + 1)];
    const dir = atan2(b[1] - a[1], b[0] - a[0]);
    const w = half * (1 - 0.4 * i / path.length);
    left.push({ x: path[i][0] + w * cos(dir + 90), y: path[i][1] + w * sin(dir + 90) });
    right.unshift({ x: path[i][0] + w * cos(dir - 90), y: path[i][1] + w * sin(dir - 90) });
  }
  lay(left.concat(right), hue, strength, 0.05, 0.6);
}

function draw() {
  translate(-width / 2, -height / 2);
  background(248, 244, 236);
  brush.scaleBrushes(3);
  brush.noStroke();

  const bloom = { x: 370, y: 250 };
  const bud = { x: 160, y: 365 };

  // branching stem
  ribbon([[300, 600], [302, 520], [318, 440], [336, 380]], 7, "#4a7a34", 210);
  ribbon([[310, 470], [260, 430], [200, 395], [168, 372]], 5, "#4a7a34", 210);

  // two leaves off the main stem
  lay(roughOval(385, 470, 70, 30, -25, 0.3), "#5e9244", 200, 0.2, 0.8);
  lay(roughOval(240, 520, 65, 26, 200, 0.3), "#3e6e2f", 200, 0.2, 0.8);

  // the bud: a twisted teardrop, orange tip peeking out of green sepals
  lay(roughOval(bud.x - 24, bud.y - 44, 60, 26, -118, 0.15), "#f08a2c", 210, 0.12, 0.85);
  lay(roughOval(bud.x - 14, bud.y - 30, 40, 12, -132, 0.1), "#d0561c", 140, 0.08, 0.85);
  for (let s = -1; s <= 1; s++) {
    lay(roughOval(bud.x - 4 + s * 9, bud.y - 10, 30, 9, -118 + s * 26, 0.1), "#4f8238", 220, 0.05, 0.8);
  }

  // open bloom: five broad petals as overlapping ovals
  for (let k = 0; k < 5; k++) {
    const ang = k * 72 - 20;
    const reach = 72;
    lay(roughOval(bloom.x + reach * cos(ang), bloom.y + reach * sin(ang), 85, 66, ang, 0.35), "#f7a03b", 190, 0.3, 0.9);
  }
  for (let k = 0; k < 5; k++) {
    const ang = k * 72 - 20;
    lay(roughOval(bloom.x + 48 * cos(ang), bloom.y + 48 * sin(ang), 58, 34, ang, 0.3), "#ec6d24", 120, 0.25, 0.9);
  }
  lay(roughOval(bloom.x, bloom.y, 28, 26, 0, 0.3), "#a8281a", 210, 0.2, 0.9);

  // column, anthers and stigma
  ribbon([[bloom.x, bloom.y], [bloom.x + 30, bloom.y - 40], [bloom.x + 55, bloom.y - 80]], 4, "#c9452a", 235);
  brush.fill("#ffd23d", 250);
  brush.fillBleed(0.02);
  for (let i = 0; i < 11; i++) brush.circle(bloom.x + 30 + random(0, 26) + random(-8, 8), bloom.y - 42 - random(0, 36), random(3, 6));
  brush.fill("#b8231b", 250);
  brush.circle(bloom.x + 58, bloom.y - 86, 7);
}
