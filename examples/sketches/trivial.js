// Trivial: one wash circle on paper. Expected: passes the gate, small paint fraction.
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
  brush.fillBleed(0.2);
  brush.circle(300, 300, 110);
}
