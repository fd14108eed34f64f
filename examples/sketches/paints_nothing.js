// Calls p5.brush, but every shape lies off the canvas. Expected: rejected as a blank canvas.
function setup() {
  createCanvas(600, 600, WEBGL);
  angleMode(DEGREES);
  noLoop();
}

function draw() {
  translate(-width / 2, -height / 2);
  background(250, 246, 238);
  brush.noStroke();
  brush.fill("#d94f70", 90);
  brush.circle(-900, -900, 40);
}
