// honest probe: a blue whale gliding through pale water, written for the reward audit (not in the pool)

function setup() {
  createCanvas(600, 600, WEBGL);
  angleMode(DEGREES);
  noLoop();
}

// the whale's spine: a gently curving line from snout (u=0) to tail stock (u=1)
function spineAt(u) {
  return { x: lerp(70, 470, u), y: 300 + 26 * sin(u * 200 - 20) };
}

// half-thickness of the body along the spine: blunt head, long taper to the tail
function girth(u) {
  return 46 * pow(max(0, sin(map(u, 0, 1, 12, 180))), 0.8) * (1 - 0.55 * u) + 3;
}

function bodyOutline(scaleW, belly) {
  let topSide = [], underSide = [];
  for (let i = 0; i <= 20; i++) {
    let u = i / 20;
    let p = spineAt(u), q = spineAt(u + 0.01);
    let heading = atan2(q.y - p.y, q.x - p.x);
    let w = girth(u) * scaleW;
    topSide.push([p.x + w * cos(heading - 90), p.y + w * sin(heading - 90)]);
    underSide.unshift([p.x + w * belly * cos(heading + 90), p.y + w * belly * sin(heading + 90)]);
  }
  return topSide.concat(underSide);
}

function splash(pts, ink, alpha, bleed, curve) {
  brush.fill(ink, alpha);
  brush.fillBleed(bleed);
  brush.fillTexture(0.5, 0.45);
  brush.beginShape(curve);
  for (let p of pts) brush.vertex(p[0], p[1]);
  brush.endShape(true);
}

function draw() {
  translate(-width / 2, -height / 2);
  background(236, 243, 244);
  brush.scaleBrushes(3);
  brush.noStroke();

  // loose horizontal bands of water
  for (let band = 0; band < 3; band++) {
    let y0 = 120 + band * 170, row = [];
    for (let x = -20; x <= 620; x += 80) row.push([x, y0 + 18 * sin(x * 0.8 + band * 50)]);
    for (let x = 620; x >= -20; x -= 80) row.push([x, y0 + 55 + 14 * sin(x * 0.6 + band * 70)]);
    splash(row, "#a9d3de", 90, 0.35, 0.6);
  }

  // body: blue-grey base, a darker back, a paler throat
  splash(bodyOutline(1, 1), "#5f88a8", 215, 0.15, 0.85);
  splash(bodyOutline(0.8, 0.1), "#34587a", 160, 0.2, 0.85);
  splash(bodyOutline(0.55, 0.9).slice(28), "#a8c2d0", 120, 0.2, 0.8);

  // mottling along the back
  brush.fill("#9bb8cb", 150);
  brush.fillBleed(0.1);
  for (let i = 0; i < 16; i++) {
    let u = random(0.15, 0.85), p = spineAt(u);
    brush.circle(p.x + random(-6, 6), p.y - girth(u) * random(0.1, 0.6), random(3, 7));
  }

  // tiny dorsal fin far back, flipper under the chest, flukes at the end
  let d = spineAt(0.74), g = girth(0.74);
  splash([[d.x - 16, d.y - g + 4], [d.x + 4, d.y - g - 14], [d.x + 12, d.y - g + 2]], "#34587a", 210, 0.05, 0.4);
  let f = spineAt(0.3), fg = girth(0.3);
  splash([[f.x - 10, f.y + fg - 6], [f.x + 30, f.y + fg + 30], [f.x + 56, f.y + fg + 44], [f.x + 22, f.y + fg - 4]], "#4d7798", 210, 0.08, 0.7);
  let t = spineAt(1);
  splash([[t.x - 8, t.y], [t.x + 30, t.y - 34], [t.x + 78, t.y - 52], [t.x + 50, t.y - 12], [t.x + 56, t.y + 4],
          [t.x + 80, t.y + 44], [t.x + 34, t.y + 26], [t.x - 8, t.y + 6]], "#476f91", 215, 0.1, 0.6);

  // eye and mouth line near the head
  let h = spineAt(0.12);
  splash([[72, 310], [110, 318], [150, 318], [150, 322], [110, 322], [72, 314]], "#2a4663", 180, 0.02, 0.5);
  brush.fill("#1d3047", 230);
  brush.circle(h.x + 28, h.y + 10, 4);

  // a few bubbles rising from the blowhole
  brush.fill("#ffffff", 200);
  for (let i = 0; i < 6; i++) brush.circle(120 + random(-8, 8), 240 - i * 22, 3 + i);
}
