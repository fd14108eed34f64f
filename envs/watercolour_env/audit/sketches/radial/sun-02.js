// audit probe: a low red-orange sun with wavy rays in the upper left over dusky hills, painted for the reward audit (not in any pool)

const SUN = { x: 190, y: 200, r: 62 };
const PALETTE = {
  sky: ["#f6d5b8", "#efb79a", "#c9a3c0"],
  rays: ["#e4572e", "#f08a3c", "#f4b350"],
  disc: ["#f39a2e", "#e0532b", "#fbd27a"],
  hills: ["#8a6f9e", "#5f4c7a", "#3f3559"],
};

function setup() {
  createCanvas(600, 600, WEBGL);
  angleMode(RADIANS);
  noLoop();
}

function draw() {
  translate(-width / 2, -height / 2);
  background(251, 247, 240);
  brush.scaleBrushes(3);
  brush.noStroke();

  paintSky();
  paintRays();
  paintDisc();
  paintHills();
}

function band(y0, y1, hex, alpha) {
  brush.fill(hex, alpha);
  brush.fillBleed(0.35, "out");
  brush.fillTexture(0.5, 0.4);
  brush.beginShape(0.4);
  brush.vertex(10, y0);
  for (let x = 150; x <= 590; x += 140) brush.vertex(x, y0 + 12 * sin(x * 0.02));
  brush.vertex(590, y1);
  brush.vertex(10, y1);
  brush.endShape(true);
}

function paintSky() {
  band(20, 260, PALETTE.sky[0], 110);
  band(180, 420, PALETTE.sky[1], 80);
  band(300, 470, PALETTE.sky[2], 70);
}

// each ray is a wavy ribbon that thins to a point
function paintRays() {
  const n = 16;
  for (let k = 0; k < n; k++) {
    const th = (k / n) * TWO_PI + 0.1;
    const long = k % 2 === 0;
    const len = long ? 120 : 72;
    const w0 = long ? 11 : 8;
    const left = [], right = [];
    const steps = 8;
    for (let s = 0; s <= steps; s++) {
      const t = s / steps;
      const d = SUN.r + 10 + len * t;
      const sway = 7 * sin(t * PI * 2 + k) * t;
      const w = w0 * (1 - t) + 0.8;
      const px = SUN.x + d * cos(th) - sway * sin(th);
      const py = SUN.y + d * sin(th) + sway * cos(th);
      left.push([px - w * sin(th), py + w * cos(th)]);
      right.unshift([px + w * sin(th), py - w * cos(th)]);
    }
    brush.fill(PALETTE.rays[k % 3], long ? 150 : 130);
    brush.fillBleed(0.12, "out");
    brush.fillTexture(0.45, 0.3);
    brush.beginShape(0.7);
    for (const p of left.concat(right)) brush.vertex(p[0], p[1]);
    brush.endShape(true);
  }
}

function paintDisc() {
  // halo, body, a darker lower crescent, a light bloom
  brush.fill("#f7c37a", 90);
  brush.fillBleed(0.4, "out");
  brush.fillTexture(0.4, 0.3);
  brush.circle(SUN.x, SUN.y, SUN.r + 22);

  brush.fill(PALETTE.disc[0], 220);
  brush.fillBleed(0.15, "out");
  brush.circle(SUN.x, SUN.y, SUN.r);

  brush.fill(PALETTE.disc[1], 80);
  brush.fillBleed(0.3, "out");
  brush.circle(SUN.x + 12, SUN.y + 14, SUN.r * 0.78);

  brush.fill(PALETTE.disc[2], 170);
  brush.fillBleed(0.2, "out");
  brush.circle(SUN.x - 16, SUN.y - 18, 22);
}

function paintHills() {
  const layers = [
    { base: 430, amp: 40, freq: 0.011, hex: PALETTE.hills[0], a: 150 },
    { base: 480, amp: 30, freq: 0.016, hex: PALETTE.hills[1], a: 170 },
    { base: 535, amp: 18, freq: 0.024, hex: PALETTE.hills[2], a: 190 },
  ];
  layers.forEach((L, i) => {
    brush.fill(L.hex, L.a);
    brush.fillBleed(0.2, "out");
    brush.fillTexture(0.55, 0.45);
    brush.beginShape(0.6);
    for (let x = 0; x <= 600; x += 40) brush.vertex(x, L.base - L.amp * sin(x * L.freq + i * 1.7) - 10 * sin(x * 0.05));
    brush.vertex(600, 600);
    brush.vertex(0, 600);
    brush.endShape(true);
  });
}
