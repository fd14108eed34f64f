// starter pool: formless-wash-mono-400
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
  brush.vertex(20, 100);
  brush.vertex(580, 100);
  brush.vertex(580, 320);
  brush.vertex(20, 320);
  brush.endShape(true);
  brush.fill("#d97a66", 80);
  brush.fillBleed(0.4);
  brush.fillTexture(0.5, 0.2);
  brush.beginShape(0.3);
  brush.vertex(20, 300);
  brush.vertex(580, 300);
  brush.vertex(580, 520);
  brush.vertex(20, 520);
  brush.endShape(true);
}
