// honest probe: small lilac hibiscus, single loose wash, upper left of the page, written for the reward audit (not in the pool)

function setup() {
  createCanvas(600, 600, WEBGL);
  angleMode(DEGREES);
  noLoop();
}

function draw() {
  translate(-width / 2, -height / 2);
  background(251, 249, 244);
  brush.scaleBrushes(3);
  brush.noStroke();

  var ox = 235, oy = 240;
  var petalLen = 150;
  var twist = 12;

  // every petal in one pass, one loose layer of lilac
  brush.fillBleed(0.25, "out");
  brush.fillTexture(0.4, 0.5);
  for (var n = 0; n < 5; n++) {
    var dir = twist + n * 72;
    brush.fill(n % 2 === 0 ? "#9f6fcf" : "#8f62c0", 225);
    brush.beginShape(0.7);
    brush.vertex(ox + 6 * cos(dir), oy + 6 * sin(dir));
    brush.vertex(ox + 50 * cos(dir - 34), oy + 50 * sin(dir - 34));
    // sweep out along the left edge, round the frilled rim, and back
    for (var deg = -38; deg <= 38; deg += 8) {
      var frill = 1 - 0.08 * abs(sin(deg * 6)) - 0.25 * pow(abs(deg) / 38, 3);
      var rr = petalLen * frill;
      brush.vertex(ox + rr * cos(dir + deg), oy + rr * sin(dir + deg));
    }
    brush.vertex(ox + 50 * cos(dir + 34), oy + 50 * sin(dir + 34));
    brush.endShape(true);
  }

  // purple heart, soft edged
  brush.fill("#5e2384", 235);
  brush.fillBleed(0.2);
  brush.beginShape(0.9);
  for (var a = 0; a < 360; a += 30) {
    var rad = 34 + 10 * cos(a * 5);
    brush.vertex(ox + rad * cos(a + twist), oy + rad * sin(a + twist));
  }
  brush.endShape(true);

  // column: a slim tapered sliver, then pale pollen and deep stigma
  var tx = ox + 100, ty = oy + 84;
  brush.fill("#7a3c9e", 245);
  brush.fillBleed(0.02);
  brush.beginShape(0.2);
  brush.vertex(ox - 5, oy + 5);
  brush.vertex(tx - 2, ty + 2);
  brush.vertex(tx + 2, ty - 2);
  brush.vertex(ox + 5, oy - 5);
  brush.endShape(true);
  brush.fill("#f6e27a", 250);
  for (var m = 0; m < 9; m++) {
    var f = 0.55 + m * 0.05;
    brush.circle(lerp(ox, tx, f) + random(-7, 7), lerp(oy, ty, f) + random(-7, 7), 5);
  }
  brush.fill("#5a1f73", 250);
  brush.circle(tx + 4, ty + 4, 6);
}
