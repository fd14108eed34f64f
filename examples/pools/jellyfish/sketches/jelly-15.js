// jellyfish example pool: a lilac jellyfish sitting low in the frame
function setup() {
  createCanvas(600, 600, WEBGL);
  angleMode(DEGREES);
  noLoop();
}

function bell(cx, cy, w, h, frills) {
  brush.beginShape(0.6);
  for (let a = 180; a <= 360; a += 15) brush.vertex(cx + w * cos(a), cy + h * sin(a));
  for (let i = 0; i <= frills * 2; i++) {
    const x = cx + w - (2 * w * i) / (frills * 2);
    brush.vertex(x, cy + (i % 2 === 0 ? 0 : h * 0.16));
  }
  brush.endShape(true);
}

function tentacle(x, y, length, sway, width, phase) {
  brush.beginShape(0.7);
  for (let t = 0; t <= 10; t++) {
    brush.vertex(x + sway * sin(phase + t * 36) - width * (1 - t / 12), y + (length * t) / 10);
  }
  for (let t = 10; t >= 0; t--) {
    brush.vertex(x + sway * sin(phase + t * 36) + width * (1 - t / 12), y + (length * t) / 10);
  }
  brush.endShape(true);
}

function jelly(cx, cy, size, colours, layers, tentacles, length, bleed, texture) {
  brush.noStroke();
  for (let i = 0; i < tentacles; i++) {
    const x = cx - size * 0.8 + (1.6 * size * i) / max(1, tentacles - 1);
    brush.fill(colours[2], 70);
    brush.fillBleed(bleed * 0.6);
    tentacle(x, cy + size * 0.12, length * (0.75 + 0.25 * sin(i * 67)), size * 0.12, size * 0.035, i * 50);
  }
  for (let layer = 0; layer < layers; layer++) {
    const s = 1 - layer * 0.22;
    brush.fill(colours[layer], 80 + layer * 40);
    brush.fillBleed(bleed * (1 - layer * 0.3));
    brush.fillTexture(texture, 0.3);
    bell(cx, cy - layer * size * 0.06, size * s, size * 0.8 * s, 5);
  }
}

function draw() {
  translate(-width / 2, -height / 2);
  background(246, 241, 232);
  brush.scaleBrushes(3);
  jelly(300, 380, 110, ["#d9b3f0", "#a77fd6", "#6c4a9e"], 2, 6, 150, 0.25, 0.3);
}
