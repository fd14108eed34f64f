// starter pool: formless-rings-5-mono-120
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
  brush.fill("#a8432f", 120);
  brush.fillBleed(0.2);
  brush.fillTexture(0.3, 0.2);
  brush.circle(300, 300, 120);
  brush.fill("#e89a86", 120);
  brush.fillBleed(0.2);
  brush.fillTexture(0.3, 0.2);
  brush.circle(300, 300, 96);
  brush.fill("#d97a66", 120);
  brush.fillBleed(0.2);
  brush.fillTexture(0.3, 0.2);
  brush.circle(300, 300, 72);
  brush.fill("#a8432f", 120);
  brush.fillBleed(0.2);
  brush.fillTexture(0.3, 0.2);
  brush.circle(300, 300, 48);
  brush.fill("#e89a86", 120);
  brush.fillBleed(0.2);
  brush.fillTexture(0.3, 0.2);
  brush.circle(300, 300, 24);
}
