// Replaces Math.random with a seeded generator (mulberry32) before p5 and p5.brush load:
// p5.brush captures its seeds at load time. The seed arrives as the script's data-seed.
// Each seed in [0, 2**32) has a state of its own: 0 keeps state 1 (the stream the starter pool
// was painted with) and 1, which shared it, takes state 0, which nothing used (docs/LOG.md, issue 32).
(function () {
  "use strict";
  const seed = parseInt(document.currentScript.dataset.seed, 10) >>> 0;
  let a = seed === 0 ? 1 : seed === 1 ? 0 : seed;
  Math.random = function () {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
})();
