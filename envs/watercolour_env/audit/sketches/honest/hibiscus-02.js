// honest probe: hibiscus (pink, off-centre, layered glazes), written for the reward audit (not in the pool)

const BLOOM = { x: 240, y: 340, r: 150, turn: 17 };
const GLAZES = [
  { col: "#f48fb1", alpha: 190, scale: 1.0, bleed: 0.3 },
  { col: "#ec5f94", alpha: 170, scale: 0.8, bleed: 0.25 },
  { col: "#c2255c", alpha: 170, scale: 0.45, bleed: 0.2 },
  { col: "#7a1038", alpha: 200, scale: 0.18, bleed: 0.1 }
];

function setup() {
  createCanvas(600, 600, WEBGL);
  angleMode(DEGREES);
  noLoop();
}

// radius of the whole five-lobed bloom at angle th
function lobeRadius(th, size) {
  let lobe = abs(cos((th * 5) / 2));
  let wobble = 1 + 0.06 * sin(th * 23) + 0.04 * noise(th * 0.05);
  return size * (0.62 + 0.38 * pow(lobe, 0.8)) * wobble;
}

function washBloom(g) {
  brush.fill(g.col, g.alpha);
  brush.fillBleed(g.bleed, "out");
  brush.fillTexture(0.55, 0.45);
  brush.beginShape(0.6);
  for (let th = 0; th < 360; th += 6) {
    let rr = lobeRadius(th, BLOOM.r * g.scale);
    brush.vertex(BLOOM.x + rr * cos(th + BLOOM.turn), BLOOM.y + rr * sin(th + BLOOM.turn));
  }
  brush.endShape(true);
}

function draw() {
  translate(-width / 2, -height / 2);
  background(250, 246, 240);
  brush.scaleBrushes(3);
  brush.noStroke();

  // a single slender stem leaving the bloom towards the lower right
  brush.fill("#5a8a3c", 200);
  brush.fillBleed(0.1);
  brush.fillTexture(0.3, 0.3);
  brush.beginShape(0.8);
  brush.vertex(298, 414);
  brush.vertex(370, 490);
  brush.vertex(450, 590);
  brush.vertex(438, 598);
  brush.vertex(358, 500);
  brush.vertex(290, 424);
  brush.endShape(true);

  for (const g of GLAZES) washBloom(g);

  // veins radiating from the throat, painted as thin tapering slivers
  brush.fill("#b3245a", 90);
  brush.fillBleed(0.02);
  for (let i = 0; i < 5; i++) {
    let th = BLOOM.turn + i * 72 + 36;
    let far = BLOOM.r * 0.7;
    brush.beginShape(0.3);
    brush.vertex(BLOOM.x, BLOOM.y);
    brush.vertex(BLOOM.x + far * cos(th - 1.5), BLOOM.y + far * sin(th - 1.5));
    brush.vertex(BLOOM.x + far * cos(th + 1.5), BLOOM.y + far * sin(th + 1.5));
    brush.endShape(true);
  }

  // stamen column rises up and to the right, tipped with pollen
  let tipX = BLOOM.x + 95, tipY = BLOOM.y - 95;
  brush.fill("#e56b97", 240);
  brush.beginShape(0.1);
  brush.vertex(BLOOM.x - 5, BLOOM.y);
  brush.vertex(tipX - 4, tipY - 4);
  brush.vertex(tipX + 4, tipY + 4);
  brush.vertex(BLOOM.x + 5, BLOOM.y + 4);
  brush.endShape(true);
  brush.fill("#f5c542", 240);
  for (let i = 0; i < 12; i++) {
    let d = random(40, 95);
    brush.circle(BLOOM.x + d + random(-9, 9), BLOOM.y - d + random(-9, 9), random(3, 6));
  }
  brush.fill("#c2185b", 240);
  brush.circle(tipX + 6, tipY - 6, 7);
}
