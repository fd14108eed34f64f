// The recorder of decision 0007 (a spike): loaded after seed.js and p5 (no p5.brush), before the
// sketch. The ten methods keep their arguments; p5's functions that change the picture keep
// theirs and act on a 2D canvas (this browser has no WebGL), so the helpers answer as today.
(function () {
  "use strict";
  const log = (window.__log = []);
  const plain = (args) => JSON.parse(JSON.stringify(args));
  const TEN = ["scaleBrushes", "noStroke", "fill", "noFill", "fillBleed", "fillTexture",
    "beginShape", "vertex", "endShape", "circle"];
  const recorder = {};
  for (const name of TEN) recorder[name] = (...args) => { log.push(["brush." + name, plain(args)]); };
  window.brush = recorder;
  const PICTURE = ["angleMode", "noLoop", "translate", "background", "push", "pop", "rotate", "scale"];
  for (const name of PICTURE) {
    const real = p5.prototype[name];
    p5.prototype[name] = function (...args) { log.push([name, plain(args)]); return real.apply(this, args); };
  }
  const createCanvas = p5.prototype.createCanvas;
  p5.prototype.createCanvas = function (w, h, renderer) {
    log.push(["createCanvas", plain([w, h, renderer])]);
    return createCanvas.call(this, w, h);  // 2D: no WebGL here
  };
  // the harness takes the first finished frame: setup's, or with draw() its first draw's
  window.__recordAround = function (setup, draw) {
    if (typeof draw !== "function") return [function () { setup(); window.__done = true; }, undefined];
    return [setup, function () { draw(); window.__done = true; }];
  };
})();
