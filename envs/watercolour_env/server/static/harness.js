// Loaded after p5 and p5.brush, before the sketch. Reports the first finished frame (or the
// first uncaught error) to the host page by postMessage, with the canvas as a PNG data URL.
// The frame is sandboxed and of another origin than its host: postMessage is its only way out. The report carries
// a nonce that the frame page hands to __watercolourArm and then removes from the document, so
// the sketch, which runs later, cannot forge a report.
(function () {
  "use strict";
  const post = window.parent.postMessage.bind(window.parent);
  const errors = [];
  let nonce = null;
  let finished = false;

  function canvasPng(canvas) {
    const el = canvas || document.querySelector("canvas");
    if (!el) return { png: null, width: 0, height: 0 };
    try {
      return { png: el.toDataURL("image/png"), width: el.width, height: el.height };
    } catch (e) {
      errors.push("toDataURL: " + e);
      return { png: null, width: el.width, height: el.height };
    }
  }

  function report(reason, canvas) {
    if (finished) return;
    finished = true;
    const shot = canvasPng(canvas);
    post({ nonce: nonce, reason: reason, errors: errors.slice(0, 20), png: shot.png,
           width: shot.width, height: shot.height }, "*");
  }

  function describe(err, fallback) {
    if (err && err.name && err.message) return err.name + ": " + err.message;
    return String(err === undefined ? fallback : err).slice(0, 500);
  }

  // No storage: one sketch must not leave state for the next render in the same page.
  const refuse = { get: function () { throw new Error("storage is disabled in the sketch sandbox"); },
                   configurable: false };
  ["localStorage", "sessionStorage", "indexedDB", "caches", "cookieStore"].forEach(function (name) {
    try { Object.defineProperty(window, name, refuse); } catch (e) { /* absent here */ }
  });
  try { Object.defineProperty(document, "cookie", refuse); } catch (e) { /* absent here */ }

  window.__watercolourArm = function (value) {
    nonce = value;
    delete window.__watercolourArm;
  };
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
