// starter pool: jellyfish-31
// a little jellyfish
function setup() {
  createCanvas(600, 600, WEBGL);
  angleMode(DEGREES);
  noLoop();
}

function draw() {
  translate(-width / 2, -height / 2);
  background(248, 243, 232);
  brush.scaleBrushes(3);
  brush.noStroke();
  brush.fill("#6a90c4", 140);
  brush.fillBleed(0.04);
  brush.fillTexture(0.2, 0);
  brush.beginShape(0);
  brush.vertex(526, 546);
  brush.vertex(523, 546);
  brush.vertex(524, 596);
  brush.vertex(525, 596);
  brush.endShape(true);
  brush.fill("#6a90c4", 140);
  brush.fillBleed(0.04);
  brush.fillTexture(0.2, 0);
  brush.beginShape(0);
  brush.vertex(546, 546);
  brush.vertex(543, 546);
  brush.vertex(544, 596);
  brush.vertex(545, 596);
  brush.endShape(true);
  brush.fill("#6a90c4", 140);
  brush.fillBleed(0.04);
  brush.fillTexture(0.2, 0);
  brush.beginShape(0);
  brush.vertex(567, 546);
  brush.vertex(564, 546);
  brush.vertex(565, 596);
  brush.vertex(566, 596);
  brush.endShape(true);
  brush.fill("#6a90c4", 140);
  brush.fillBleed(0.04);
  brush.fillTexture(0.2, 0);
  brush.beginShape(0);
  brush.vertex(587, 546);
  brush.vertex(584, 546);
  brush.vertex(585, 596);
  brush.vertex(586, 596);
  brush.endShape(true);
  brush.fill("#7fa4d4", 140);
  brush.fillBleed(0.2, "out");
  brush.fillTexture(0.4, 0.2);
  brush.beginShape(0.5);
  brush.vertex(519, 545);
  brush.vertex(521, 536);
  brush.vertex(526, 529);
  brush.vertex(534, 522);
  brush.vertex(544, 518);
  brush.vertex(555, 517);
  brush.vertex(566, 518);
  brush.vertex(576, 522);
  brush.vertex(584, 529);
  brush.vertex(589, 536);
  brush.vertex(591, 545);
  brush.vertex(555, 547);
  brush.endShape(true);
}
