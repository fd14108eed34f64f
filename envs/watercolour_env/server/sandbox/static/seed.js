// Replaces Math.random with a seeded generator (mulberry32) before p5 and p5.brush load:
// p5.brush captures its seeds at load time. The seed arrives as the script's data-seed.
(function () {
  "use strict";
  let a = (parseInt(document.currentScript.dataset.seed, 10) >>> 0) || 1;
  Math.random = function () {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
})();
