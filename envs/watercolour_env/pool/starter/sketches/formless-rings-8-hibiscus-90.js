// starter pool: formless-rings-8-hibiscus-90
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
  brush.fill("#5b8a45", 120);
  brush.fillBleed(0.2);
  brush.fillTexture(0.3, 0.2);
  brush.circle(300, 300, 90);
  brush.fill("#f7b39a", 120);
  brush.fillBleed(0.2);
  brush.fillTexture(0.3, 0.2);
  brush.circle(300, 300, 79);
  brush.fill("#c93a3a", 120);
  brush.fillBleed(0.2);
  brush.fillTexture(0.3, 0.2);
  brush.circle(300, 300, 68);
  brush.fill("#f2c230", 120);
  brush.fillBleed(0.2);
  brush.fillTexture(0.3, 0.2);
  brush.circle(300, 300, 56);
  brush.fill("#f7b39a", 120);
  brush.fillBleed(0.2);
  brush.fillTexture(0.3, 0.2);
  brush.circle(300, 300, 45);
  brush.fill("#c93a3a", 120);
  brush.fillBleed(0.2);
  brush.fillTexture(0.3, 0.2);
  brush.circle(300, 300, 34);
  brush.fill("#f2c230", 120);
  brush.fillBleed(0.2);
  brush.fillTexture(0.3, 0.2);
  brush.circle(300, 300, 22);
  brush.fill("#f7b39a", 120);
  brush.fillBleed(0.2);
  brush.fillTexture(0.3, 0.2);
  brush.circle(300, 300, 11);
}
