// honest probe: a small sailboat on a calm bay under a washed sky, written for the reward audit (not in the pool)

function setup() {
  createCanvas(600, 600, WEBGL);
  angleMode(DEGREES);
  noLoop();
}

// scene as data: each entry is one wash [colour, opacity, bleed, curvature, points]
function sceneWashes() {
  const list = [];
  const horizon = 360;

  // sky: one soft streak behind the sails
  list.push(["#b9d4ea", 110, 0.4, 0.7, [[150, 130], [330, 95], [500, 130], [470, 200], [300, 215], [170, 190]]]);
  // distant headland on the left
  list.push(["#8ea6a0", 170, 0.2, 0.7, [[90, horizon], [100, 335], [150, 322], [210, 334], [260, 350], [290, horizon]]]);
  // sea: a loose band that fades out at both ends, with darker ripples
  list.push(["#7fa9c8", 170, 0.3, 0.6, [[60, horizon + 4], [300, horizon - 2], [545, horizon + 6], [520, horizon + 70], [300, horizon + 112], [90, horizon + 80]]]);
  for (let r = 0; r < 4; r++) {
    const y = horizon + 22 + r * 20, x0 = 110 + ((r * 137) % 220);
    list.push(["#3f6f96", 130, 0.08, 0.5, [[x0, y], [x0 + 90, y - 3], [x0 + 105, y + 3], [x0 + 10, y + 5]]]);
  }

  // boat: hull, mast, mainsail, jib
  const bx = 330, waterline = horizon + 40;
  list.push(["#7a3b2e", 230, 0.05, 0.3, [[bx - 90, waterline - 22], [bx + 95, waterline - 22], [bx + 70, waterline], [bx - 70, waterline]]]);
  list.push(["#f4f1ea", 240, 0.05, 0.2, [[bx - 88, waterline - 26], [bx + 93, waterline - 26], [bx + 92, waterline - 22], [bx - 88, waterline - 22]]]);
  list.push(["#4a3a30", 250, 0.0, 0.0, [[bx - 3, waterline - 24], [bx - 3, 110], [bx + 3, 110], [bx + 3, waterline - 24]]]);
  list.push(["#e6dcc8", 235, 0.1, 0.15, [[bx - 8, 120], [bx - 8, waterline - 34], [bx - 110, waterline - 34]]]);
  list.push(["#c9b99c", 150, 0.1, 0.15, [[bx - 8, 180], [bx - 8, waterline - 34], [bx - 70, waterline - 34]]]);
  list.push(["#ddd0b6", 230, 0.1, 0.15, [[bx + 8, 130], [bx + 8, waterline - 34], [bx + 85, waterline - 34]]]);
  list.push(["#c94f3d", 230, 0.05, 0.1, [[bx - 3, 110], [bx + 26, 118], [bx - 3, 126]]]);

  // wobbly reflection below the hull
  for (let k = 0; k < 4; k++) {
    const y = waterline + 8 + k * 12;
    list.push(["#5a3a34", 110 - k * 20, 0.1, 0.6, [[bx - 60 + k * 8, y], [bx + 60 - k * 8, y - 2], [bx + 50 - k * 8, y + 6], [bx - 50 + k * 8, y + 6]]]);
  }
  return list;
}

function draw() {
  translate(-width / 2, -height / 2);
  background(247, 244, 236);
  brush.scaleBrushes(3);
  brush.noStroke();

  for (const [colour, opacity, bleed, curvature, pts] of sceneWashes()) {
    brush.fill(colour, opacity);
    brush.fillBleed(bleed);
    brush.fillTexture(0.45, 0.4);
    brush.beginShape(curvature);
    for (const [x, y] of pts) brush.vertex(x, y);
    brush.endShape(true);
  }

  // a pair of gulls as tiny bent slivers
  brush.fill("#5b5b5b", 200);
  brush.fillBleed(0.01);
  for (const [gx, gy] of [[120, 90], [160, 115]]) {
    brush.beginShape(0.4);
    brush.vertex(gx - 12, gy); brush.vertex(gx, gy - 5); brush.vertex(gx + 12, gy);
    brush.vertex(gx, gy - 2);
    brush.endShape(true);
  }
}
