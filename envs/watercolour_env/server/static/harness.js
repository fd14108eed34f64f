// Loaded after p5 and p5.brush, before the sketch. Reports the first finished frame (or the
// first uncaught error) to the host page with the canvas as a PNG data URL.
(function () {
  "use strict";
  const token = location.pathname.split("/").pop();
  const errors = [];
  let finished = false;

  function canvasPng(canvas) {
    const el = canvas || document.querySelector("canvas");
    if (!el) return null;
    try { return el.toDataURL("image/png"); } catch (e) { errors.push("toDataURL: " + e); return null; }
  }

  function report(reason, canvas) {
    if (finished) return;
    finished = true;
    const payload = { reason: reason, errors: errors.slice(0, 20), png: canvasPng(canvas) };
    try { window.parent.__watercolourDone(token, payload); } catch (e) { /* host page is gone */ }
  }

  function describe(err, fallback) {
    if (err && err.name && err.message) return err.name + ": " + err.message;
    return String(err === undefined ? fallback : err).slice(0, 500);
  }

  window.addEventListener("error", function (ev) {
    errors.push(describe(ev.error, ev.message));
    setTimeout(function () { report("error"); }, 0);
  });
  window.addEventListener("unhandledrejection", function (ev) {
    errors.push(describe(ev.reason, "unhandled rejection"));
    setTimeout(function () { report("error"); }, 0);
  });

  // Registered after p5.brush, so this runs after p5.brush has flushed its pending fills.
  p5.registerAddon(function (p5, fn, lifecycles) {
    lifecycles.postdraw = function () { report(errors.length ? "error" : "drawn", this.canvas); };
  });
})();
