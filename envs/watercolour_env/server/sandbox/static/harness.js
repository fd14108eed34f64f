// Loaded after the guard, before the sketch. Reports the first finished frame (or the first
// uncaught error) to the host page by postMessage: the picture of the canvas p5 made for the
// sketch, read with the browser's own toDataURL captured by the guard, and every violation
// the guard recorded. The frame is sandboxed and of another origin than its host: postMessage is
// its only way out. The report carries a nonce that the frame page hands to __watercolourArm and
// then removes from the document, so the sketch, which runs later, cannot forge a report.
(function () {
  "use strict";
  const post = window.parent.postMessage.bind(window.parent);
  const guard = window.__watercolourGuard || null;
  delete window.__watercolourGuard;
  const guardFailure = guard && guard.failed ? guard.failed : null;
  const errors = [];
  let nonce = null;
  let finished = false;

  function picture(canvas) {
    if (guard && !guardFailure) {
      try { return guard.picture(); } catch (e) { addError("toDataURL: " + describe(e, "")); return { png: null, width: 0, height: 0 }; }
    }
    const el = canvas || document.querySelector("canvas");
    if (!el) return { png: null, width: 0, height: 0 };
    try {
      return { png: el.toDataURL("image/png"), width: el.width, height: el.height };
    } catch (e) {
      addError("toDataURL: " + describe(e, ""));
      return { png: null, width: el.width, height: el.height };
    }
  }

  function report(reason, canvas) {
    if (finished) return;
    finished = true;
    if (navigated) { reason = "navigated"; addError("the sketch navigated its frame away"); }
    const shot = picture(canvas);
    post({ nonce: nonce, reason: reason, errors: errors.slice(0, MAX_ERRORS), png: shot.png, width: shot.width,
           height: shot.height, violations: guard && !guardFailure ? guard.violations() : [],
           guard: guard ? guardFailure || "on" : "off",
           // a recorder frame's calls (recorder.js, decision 0007): it has no picture of its own
           recording: recordingText() }, "*");
  }

  // A recorder frame's calls (recorder.js, decision 0007) travel as JSON text made here with the
  // JSON.stringify this file found before the sketch ran: what Python parses is text of a bounded
  // size, never a structure of the sketch's (shared references, cycles, BigInts; red team 2026-12-07).
  const stringify = JSON.stringify, MAX_RECORDING_CHARS = 16000000;
  function recordingText() {
    if (!guard || guardFailure || !guard.recording) return undefined;
    try {
      const text = Reflect.apply(stringify, JSON, [guard.recording()]);
      return typeof text === "string" && text.length <= MAX_RECORDING_CHARS ? text : "too large";
    } catch (e) {
      return "not JSON";
    }
  }

  // What a sketch throws is its own text: cut to MAX_ERROR_CHARS and made valid Unicode (a lone
  // half of an emoji cannot be encoded) before it leaves the frame; the server does it again
  // (picture.py). Reading the error runs the sketch's getters, so a throw there is described too.
  const MAX_ERRORS = 20, MAX_ERROR_CHARS = 2000;
  const toWellFormed = String.prototype.toWellFormed, slice = String.prototype.slice, asString = String;
  function bounded(text) {
    const cut = Reflect.apply(slice, asString(text), [0, MAX_ERROR_CHARS]);
    return Reflect.apply(toWellFormed, cut, []);
  }
  function describe(err, fallback) {
    try {
      if (err && err.name && err.message) return bounded(bounded(err.name) + ": " + bounded(err.message));
      return bounded(err === undefined ? fallback : err);
    } catch (e) {
      return "an error that could not be described";
    }
  }
  function addError(text) {
    if (errors.length < MAX_ERRORS) errors.push(text);
  }

  // No storage: one sketch must not leave state for the next render in the same page. The
  // refusals cannot be reconfigured, except `caches` and `history` (below), names a sketch may
  // declare itself (`let caches`: a non-configurable global would make that a SyntaxError); the
  // browser's own getters are gone once replaced, so reconfiguring those two reaches nothing, and
  // the renderer wipes the origin's storage and the tab's history after each render anyway.
  const refusal = function () { throw new Error("storage is disabled in the sketch sandbox"); };
  const refuse = { get: refusal, configurable: false };
  ["localStorage", "sessionStorage", "indexedDB", "cookieStore"].forEach(function (name) {
    try { Object.defineProperty(window, name, refuse); } catch (e) { /* absent here */ }
  });
  try { Object.defineProperty(window, "caches", { get: refusal, configurable: true }); } catch (e) { /* absent */ }
  try { Object.defineProperty(document, "cookie", refuse); } catch (e) { /* absent here */ }
  // The origin private file system, and what else keeps files or opens a connection of its own
  // (WebRTC's peer connections reach UDP and TCP past the policy; the renderer also wipes the
  // origin's storage after each render, and Chromium's flags keep WebRTC off non-proxied UDP).
  try { Object.defineProperty(navigator, "storage", refuse); } catch (e) { /* absent here */ }
  try { Object.defineProperty(navigator, "mediaDevices", refuse); } catch (e) { /* absent here */ }
  Object.getOwnPropertyNames(window).forEach(function (name) {
    if (/^(webkit)?RTC|^WebTransport|^FileSystem|^StorageManager$|^show(Open|Save|Directory)/.test(name)) {
      try { delete window[name]; } catch (e) { /* the page keeps it */ }
    }
  });
  // No timing of what the HTTP cache holds: resource entries say which library URLs an earlier
  // render in this page fetched (transferSize 0), a side channel between renders. The entries
  // are cleared and none kept (Performance.prototype's own methods reach them otherwise).
  try { performance.clearResourceTimings(); performance.setResourceTimingBufferSize(0); } catch (e) { /* absent */ }
  ["getEntries", "getEntriesByType", "getEntriesByName"].forEach(function (name) {
    try { Object.defineProperty(performance, name, { value: function () { return []; }, configurable: false }); } catch (e) { /* absent */ }
  });
  try { delete window.PerformanceObserver; } catch (e) { /* the page keeps it */ }
  // The tab's session history outlives every frame: `history.length` counted the renders before
  // (the renderer also resets it; a child frame of the sketch's has its own `history`).
  try {
    Object.defineProperty(window, "history", {
      get: function () { throw new Error("history is disabled in the sketch sandbox"); }, configurable: true,
    });
  } catch (e) { /* the page keeps it */ }
  // Objects the libraries call methods on inside brush calls take no member of the sketch's:
  // an own `document.createElement` ran inside brush.circle (p5 makes an empty texture there).
  [document, performance, navigator, screen, location].forEach(function (object) {
    try { Object.preventExtensions(object); } catch (e) { /* the page keeps it open */ }
  });

  // A navigation of this frame to another document is known here the moment the sketch asks for
  // it (the Navigation API's `navigate` event fires synchronously): the host also sees the frame
  // load again, but only once the server has vetted the paused request, which under load came
  // after the painting's report (and the painting was scored).
  let navigated = false;
  try {
    window.navigation.addEventListener("navigate", function (ev) {
      if (!ev.destination || !ev.destination.sameDocument) navigated = true;
    });
  } catch (e) { /* no Navigation API: the host's second load event still reports it */ }

  window.__watercolourArm = function (value) {
    nonce = value;
    delete window.__watercolourArm;
  };
  // Cancelled, so the browser does not also report the error to the console and to DevTools
  // (Playwright), which copied a 150 MB message whole and held the worker past the deadline.
  window.addEventListener("error", function (ev) {
    ev.preventDefault();
    addError(describe(ev.error, "an error"));
    setTimeout(function () { report("error"); }, 0);
  });
  window.addEventListener("unhandledrejection", function (ev) {
    ev.preventDefault();
    addError(describe(ev.reason, "unhandled rejection"));
    setTimeout(function () { report("error"); }, 0);
  });

  // Only p5 may run these hooks; a sketch that calls one is tampering with the report.
  function fromP5(hook) {
    if (guard && !guardFailure && guard.fromSketch(hook)) { guard.record("tampering", "harness hook"); return false; }
    return true;
  }
  // Registered after p5.brush, so these run after p5.brush has flushed its pending fills. A sketch
  // without draw() is finished when setup is; with one, when its first frame is.
  p5.registerAddon(function (p5, fn, lifecycles) {
    lifecycles.postsetup = function postsetup() {
      if (fromP5(postsetup) && typeof window.draw !== "function") report(errors.length ? "error" : "drawn", this.canvas);
    };
    lifecycles.postdraw = function postdraw() {
      if (fromP5(postdraw)) report(errors.length ? "error" : "drawn", this.canvas);
    };
  });
  if (guard && !guardFailure) {
    // p5 itself adds to `remove` when it builds the instance.
    ["presetup", "postsetup", "predraw", "postdraw"].forEach((name) => Object.freeze(p5.lifecycleHooks[name]));
    // the sketch's `p5` has only the vector class (p5.Vector.fromAngle); p5 itself stays out of reach
    Object.defineProperty(window, "p5", { value: guard.sketchP5, writable: false });
  }
})();
