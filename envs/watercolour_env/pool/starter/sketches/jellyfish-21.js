// starter pool: jellyfish-21
// a jellyfish at night
function setup() {
  createCanvas(600, 600, WEBGL);
  angleMode(DEGREES);
  noLoop();
}

function dome(cx, cy, r, rows, colour, alpha, bleed) {
  brush.fill(colour, alpha);
  brush.fillBleed(bleed, "out");
  brush.fillTexture(0.4, 0.1);
  for (let row = 0; row < rows; row++) {
    const y = cy - (row * r) / rows;
    const half = sqrt(max(0, r * r - (cy - y) * (cy - y)));
    const dots = max(1, floor(half / (r * 0.22)));
    for (let i = -dots; i <= dots; i++) {
      brush.circle(cx + (i * half) / (dots + 0.5), y, r * 0.24);
    }
  }
}

function beads(x, y, len, count, size, wave, colour, alpha) {
  brush.fill(colour, alpha);
  brush.fillBleed(0.05);
  brush.fillTexture(0.2, 0);
  for (let i = 0; i < count; i++) {
    const t = i / count;
    brush.circle(x + wave * sin(t * 360 + x), y + t * len, size * (1 - t * 0.6));
  }
}

function draw() {
  translate(-width / 2, -height / 2);
  background(20, 40, 60);
  brush.scaleBrushes(3);
  brush.noStroke();
  for (let k = 0; k < 5; k++) beads(250 + k * 25, 300, 180, 12, 6, 10, "#c8e0f0", 120);
  dome(300, 300, 85, 5, "#d8ecf7", 110, 0.25);
}
