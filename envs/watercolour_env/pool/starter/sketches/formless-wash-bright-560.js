// starter pool: formless-wash-bright-560
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
  brush.fill("#e63946", 80);
  brush.fillBleed(0.4);
  brush.fillTexture(0.5, 0.2);
  brush.beginShape(0.3);
  brush.vertex(20, 20);
  brush.vertex(580, 20);
  brush.vertex(580, 174);
  brush.vertex(20, 174);
  brush.endShape(true);
  brush.fill("#f4a261", 80);
  brush.fillBleed(0.4);
  brush.fillTexture(0.5, 0.2);
  brush.beginShape(0.3);
  brush.vertex(20, 160);
  brush.vertex(580, 160);
  brush.vertex(580, 314);
  brush.vertex(20, 314);
  brush.endShape(true);
  brush.fill("#e9c46a", 80);
  brush.fillBleed(0.4);
  brush.fillTexture(0.5, 0.2);
  brush.beginShape(0.3);
  brush.vertex(20, 300);
  brush.vertex(580, 300);
  brush.vertex(580, 454);
  brush.vertex(20, 454);
  brush.endShape(true);
  brush.fill("#2a9d8f", 80);
  brush.fillBleed(0.4);
  brush.fillTexture(0.5, 0.2);
  brush.beginShape(0.3);
  brush.vertex(20, 440);
  brush.vertex(580, 440);
  brush.vertex(580, 594);
  brush.vertex(20, 594);
  brush.endShape(true);
}
