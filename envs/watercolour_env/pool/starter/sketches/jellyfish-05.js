// starter pool: jellyfish-05
// a tiny blue jellyfish
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
  brush.fill("#a6bbd8", 110);
  brush.fillBleed(0.04);
  brush.fillTexture(0.2, 0);
  brush.beginShape(0);
  brush.vertex(287, 261);
  brush.vertex(285, 261);
  brush.vertex(285, 311);
  brush.vertex(286, 311);
  brush.endShape(true);
  brush.fill("#a6bbd8", 110);
  brush.fillBleed(0.04);
  brush.fillTexture(0.2, 0);
  brush.beginShape(0);
  brush.vertex(331, 261);
  brush.vertex(329, 261);
  brush.vertex(330, 311);
  brush.vertex(330, 311);
  brush.endShape(true);
  brush.fill("#a6bbd8", 110);
  brush.fillBleed(0.04);
  brush.fillTexture(0.2, 0);
  brush.beginShape(0);
  brush.vertex(375, 261);
  brush.vertex(373, 261);
  brush.vertex(374, 311);
  brush.vertex(375, 311);
  brush.endShape(true);
  brush.fill("#9db4d4", 110);
  brush.fillBleed(0.2, "out");
  brush.fillTexture(0.4, 0.2);
  brush.beginShape(0.5);
  brush.vertex(278, 260);
  brush.vertex(281, 248);
  brush.vertex(288, 236);
  brush.vertex(299, 228);
  brush.vertex(314, 222);
  brush.vertex(330, 220);
  brush.vertex(346, 222);
  brush.vertex(361, 228);
  brush.vertex(372, 236);
  brush.vertex(379, 248);
  brush.vertex(382, 260);
  brush.vertex(330, 262);
  brush.endShape(true);
}
