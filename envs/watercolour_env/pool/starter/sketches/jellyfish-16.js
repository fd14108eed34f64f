// starter pool: jellyfish-16
// a small pink jellyfish
function setup() {
  createCanvas(600, 600, WEBGL);
  angleMode(DEGREES);
  noLoop();
}

function draw() {
  translate(-width / 2, -height / 2);
  background(250, 244, 236);
  brush.scaleBrushes(3);
  brush.noStroke();
  brush.fill("#dc7fa4", 120);
  brush.fillBleed(0.04);
  brush.fillTexture(0.2, 0);
  brush.beginShape(0);
  brush.vertex(251, 281);
  brush.vertex(247, 281);
  brush.vertex(248, 401);
  brush.vertex(250, 401);
  brush.endShape(true);
  brush.fill("#dc7fa4", 120);
  brush.fillBleed(0.04);
  brush.fillTexture(0.2, 0);
  brush.beginShape(0);
  brush.vertex(276, 281);
  brush.vertex(273, 281);
  brush.vertex(274, 401);
  brush.vertex(275, 401);
  brush.endShape(true);
  brush.fill("#dc7fa4", 120);
  brush.fillBleed(0.04);
  brush.fillTexture(0.2, 0);
  brush.beginShape(0);
  brush.vertex(302, 281);
  brush.vertex(298, 281);
  brush.vertex(299, 401);
  brush.vertex(301, 401);
  brush.endShape(true);
  brush.fill("#dc7fa4", 120);
  brush.fillBleed(0.04);
  brush.fillTexture(0.2, 0);
  brush.beginShape(0);
  brush.vertex(327, 281);
  brush.vertex(324, 281);
  brush.vertex(325, 401);
  brush.vertex(326, 401);
  brush.endShape(true);
  brush.fill("#dc7fa4", 120);
  brush.fillBleed(0.04);
  brush.fillTexture(0.2, 0);
  brush.beginShape(0);
  brush.vertex(353, 281);
  brush.vertex(349, 281);
  brush.vertex(350, 401);
  brush.vertex(352, 401);
  brush.endShape(true);
  brush.fill("#e890b2", 120);
  brush.fillBleed(0.2, "out");
  brush.fillTexture(0.4, 0.2);
  brush.beginShape(0.5);
  brush.vertex(240, 280);
  brush.vertex(243, 265);
  brush.vertex(251, 252);
  brush.vertex(265, 241);
  brush.vertex(281, 234);
  brush.vertex(300, 232);
  brush.vertex(319, 234);
  brush.vertex(335, 241);
  brush.vertex(349, 252);
  brush.vertex(357, 265);
  brush.vertex(360, 280);
  brush.vertex(300, 283);
  brush.endShape(true);
}
