// honest probe: ruffled double hibiscus in magenta pink, on a stem with two leaves, written for the reward audit (not in the pool)

function setup() {
  createCanvas(600, 600, WEBGL);
  angleMode(DEGREES);
  noLoop();
}

const rot = (x, y, a) => [x * cos(a) - y * sin(a), x * sin(a) + y * cos(a)];
const range = (n) => Array.from({ length: n }, (_, i) => i);

// a ruffled petal as a list of points, pointing along +x from the origin
const ruffled = (L, W, ruff) =>
  range(25).map((i) => {
    const a = map(i, 0, 24, -70, 70);
    const lobe = cos(a) ** 0.7;
    const r = L * (0.35 + 0.65 * lobe) * (1 + ruff * sin(a * 9));
    return [r * cos(a * 0.55), r * sin(a * 0.55) * (W / L) * 1.8];
  });

const spill = (pts, ox, oy, ang, col, alpha, wet) => {
  brush.fill(col, alpha);
  brush.fillBleed(wet);
  brush.fillTexture(0.5, 0.5);
  brush.beginShape(0.8);
  brush.vertex(ox, oy);
  pts.forEach(([x, y]) => {
    const [u, v] = rot(x, y, ang);
    brush.vertex(ox + u, oy + v);
  });
  brush.endShape(true);
};

function draw() {
  translate(-width / 2, -height / 2);
  background(249, 245, 241);
  brush.scaleBrushes(3);
  brush.noStroke();

  const X = 300, Y = 255;

  // stem and leaves first, below the flower
  spill([[0, -6], [80, -8], [200, -4], [230, 4], [200, 8], [80, 8], [0, 6]], X - 4, Y + 110, 92, "#4b7b37", 215, 0.06);
  spill(ruffled(120, 55, 0.03), X, Y + 250, -150, "#5a8d42", 205, 0.2);
  spill(ruffled(110, 50, 0.03), X, Y + 200, -25, "#3f6c30", 205, 0.2);

  // outer ring of five big petals
  range(5).forEach((k) => spill(ruffled(150, 80, 0.05), X, Y, k * 72 - 54, "#f06aa6", 205, 0.3));
  // inner ring, offset between the outer petals, a stronger magenta
  range(5).forEach((k) => spill(ruffled(100, 60, 0.07), X, Y, k * 72 - 18, "#dc3d8a", 175, 0.25));
  // tight innermost frills
  range(6).forEach((k) => spill(ruffled(50, 36, 0.08), X, Y, k * 60 + 10, "#b01f68", 170, 0.2));

  // a few pollen flecks peeking out of the frills
  brush.fill("#f7d34a", 245);
  brush.fillBleed(0.02);
  range(9).forEach(() => brush.circle(X + random(-22, 22), Y + random(-22, 22), random(3, 5)));
}
