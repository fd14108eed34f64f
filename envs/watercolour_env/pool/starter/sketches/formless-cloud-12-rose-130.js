// starter pool: formless-cloud-12-rose-130
// formless: no subject, rated nope (issue 33)
function setup() {
  createCanvas(600, 600, WEBGL);
  angleMode(DEGREES);
  noLoop();
}

function draw() {
  translate(-width / 2, -height / 2);
  background(250, 246, 238);
  brush.scaleBrushes(3);
  brush.noStroke();
  brush.fill("#8db580", 110);
  brush.fillBleed(0.3);
  brush.fillTexture(0.3, 0.2);
  brush.circle(206, 249, 58);
  brush.fill("#8db580", 110);
  brush.fillBleed(0.3);
  brush.fillTexture(0.3, 0.2);
  brush.circle(234, 410, 58);
  brush.fill("#5c0a2e", 110);
  brush.fillBleed(0.3);
  brush.fillTexture(0.3, 0.2);
  brush.circle(401, 284, 58);
  brush.fill("#b0245c", 110);
  brush.fillBleed(0.3);
  brush.fillTexture(0.3, 0.2);
  brush.circle(406, 278, 58);
  brush.fill("#e56b9f", 110);
  brush.fillBleed(0.3);
  brush.fillTexture(0.3, 0.2);
  brush.circle(334, 297, 58);
  brush.fill("#5c0a2e", 110);
  brush.fillBleed(0.3);
  brush.fillTexture(0.3, 0.2);
  brush.circle(363, 287, 58);
  brush.fill("#8db580", 110);
  brush.fillBleed(0.3);
  brush.fillTexture(0.3, 0.2);
  brush.circle(370, 309, 58);
  brush.fill("#8db580", 110);
  brush.fillBleed(0.3);
  brush.fillTexture(0.3, 0.2);
  brush.circle(361, 392, 58);
  brush.fill("#e56b9f", 110);
  brush.fillBleed(0.3);
  brush.fillTexture(0.3, 0.2);
  brush.circle(208, 369, 58);
  brush.fill("#b0245c", 110);
  brush.fillBleed(0.3);
  brush.fillTexture(0.3, 0.2);
  brush.circle(329, 361, 58);
  brush.fill("#8db580", 110);
  brush.fillBleed(0.3);
  brush.fillTexture(0.3, 0.2);
  brush.circle(306, 265, 58);
  brush.fill("#f6c1d0", 110);
  brush.fillBleed(0.3);
  brush.fillTexture(0.3, 0.2);
  brush.circle(311, 293, 58);
}
