// other subject: snail, written for the reward audit (not in the pool)

function setup() {
  createCanvas(600, 600, WEBGL);
  angleMode(DEGREES);
  noLoop();
}

var shell = { x: 280, y: 300, r: 88 };

function lay(pts, ink, alpha, bleed, curve) {
  brush.fill(ink, alpha);
  brush.fillBleed(bleed);
  brush.fillTexture(0.5, 0.5);
  brush.beginShape(curve);
  for (var i = 0; i < pts.length; i++) brush.vertex(pts[i][0], pts[i][1]);
  brush.endShape(true);
}

function disc(cx, cy, r, n) {
  var pts = [];
  for (var i = 0; i < n; i++) pts.push([cx + r * cos(i * 360 / n), cy + r * sin(i * 360 / n)]);
  return pts;
}

// a point on the shell's spiral: radius shrinks as the angle winds inward
function spiral(t) {
  var r = shell.r * pow(0.72, t / 360);
  return [shell.x + 14 * (1 - r / shell.r) + r * cos(t + 200) * 0.92, shell.y + r * sin(t + 200)];
}

function draw() {
  translate(-width / 2, -height / 2);
  background(240, 242, 233);
  brush.scaleBrushes(3);
  brush.noStroke();

  // damp ground and a fallen leaf under the snail
  lay([[110, 395], [300, 380], [500, 388], [520, 410], [300, 420], [120, 416]], "#c9d3b0", 130, 0.3, 0.7);
  var leaf = [];
  for (var i = 0; i <= 10; i++) leaf.push([120 + i * 40, 400 - 34 * sin(i * 18) + i * 2]);
  for (var j = 10; j >= 0; j--) leaf.push([120 + j * 40, 402 + 20 * sin(j * 18) + j * 2]);
  lay(leaf, "#8fae5c", 190, 0.04, 0.7);
  lay([[130, 401], [520, 420], [520, 423], [130, 404]], "#5f7d3a", 160, 0.02, 0.2);

  // the soft body: a long foot with a raised neck and head on the right
  var body = [[170, 396], [200, 384], [300, 382], [380, 372], [420, 340], [440, 316], [462, 310], [478, 322],
              [470, 346], [446, 376], [420, 396], [300, 402], [190, 404]];
  lay(body, "#a98b68", 240, 0.05, 0.7);
  lay(body, "#b99b76", 150, 0.1, 0.7);
  lay([[200, 396], [300, 394], [420, 390], [440, 376], [300, 404], [190, 404]], "#9d8466", 140, 0.15, 0.7);

  // tentacles with dark eye tips, and a small lower pair
  lay([[452, 316], [470, 262], [476, 262], [462, 318]], "#b89c7b", 230, 0.02, 0.3);
  lay([[464, 318], [496, 272], [502, 275], [472, 322]], "#b89c7b", 230, 0.02, 0.3);
  lay([[470, 330], [492, 322], [493, 326], [472, 334]], "#b89c7b", 220, 0.02, 0.3);
  lay(disc(473, 260, 5, 10), "#4a3a2c", 235, 0.02, 0.8);
  lay(disc(499, 271, 5, 10), "#4a3a2c", 235, 0.02, 0.8);

  // shell: layered rings from ochre to russet, shrinking toward the spiral's heart
  lay(disc(shell.x, shell.y, shell.r, 24), "#d9a55a", 235, 0.08, 0.9);
  lay(disc(shell.x + 18, shell.y + 16, shell.r * 0.8, 20), "#a55a28", 110, 0.25, 0.9);
  lay(disc(shell.x + 4, shell.y - 4, shell.r * 0.45, 16), "#e8bd76", 140, 0.2, 0.9);

  // the spiral groove: a tapering band, one turn per wash
  for (var turn = 0; turn < 4; turn++) {
    var outer = [], inner = [];
    for (var t = 40 + turn * 340; t <= 45 + turn * 340 + 340; t += 15) {
      var p = spiral(t), w = 4.5 * pow(0.8, t / 360);
      var dx = p[0] - shell.x, dy = p[1] - shell.y, d = max(1, sqrt(dx * dx + dy * dy));
      outer.push([p[0] + w * dx / d, p[1] + w * dy / d]);
      inner.unshift([p[0] - w * dx / d, p[1] - w * dy / d]);
    }
    lay(outer.concat(inner), "#5c3318", 215, 0.02, 0.5);
  }

  // growth lines across the whorl and a highlight on top
  for (var a = 200; a < 340; a += 20) {
    var p0 = spiral(a), p1 = spiral(a + 360);
    lay([[p0[0], p0[1]], [p1[0], p1[1]], [p1[0] + 2, p1[1] + 1], [p0[0] + 2, p0[1] + 1]], "#8a4f25", 110, 0.02, 0.1);
  }
  lay(disc(shell.x - 20, shell.y - 55, 16, 12), "#fbeccd", 170, 0.2, 0.9);

  // a silvery trail behind the snail
  lay([[60, 404], [170, 398], [170, 404], [60, 408]], "#c3ccd6", 150, 0.1, 0.4);
}
