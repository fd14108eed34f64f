// starter pool: formless-stripes-4-hibiscus-300
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
  brush.fill("#f7b39a", 150);
  brush.fillBleed(0.2);
  brush.fillTexture(0.3, 0.2);
  brush.beginShape(0.0);
  brush.vertex(150, 150);
  brush.vertex(225, 150);
  brush.vertex(225, 450);
  brush.vertex(150, 450);
  brush.endShape(true);
  brush.fill("#ee7a5c", 150);
  brush.fillBleed(0.2);
  brush.fillTexture(0.3, 0.2);
  brush.beginShape(0.0);
  brush.vertex(225, 150);
  brush.vertex(300, 150);
  brush.vertex(300, 450);
  brush.vertex(225, 450);
  brush.endShape(true);
  brush.fill("#c93a3a", 150);
  brush.fillBleed(0.2);
  brush.fillTexture(0.3, 0.2);
  brush.beginShape(0.0);
  brush.vertex(300, 150);
  brush.vertex(375, 150);
  brush.vertex(375, 450);
  brush.vertex(300, 450);
  brush.endShape(true);
  brush.fill("#7a1026", 150);
  brush.fillBleed(0.2);
  brush.fillTexture(0.3, 0.2);
  brush.beginShape(0.0);
  brush.vertex(375, 150);
  brush.vertex(450, 150);
  brush.vertex(450, 450);
  brush.vertex(375, 450);
  brush.endShape(true);
}
