// honest probe: peach hibiscus with vein marks and serrated leaves, written for the reward audit (not in the pool)

let pen = { x: 0, y: 0, h: 0 };
let trail = [];

function setup() {
  createCanvas(600, 600, WEBGL);
  angleMode(DEGREES);
  noLoop();
}

// tiny turtle: move forward, turn, remember where we went
function startAt(x, y, h) { pen = { x: x, y: y, h: h }; trail = [[x, y]]; }
function walk(d) { pen.x += d * cos(pen.h); pen.y += d * sin(pen.h); trail.push([pen.x, pen.y]); }
function turn(a) { pen.h += a; }

function commit(colour, alpha, bleed, bend) {
  brush.fill(colour, alpha);
  brush.fillBleed(bleed);
  brush.fillTexture(0.5, 0.45);
  brush.beginShape(bend);
  for (let i = 0; i < trail.length; i++) brush.vertex(trail[i][0], trail[i][1]);
  brush.endShape(true);
}

// a petal walked out from the hub: out along one edge, around the wide rim, back in
function walkPetal(x, y, h, size) {
  startAt(x, y, h - 28);
  walk(size * 0.45); turn(14); walk(size * 0.35);
  for (let i = 0; i < 7; i++) { turn(24); walk(size * 0.2 * (0.85 + 0.3 * noise(x + i, h))); }
  turn(14); walk(size * 0.35); turn(14); walk(size * 0.4);
}

// a leaf with a saw edge, walked tip-ward on one side and back on the other
function walkLeaf(x, y, h, size) {
  startAt(x, y, h - 42);
  for (let i = 0; i < 8; i++) { walk(size * 0.13); turn(i % 2 ? -10 : 31); }
  turn(96);
  for (let i = 0; i < 8; i++) { walk(size * 0.13); turn(i % 2 ? -10 : 31); }
}

function draw() {
  translate(-width / 2, -height / 2);
  background(246, 243, 235);
  brush.scaleBrushes(3);
  brush.noStroke();

  let hubX = 300, hubY = 320, size = 138;

  walkLeaf(hubX - 80, hubY + 70, 135, 200);
  commit("#4d7c3a", 205, 0.18, 0.5);
  walkLeaf(hubX + 90, hubY + 60, 35, 180);
  commit("#3c6b30", 205, 0.18, 0.5);
  walkLeaf(hubX + 50, hubY - 110, -60, 150);
  commit("#5b8c45", 190, 0.18, 0.5);

  for (let k = 0; k < 5; k++) {
    walkPetal(hubX, hubY, -90 + k * 72, size);
    commit("#f59a6c", 215, 0.25, 0.85);
  }
  for (let k = 0; k < 5; k++) {
    walkPetal(hubX, hubY, -90 + k * 72 + 5, size * 0.55);
    commit("#ea7b5c", 150, 0.22, 0.85);
  }

  // veins: slim darker slivers fanning into each petal
  for (let k = 0; k < 5; k++) {
    for (let v = -1; v <= 1; v++) {
      let a = -90 + k * 72 + v * 14;
      let r = size * (v === 0 ? 0.72 : 0.6);
      startAt(hubX, hubY, a);
      trail = [[hubX + 2 * cos(a + 90), hubY + 2 * sin(a + 90)], [hubX + r * cos(a), hubY + r * sin(a)], [hubX + 2 * cos(a - 90), hubY + 2 * sin(a - 90)]];
      commit("#c4503f", 110, 0.02, 0.2);
    }
  }
  brush.fill("#9c2b2b", 220);
  brush.fillBleed(0.15);
  brush.circle(hubX, hubY, 20);

  // column, pollen, stigma
  startAt(hubX, hubY, 0);
  trail = [[hubX - 4, hubY], [hubX - 4 - 20, hubY - 110], [hubX + 4 - 20, hubY - 110], [hubX + 4, hubY]];
  commit("#d6664e", 240, 0.02, 0.2);
  brush.fill("#f5c23b", 250);
  for (let i = 0; i < 10; i++) brush.circle(hubX - 18 + random(-10, 10), hubY - 70 - random(0, 35), random(3, 5));
  brush.fill("#a31e2a", 250);
  brush.circle(hubX - 20, hubY - 116, 7);
}
