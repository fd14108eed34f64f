// starter pool: formless-blob-90-f4a261
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
  brush.fill("#f4a261", 90);
  brush.fillBleed(0.35);
  brush.fillTexture(0.3, 0.2);
  brush.circle(284, 305, 90);
  brush.fill("#f4a261", 130);
  brush.fillBleed(0.35);
  brush.fillTexture(0.3, 0.2);
  brush.circle(291, 292, 68);
  brush.fill("#f4a261", 170);
  brush.fillBleed(0.35);
  brush.fillTexture(0.3, 0.2);
  brush.circle(301, 289, 45);
}
