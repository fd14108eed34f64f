// starter pool: songbird-25
// a songbird sitting on a twig
function setup() {
  createCanvas(600, 600, WEBGL);
  angleMode(DEGREES);
  noLoop();
}

const stickStart = [0, 430], stickEnd = [600, 430];
const bodyX = 290, facing = 1;

function stickY(x) {
  return map(x, stickStart[0], stickEnd[0], stickStart[1], stickEnd[1]);
}

let bodyY = 0;

function draw() {
  translate(-width / 2, -height / 2);
  background(248, 244, 236);
  brush.scaleBrushes(3);
  brush.noStroke();
  bodyY = stickY(bodyX) - 130 * 1.2;

  // the stick, as a narrow band with a vertex every few pixels
  brush.fill("#6b5342", 200);
  brush.fillBleed(0.0);
  brush.fillTexture(0.3, 0.2);
  brush.beginShape(0);
  for (let x = stickStart[0]; x <= stickEnd[0]; x += 12) brush.vertex(x, stickY(x) - 8);
  for (let x = stickEnd[0]; x >= stickStart[0]; x -= 12) brush.vertex(x, stickY(x) + 8);
  brush.endShape(true);

  // tail
  brush.fill("#5e4636", 250);
  brush.fillBleed(0.0);
  brush.beginShape(0);
  brush.vertex(bodyX - facing * 130 * 0.6, bodyY - 130 * 0.2);
  brush.vertex(bodyX - facing * 130 * 1.9, bodyY + 130 * 0.2);
  brush.vertex(bodyX - facing * 130 * 1.8, bodyY + 130 * 0.5);
  brush.vertex(bodyX - facing * 130 * 0.6, bodyY + 130 * 0.4);
  brush.endShape(true);
  // body and head
  brush.fill("#5e4636", 250);
  brush.fillBleed(0.0);
  brush.circle(bodyX, bodyY, 130);
  brush.fill("#5e4636", 250);
  brush.circle(bodyX + facing * 130 * 0.8, bodyY - 130 * 0.85, 130 * 0.55);
  brush.fill("#4a362a", 250);
  brush.circle(bodyX + 30, bodyY - 60, 110);
  // beak
  brush.fill("#3a3030", 230);
  brush.fillBleed(0.01);
  brush.beginShape(0);
  brush.vertex(bodyX + facing * 130 * 1.3, bodyY - 130 * 0.98);
  brush.vertex(bodyX + facing * 130 * 1.7, bodyY - 130 * 0.85);
  brush.vertex(bodyX + facing * 130 * 1.3, bodyY - 130 * 0.72);
  brush.endShape(true);
  // eye
  brush.fill("#111111", 255);
  brush.fillBleed(0);
  brush.circle(bodyX + facing * 130 * 0.95, bodyY - 130 * 0.95, 130 * 0.09);

}
