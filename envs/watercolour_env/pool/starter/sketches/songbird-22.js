// starter pool: songbird-22
// a small bird perched on a branch
function setup() {
  createCanvas(600, 600, WEBGL);
  angleMode(DEGREES);
  noLoop();
}

const stickStart = [60, 470], stickEnd = [540, 470];
const bodyX = 250, facing = 1;

function stickY(x) {
  return map(x, stickStart[0], stickEnd[0], stickStart[1], stickEnd[1]);
}

let bodyY = 0;

function draw() {
  translate(-width / 2, -height / 2);
  background(248, 244, 236);
  brush.scaleBrushes(3);
  brush.noStroke();
  bodyY = stickY(bodyX) - 34 * 1.2;

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
  for (const dx of [-34 * 0.3, 34 * 0.2]) {
    brush.beginShape(0);
    brush.vertex(bodyX + dx - 1.5, bodyY + 34 * 0.8);
    brush.vertex(bodyX + dx + 1.5, bodyY + 34 * 0.8);
    brush.vertex(bodyX + dx + 1.5, stickY(bodyX + dx));
    brush.vertex(bodyX + dx - 1.5, stickY(bodyX + dx));
    brush.endShape(true);
  }

  // tail
  brush.fill("#7c6448", 160);
  brush.fillBleed(0.1);
  brush.beginShape(0);
  brush.vertex(bodyX - facing * 34 * 0.6, bodyY - 34 * 0.2);
  brush.vertex(bodyX - facing * 34 * 1.9, bodyY + 34 * 0.2);
  brush.vertex(bodyX - facing * 34 * 1.8, bodyY + 34 * 0.5);
  brush.vertex(bodyX - facing * 34 * 0.6, bodyY + 34 * 0.4);
  brush.endShape(true);
  // body and head
  brush.fill("#a8906e", 160);
  brush.fillBleed(0.1);
  brush.circle(bodyX, bodyY, 34);
  brush.fill("#8c7356", 160);
  brush.circle(bodyX + facing * 34 * 0.8, bodyY - 34 * 0.85, 34 * 0.55);
  brush.fill("#e46a30", 170);
  brush.circle(bodyX + facing * 14, bodyY - 6, 20);
  // beak
  brush.fill("#3a3030", 230);
  brush.fillBleed(0.01);
  brush.beginShape(0);
  brush.vertex(bodyX + facing * 34 * 1.3, bodyY - 34 * 0.98);
  brush.vertex(bodyX + facing * 34 * 1.7, bodyY - 34 * 0.85);
  brush.vertex(bodyX + facing * 34 * 1.3, bodyY - 34 * 0.72);
  brush.endShape(true);
  // eye
  brush.fill("#111111", 255);
  brush.fillBleed(0);
  brush.circle(bodyX + facing * 34 * 0.95, bodyY - 34 * 0.95, 34 * 0.09);
  brush.fill("#6b9a4c", 140);
  brush.fillBleed(0.15);
  brush.circle(470, 455, 18);
  brush.circle(495, 450, 14);
}
