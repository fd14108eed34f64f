// honest probe: hibiscus in side view (coral, trumpet profile on a stem), written for the reward audit (not in the pool)

let baseX = 150, baseY = 420, axis = -32, grow = 1.5;

function setup() {
  createCanvas(600, 600, WEBGL);
  angleMode(DEGREES);
  noLoop();
}

// u runs along the flower's axis, v across it
function local(u, v) {
  u *= grow;
  v *= grow;
  return [baseX + u * cos(axis) - v * sin(axis), baseY + u * sin(axis) + v * cos(axis)];
}

function blot(ink, alpha, bleed, curve, uvList) {
  brush.fill(ink, alpha);
  brush.fillBleed(bleed);
  brush.fillTexture(0.55, 0.45);
  brush.beginShape(curve);
  uvList.forEach(function (uv) {
    let w = local(uv[0], uv[1]);
    brush.vertex(w[0], w[1]);
  });
  brush.endShape(true);
}

function draw() {
  translate(-width / 2, -height / 2);
  background(245, 240, 230);
  brush.scaleBrushes(3);
  brush.noStroke();

  // stem and one leaf, painted directly in canvas coordinates
  brush.fill("#4e7b35", 210);
  brush.fillBleed(0.08);
  brush.fillTexture(0.3, 0.3);
  brush.beginShape(0.9);
  let knot = local(-28, 0);
  brush.vertex(knot[0] - 6, knot[1]); brush.vertex(knot[0] - 30, knot[1] + 60); brush.vertex(knot[0] - 36, knot[1] + 120);
  brush.vertex(knot[0] - 28, 600); brush.vertex(knot[0] - 15, 600); brush.vertex(knot[0] - 22, knot[1] + 120);
  brush.vertex(knot[0] - 16, knot[1] + 62); brush.vertex(knot[0] + 8, knot[1] + 6);
  brush.endShape(true);
  brush.fill("#6a9a45", 190);
  brush.fillBleed(0.2);
  brush.beginShape(0.8);
  let node = [knot[0] - 30, knot[1] + 100];
  brush.vertex(node[0], node[1]); brush.vertex(node[0] + 50, node[1] - 40); brush.vertex(node[0] + 120, node[1] - 40);
  brush.vertex(node[0] + 95, node[1] + 5); brush.vertex(node[0] + 30, node[1] + 15);
  brush.endShape(true);

  // back petal seen inside the trumpet (deeper tone)
  blot("#d9483b", 190, 0.15, 0.8, [[20, 0], [110, -45], [175, -30], [185, 15], [120, 45]]);
  // upper flaring petal
  blot("#f47c64", 200, 0.25, 0.85, [[0, -6], [60, -30], [125, -80], [172, -100], [195, -62], [160, -22], [70, -4]]);
  // lower flaring petal, curling down and forward
  blot("#f0705a", 200, 0.25, 0.85, [[0, 6], [60, 30], [120, 88], [168, 110], [198, 70], [160, 22], [70, 4]]);
  // a side petal facing the viewer
  blot("#f79a80", 170, 0.3, 0.85, [[10, 0], [80, 20], [150, 40], [205, 30], [215, -5], [160, -15], [80, -8]]);
  // darker veins near the throat
  blot("#b8302c", 150, 0.1, 0.6, [[5, -3], [70, -15], [80, -8], [70, 10], [5, 4]]);

  // calyx cup
  blot("#3f6c2e", 220, 0.06, 0.7, [[-34, -4], [-10, -18], [16, -16], [22, 0], [16, 16], [-10, 18], [-34, 4]]);

  // staminal column sticking out past the petals
  blot("#e8a08a", 230, 0.03, 0.4, [[40, -3], [150, -5], [250, 4], [250, 10], [150, 3], [40, 4]]);
  brush.fill("#f2c230", 245);
  brush.fillBleed(0.02);
  for (let n = 0; n < 10; n++) {
    let p = local(random(190, 245), random(-10, 16));
    brush.circle(p[0], p[1], random(4, 7));
  }
  brush.fill("#c2282b", 245);
  for (let n = 0; n < 5; n++) {
    let p = local(256 + n * 1.5, 7 + (n - 2) * 5);
    brush.circle(p[0], p[1], 5);
  }
}
