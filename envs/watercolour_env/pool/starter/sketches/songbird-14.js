// starter pool: songbird-14
// a perched songbird
function setup() {
  createCanvas(600, 600, WEBGL);
  angleMode(DEGREES);
  noLoop();
}

const stickStart = [480, 70], stickEnd = [600, 60];
const bodyX = 560, facing = 1;

function stickY(x) {
  return map(x, stickStart[0], stickEnd[0], stickStart[1], stickEnd[1]);
}

let bodyY = 0;

function draw() {
  translate(-width / 2, -height / 2);
  background(248, 244, 236);
  brush.scaleBrushes(3);
  brush.noStroke();
  bodyY = stickY(bodyX) - 16 * 1.2;

  // the stick, as a narrow band with a vertex every few pixels
  brush.fill("#6b5342", 200);
  brush.fillBleed(0.1);
  brush.fillTexture(0.3, 0.2);
  brush.beginShape(0);
  for (let x = stickStart[0]; x <= stickEnd[0]; x += 12) brush.vertex(x, stickY(x) - 3);
  for (let x = stickEnd[0]; x >= stickStart[0]; x -= 12) brush.vertex(x, stickY(x) + 3);
  brush.endShape(true);

  // legs
  brush.fill("#5a4a40", 220);
  brush.fillBleed(0.01);
  for (const dx of [-16 * 0.3, 16 * 0.2]) {
    brush.beginShape(0);
    brush.vertex(bodyX + dx - 1.5, bodyY + 16 * 0.8);
    brush.vertex(bodyX + dx + 1.5, bodyY + 16 * 0.8);
    brush.vertex(bodyX + dx + 1.5, stickY(bodyX + dx));
    brush.vertex(bodyX + dx - 1.5, stickY(bodyX + dx));
    brush.endShape(true);
  }

  // tail
  brush.fill("#7a6a50", 170);
  brush.fillBleed(0.1);
  brush.beginShape(0);
  brush.vertex(bodyX - facing * 16 * 0.6, bodyY - 16 * 0.2);
  brush.vertex(bodyX - facing * 16 * 1.9, bodyY + 16 * 0.2);
  brush.vertex(bodyX - facing * 16 * 1.8, bodyY + 16 * 0.5);
  brush.vertex(bodyX - facing * 16 * 0.6, bodyY + 16 * 0.4);
  brush.endShape(true);
  // body and head
  brush.fill("#9a8a70", 170);
  brush.fillBleed(0.1);
  brush.circle(bodyX, bodyY, 16);
  brush.fill("#8a7a60", 170);
  brush.circle(bodyX + facing * 16 * 0.8, bodyY - 16 * 0.85, 16 * 0.55);
  
  // beak
  brush.fill("#3a3030", 230);
  brush.fillBleed(0.01);
  brush.beginShape(0);
  brush.vertex(bodyX + facing * 16 * 1.3, bodyY - 16 * 0.98);
  brush.vertex(bodyX + facing * 16 * 1.7, bodyY - 16 * 0.85);
  brush.vertex(bodyX + facing * 16 * 1.3, bodyY - 16 * 0.72);
  brush.endShape(true);
  // eye
  brush.fill("#111111", 255);
  brush.fillBleed(0);
  brush.circle(bodyX + facing * 16 * 0.95, bodyY - 16 * 0.95, 16 * 0.09);

}
