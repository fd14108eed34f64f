// starter pool: formless-cloud-12-bright-110
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
  brush.fill("#e63946", 110);
  brush.fillBleed(0.3);
  brush.fillTexture(0.3, 0.2);
  brush.circle(289, 349, 50);
  brush.fill("#f4a261", 110);
  brush.fillBleed(0.3);
  brush.fillTexture(0.3, 0.2);
  brush.circle(288, 380, 50);
  brush.fill("#e9c46a", 110);
  brush.fillBleed(0.3);
  brush.fillTexture(0.3, 0.2);
  brush.circle(300, 384, 50);
  brush.fill("#2a9d8f", 110);
  brush.fillBleed(0.3);
  brush.fillTexture(0.3, 0.2);
  brush.circle(323, 212, 50);
  brush.fill("#264653", 110);
  brush.fillBleed(0.3);
  brush.fillTexture(0.3, 0.2);
  brush.circle(398, 284, 50);
  brush.fill("#8338ec", 110);
  brush.fillBleed(0.3);
  brush.fillTexture(0.3, 0.2);
  brush.circle(219, 305, 50);
  brush.fill("#ff006e", 110);
  brush.fillBleed(0.3);
  brush.fillTexture(0.3, 0.2);
  brush.circle(312, 199, 50);
  brush.fill("#3a86ff", 110);
  brush.fillBleed(0.3);
  brush.fillTexture(0.3, 0.2);
  brush.circle(238, 356, 50);
  brush.fill("#fb5607", 110);
  brush.fillBleed(0.3);
  brush.fillTexture(0.3, 0.2);
  brush.circle(346, 337, 50);
  brush.fill("#06d6a0", 110);
  brush.fillBleed(0.3);
  brush.fillTexture(0.3, 0.2);
  brush.circle(373, 367, 50);
  brush.fill("#ffbe0b", 110);
  brush.fillBleed(0.3);
  brush.fillTexture(0.3, 0.2);
  brush.circle(209, 273, 50);
  brush.fill("#118ab2", 110);
  brush.fillBleed(0.3);
  brush.fillTexture(0.3, 0.2);
  brush.circle(308, 192, 50);
}
