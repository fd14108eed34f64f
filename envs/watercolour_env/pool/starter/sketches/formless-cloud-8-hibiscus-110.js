// starter pool: formless-cloud-8-hibiscus-110
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
  brush.fill("#5b8a45", 110);
  brush.fillBleed(0.3);
  brush.fillTexture(0.3, 0.2);
  brush.circle(297, 301, 50);
  brush.fill("#c93a3a", 110);
  brush.fillBleed(0.3);
  brush.fillTexture(0.3, 0.2);
  brush.circle(275, 369, 50);
  brush.fill("#7a1026", 110);
  brush.fillBleed(0.3);
  brush.fillTexture(0.3, 0.2);
  brush.circle(314, 232, 50);
  brush.fill("#5b8a45", 110);
  brush.fillBleed(0.3);
  brush.fillTexture(0.3, 0.2);
  brush.circle(209, 304, 50);
  brush.fill("#f2c230", 110);
  brush.fillBleed(0.3);
  brush.fillTexture(0.3, 0.2);
  brush.circle(236, 362, 50);
  brush.fill("#c93a3a", 110);
  brush.fillBleed(0.3);
  brush.fillTexture(0.3, 0.2);
  brush.circle(350, 301, 50);
  brush.fill("#5b8a45", 110);
  brush.fillBleed(0.3);
  brush.fillTexture(0.3, 0.2);
  brush.circle(253, 266, 50);
  brush.fill("#c93a3a", 110);
  brush.fillBleed(0.3);
  brush.fillTexture(0.3, 0.2);
  brush.circle(349, 209, 50);
}
