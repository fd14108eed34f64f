// starter pool: formless-rings-8-hibiscus-200
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
  brush.fill("#ee7a5c", 120);
  brush.fillBleed(0.2);
  brush.fillTexture(0.3, 0.2);
  brush.circle(300, 300, 200);
  brush.fill("#f7b39a", 120);
  brush.fillBleed(0.2);
  brush.fillTexture(0.3, 0.2);
  brush.circle(300, 300, 175);
  brush.fill("#7a1026", 120);
  brush.fillBleed(0.2);
  brush.fillTexture(0.3, 0.2);
  brush.circle(300, 300, 150);
  brush.fill("#5b8a45", 120);
  brush.fillBleed(0.2);
  brush.fillTexture(0.3, 0.2);
  brush.circle(300, 300, 125);
  brush.fill("#5b8a45", 120);
  brush.fillBleed(0.2);
  brush.fillTexture(0.3, 0.2);
  brush.circle(300, 300, 100);
  brush.fill("#7a1026", 120);
  brush.fillBleed(0.2);
  brush.fillTexture(0.3, 0.2);
  brush.circle(300, 300, 75);
  brush.fill("#f7b39a", 120);
  brush.fillBleed(0.2);
  brush.fillTexture(0.3, 0.2);
  brush.circle(300, 300, 50);
  brush.fill("#f2c230", 120);
  brush.fillBleed(0.2);
  brush.fillTexture(0.3, 0.2);
  brush.circle(300, 300, 25);
}
