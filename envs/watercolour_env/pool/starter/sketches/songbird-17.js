// starter pool: songbird-17
// a small bird perched on a branch
function setup() {
  createCanvas(600, 600, WEBGL);
  angleMode(DEGREES);
  noLoop();
}

const stickStart = [40, 420], stickEnd = [560, 400];
const bodyX = 300, facing = 1;

function stickY(x) {
  return map(x, stickStart[0], stickEnd[0], stickStart[1], stickEnd[1]);
}

let bodyY = 0;

function draw() {
  translate(-width / 2, -height / 2);
  background(248, 244, 236);
  brush.scaleBrushes(3);
  brush.noStroke();
  bodyY = stickY(bodyX) - 50 * 1.2;

  // the stick, as a narrow band with a vertex every few pixels
  brush.fill("#6b5342", 200);
  brush.fillBleed(0.1);
  brush.fillTexture(0.3, 0.2);
  brush.beginShape(0);
  for (let x = stickStart[0]; x <= stickEnd[0]; x += 12) brush.vertex(x, stickY(x) - 6);
  for (let x = stickEnd[0]; x >= stickStart[0]; x -= 12) brush.vertex(x, stickY(x) + 6);
  brush.endShape(true);

  // legs
  brush.fill("#5a4a40", 220);
  brush.fillBleed(0.01);
  for (const dx of [-50 * 0.3, 50 * 0.2]) {
    brush.beginShape(0);
    brush.vertex(bodyX + dx - 1.5, bodyY + 50 * 0.8);
    brush.vertex(bodyX + dx + 1.5, bodyY + 50 * 0.8);
    brush.vertex(bodyX + dx + 1.5, stickY(bodyX + dx));
    brush.vertex(bodyX + dx - 1.5, stickY(bodyX + dx));
    brush.endShape(true);
  }

  // tail
  brush.fill("#8a6a4a", 170);
  brush.fillBleed(0.1);
  brush.beginShape(0);
  brush.vertex(bodyX - facing * 50 * 0.6, bodyY - 50 * 0.2);
  brush.vertex(bodyX - facing * 50 * 1.9, bodyY + 50 * 0.2);
  brush.vertex(bodyX - facing * 50 * 1.8, bodyY + 50 * 0.5);
  brush.vertex(bodyX - facing * 50 * 0.6, bodyY + 50 * 0.4);
  brush.endShape(true);
  // body and head
  brush.fill("#b08860", 170);
  brush.fillBleed(0.1);
  brush.circle(bodyX, bodyY, 50);
  brush.fill("#a07850", 170);
  brush.circle(bodyX + facing * 50 * 0.8, bodyY - 50 * 0.85, 50 * 0.55);
  brush.fill("#7d5a3a", 150);
  brush.circle(bodyX - facing * 12, bodyY - 4, 26);
  // beak
  brush.fill("#3a3030", 230);
  brush.fillBleed(0.01);
  brush.beginShape(0);
  brush.vertex(bodyX + facing * 50 * 1.3, bodyY - 50 * 0.98);
  brush.vertex(bodyX + facing * 50 * 1.7, bodyY - 50 * 0.85);
  brush.vertex(bodyX + facing * 50 * 1.3, bodyY - 50 * 0.72);
  brush.endShape(true);
  // eye
  brush.fill("#111111", 255);
  brush.fillBleed(0);
  brush.circle(bodyX + facing * 50 * 0.95, bodyY - 50 * 0.95, 50 * 0.09);

}
