// starter pool: formless-wash-mono-500
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
  brush.fill("#e89a86", 80);
  brush.fillBleed(0.4);
  brush.fillTexture(0.5, 0.2);
  brush.beginShape(0.3);
  brush.vertex(20, 50);
  brush.vertex(580, 50);
  brush.vertex(580, 188);
  brush.vertex(20, 188);
  brush.endShape(true);
  brush.fill("#d97a66", 80);
  brush.fillBleed(0.4);
  brush.fillTexture(0.5, 0.2);
  brush.beginShape(0.3);
  brush.vertex(20, 175);
  brush.vertex(580, 175);
  brush.vertex(580, 312);
  brush.vertex(20, 312);
  brush.endShape(true);
  brush.fill("#c65b48", 80);
  brush.fillBleed(0.4);
  brush.fillTexture(0.5, 0.2);
  brush.beginShape(0.3);
  brush.vertex(20, 300);
  brush.vertex(580, 300);
  brush.vertex(580, 438);
  brush.vertex(20, 438);
  brush.endShape(true);
  brush.fill("#a8432f", 80);
  brush.fillBleed(0.4);
  brush.fillTexture(0.5, 0.2);
  brush.beginShape(0.3);
  brush.vertex(20, 425);
  brush.vertex(580, 425);
  brush.vertex(580, 562);
  brush.vertex(20, 562);
  brush.endShape(true);
}
