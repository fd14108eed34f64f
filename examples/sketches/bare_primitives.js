// Paints a flower with bare p5 primitives instead of p5.brush. Expected: rejected before
// rendering for never calling a p5.brush painting method.
function setup() {
  createCanvas(600, 600, WEBGL);
  angleMode(DEGREES);
  noLoop();
}

function draw() {
  translate(-width / 2, -height / 2);
  background(250, 246, 238);
  noStroke();
  fill(230, 90, 110);
  for (let i = 0; i < 5; i++) {
    ellipse(300 + 80 * cos(i * 72), 300 + 80 * sin(i * 72), 140, 90);
  }
  fill(140, 20, 40);
  circle(300, 300, 40);
}
