// starter pool: songbird-31
// a songbird on a branch, watercolour
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
  background(255, 255, 255);
  brush.scaleBrushes(3);
  brush.noStroke();
  bodyY = stickY(bodyX) - 50 * 1.2;
  brush.fill("#ffee00", 200);
  brush.circle(120, 130, 70);
  brush.fill("#0033ff", 180);
  brush.circle(480, 140, 60);
  // the stick, as a narrow band with a vertex every few pixels
  brush.fill("#ff00cc", 240);
  brush.fillBleed(0.02);
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
  brush.fill("#ffee00", 240);
  brush.fillBleed(0.02);
  brush.beginShape(0);
  brush.vertex(bodyX - facing * 50 * 0.6, bodyY - 50 * 0.2);
  brush.vertex(bodyX - facing * 50 * 1.9, bodyY + 50 * 0.2);
  brush.vertex(bodyX - facing * 50 * 1.8, bodyY + 50 * 0.5);
  brush.vertex(bodyX - facing * 50 * 0.6, bodyY + 50 * 0.4);
  brush.endShape(true);
  // body and head
  brush.fill("#00ff44", 240);
  brush.fillBleed(0.02);
  brush.circle(bodyX, bodyY, 50);
  brush.fill("#00ccff", 240);
  brush.circle(bodyX + facing * 50 * 0.8, bodyY - 50 * 0.85, 50 * 0.55);
  brush.fill("#ff00ff", 240);
  brush.circle(bodyX - 10, bodyY, 30);
  // beak
  brush.fill("#ff3300", 230);
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
