// starter pool: formless-blob-150-f6c1d0
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
  brush.fill("#f6c1d0", 90);
  brush.fillBleed(0.35);
  brush.fillTexture(0.3, 0.2);
  brush.circle(294, 306, 150);
}
