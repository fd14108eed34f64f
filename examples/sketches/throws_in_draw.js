// Throws inside draw after painting one shape. Expected: rejected as a sketch error.
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
  brush.circle(300, 300, 110);
  const petals = undefined;
  brush.circle(petals.length, 300, 40);
}
