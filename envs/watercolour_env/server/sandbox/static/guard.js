// Loaded after p5 and p5.brush, before the harness and the sketch. Enforces the allowlist at run
// time: every way to paint other than the ten brush methods (and the canvas set-up and
// background the system prompt asks for) is blocked and recorded as a named violation.
//
// What decides is who calls. Every function the sketch can reach that can lead to paint (p5's
// and its classes' methods, brush's exports, the WebGL contexts' methods, getContext) is wrapped;
// a wrapper reads the calling frame's script from V8's structured stack (Error.prepareStackTrace,
// locked here so the sketch cannot replace it) and lets the call through only when it comes from
// the libraries' own files. A bound function the sketch makes counts as the sketch's wherever it
// is called from, so it cannot plant a preset call inside the library. Inside a trusted window
// (a brush method, p5.brush's flush) the stack is not read, which is sound because nothing the
// library reads there is in the sketch's reach or unfrozen. Design, and why each piece is there:
// docs/decisions/0001-run-time-allowlist.md; its cost and the byte-identity checks: docs/LOG.md.
(function () {
  "use strict";
  try {
    guard();
  } catch (e) {
    // The renderer turns this into an infrastructure failure: never a render without the guard.
    window.__watercolourGuard = Object.freeze({ failed: String((e && e.stack) || e).slice(0, 2000) });
  }
})();

function guard() {
  "use strict";
  const apply = Reflect.apply;
  const construct = Reflect.construct;
  const defineProperty = Object.defineProperty;
  const getDescriptor = Object.getOwnPropertyDescriptor;
  const ownNames = Object.getOwnPropertyNames;
  const freeze = Object.freeze;
  const captureStackTrace = Error.captureStackTrace;
  const hasOwn = Object.hasOwn;
  const weakHas = WeakSet.prototype.has;
  const weakAdd = WeakSet.prototype.add;
  const setHas = Set.prototype.has;
  const DOMNode = Node; // the libraries never read `Node`: a sketch's `class Node` may shadow it
  const p5Real = p5; // the page's `p5` is the sketch's (only p5.Vector) once the harness ran

  const GUARD_URL = document.currentScript.src;
  const LIB_BASE = GUARD_URL.slice(0, GUARD_URL.lastIndexOf("/") + 1);
  const LIBRARY_FILES = new Set(["p5.min.js", "p5.brush.js", "seed.js", "harness.js", "guard.js"].map((n) => LIB_BASE + n));
  const STACK_FRAMES = 6; // the deciding frame is among the first few (issue 32); more only costs time
  // V8 names a frame after its function's `name` property, which is configurable: every guard
  // function whose name callerOf reads has it locked (a sketch that renamed its bound function
  // made its frames look like the library's; found 2026-12-01, hacks/renamed_bound_function.js)
  const ARRAY_COPIES = new Set(["slice", "map", "filter"]);
  function lockName(fn) {
    defineProperty(fn, "name", { value: fn.name, writable: false, enumerable: false, configurable: false });
    return fn;
  }
  const LIBRARY = 0, SKETCH = 1, NONE = 2;

  // The structured stack, for our own captures only; everyone else gets V8's usual text.
  let wanted = null;
  function prepareStackTrace(error, sites) {
    if (error === wanted) return sites;
    let text;
    try { text = String(error); } catch (e) { text = "Error"; }
    for (let i = 0; i < sites.length; i++) text += "\n    at " + sites[i];
    return text;
  }
  defineProperty(Error, "prepareStackTrace", { value: prepareStackTrace, writable: false, configurable: false });
  defineProperty(Error, "stackTraceLimit", { value: STACK_FRAMES, writable: false, configurable: false });

  /**
   * Who called `fn`: LIBRARY, SKETCH, or NONE (a task the event loop started at `fn`).
   *
   * Library frames act for whoever called them: below them must come a guard entry (a call the
   * guard vetted), a task the event loop started, or frames out of sight, never the sketch. So a
   * library function the sketch steers into calling a closed one (p5.Vector.lerp calling
   * `target.set`, set to getContext: a deputy) is refused like the sketch's own call (issue 32).
   * `shallow` takes the first library frame's word, for what only hands data back (SHALLOW).
   */
  function callerOf(fn, shallow) {
    const holder = {};
    wanted = holder;
    captureStackTrace(holder, fn);
    const sites = holder.stack;
    wanted = null;
    let library = false;
    for (let i = 0; i < sites.length; i++) {
      const file = sites[i].getFileName();
      if (!file) {
        // a built-in (Array.forEach, Promise.then, ...) has no position: look further down; code
        // without a file but with a line (a javascript: URL, eval) is the sketch's
        if (sites[i].getLineNumber() === null && !sites[i].isEval()) continue;
        return SKETCH;
      }
      if (file === GUARD_URL) {
        const name = sites[i].getFunctionName();
        // the guard's own slice, map and filter act for whoever called them, like the built-ins
        // they stand in for (seventh red-team pass: a wrapped getContext handed to `map` as its
        // callback was called from guard.js, and let through)
        if (apply(setHas, ARRAY_COPIES, [name]) || name === "passThrough") continue;
        // `steered`: an open global the sketch handed objects of its own (see openGlobal)
        return name === "sketchBound" || name === "steered" || name === "sketchTask" ? SKETCH : LIBRARY;
      }
      if (!apply(setHas, LIBRARY_FILES, [file])) return SKETCH;
      if (shallow) return LIBRARY;
      library = true;
    }
    if (library) return LIBRARY;
    return sites.length >= STACK_FRAMES ? SKETCH : NONE; // only built-ins in sight: fail closed
  }

  const found = [];
  function record(kind, name) {
    for (let i = 0; i < found.length; i++) if (found[i].kind === kind && found[i].name === name) return;
    if (found.length < 40) found[found.length] = freeze({ kind: kind, name: String(name).slice(0, 60) });
  }

  // Inside a trusted window (a brush method the sketch called with plain arguments, p5.brush's
  // own flush at the end of setup and of each frame) no sketch code can run: everything the
  // library reads there is out of the sketch's reach or frozen (below), so the stack is not read.
  let trusted = 0;
  let steering = 0; // open globals running with objects of the sketch's (openGlobal)
  let instance = null; // p5's, from its presetup hook on
  const arrayProto = Array.prototype;
  function inTrusted(fn, self, args) {
    trusted++;
    try { return apply(fn, self, args); } finally { trusted--; }
  }

  // p5's event handlers (`_onkeydown`, `_onresize`, ...) call the sketch's `keyPressed` and the
  // like with p5's instance as `this`. The browser starts them with no caller on the stack, but
  // so does a timer or a promise reaction the sketch hands `dispatchEvent` (fifth red-team pass):
  // they run only for events the browser itself made (`isTrusted`, read with the event's own
  // getter), and a headless render has none but resizes.
  const EVENT = "event";
  const isTrustedGet = getDescriptor(new Event("probe"), "isTrusted").get;
  function realEvent(event) {
    try { return apply(isTrustedGet, event, []) === true; } catch (e) { return false; }
  }
  const wrappers = new WeakSet();
  /** A wrapper that runs `fn` for the libraries and blocks and records it for the sketch. */
  // What paints nothing and only hands data to p5's own code keeps the first frame's word: a
  // colour's colour.js object, which p5's colour methods read when the sketch calls them
  // (c.setAlpha), and p5's own helpers, which p5 calls on its instance, never on an object the
  // sketch could hand it (`random(palette)` calls `_lcg`).
  const SHALLOW = new Set(["colour internals"]);
  function guarded(fn, kind, name, taskEntry, always, internal) {
    const shallow = internal === true || apply(setHas, SHALLOW, [name]);
    const wrapper = function () {
      if (trusted > 0 && !always) return new.target ? construct(fn, arguments, new.target) : apply(fn, this, arguments);
      const who = steering > 0 && !shallow ? SKETCH : callerOf(wrapper, shallow);
      if (who === LIBRARY || (who === NONE && (taskEntry === true || (taskEntry === EVENT && realEvent(arguments[0]))))) {
        return new.target ? construct(fn, arguments, new.target) : apply(fn, this, arguments);
      }
      record(kind, name);
      return undefined;
    };
    if (fn.prototype) wrapper.prototype = fn.prototype;
    // a shallow wrapper vouches for nothing below it: its frame is passed over, so colour.js run
    // inside p5's `_color` getter is judged by who called p5 (tenth red-team pass)
    defineProperty(wrapper, "name", { value: shallow ? "passThrough" : fn.name });
    apply(weakAdd, wrappers, [wrapper]);
    // frozen: a property of the sketch's on a wrapper (`getContext.lerp = Function.prototype.call`)
    // made it a target that p5 calls methods of (the ninth red-team pass)
    return freeze(wrapper);
  }

  function wrapProperty(owner, key, kind, label, taskEntry, internal) {
    const d = getDescriptor(owner, key);
    if (!d || !d.configurable) return;
    if (typeof d.value === "function") {
      d.value = guarded(d.value, kind, label, taskEntry, false, internal);
    } else if (d.get || d.set) {
      if (d.get) d.get = guarded(d.get, kind, label, false, false, internal);
      if (d.set) d.set = guarded(d.set, kind, label, false, false, internal);
    } else {
      return;
    }
    defineProperty(owner, key, d);
  }

  // ---- p5: what the sketch may call, and what each other name is when it does ----
  const SKETCH_OK = new Set((
    "createCanvas background clear angleMode translate rotate rotateZ scale shearX shearY resetMatrix push pop " +
    "noLoop loop isLooping redraw frameRate getFrameRate getTargetFrameRate millis second minute hour day month year " +
    "random randomSeed randomGaussian noise noiseSeed noiseDetail map lerp constrain dist mag norm sq sqrt pow abs " +
    "floor ceil round min max exp log fract sin cos tan asin acos atan atan2 degrees radians color lerpColor " +
    "paletteLerp red green blue alpha hue saturation brightness lightness colorMode createVector fill noFill stroke " +
    "noStroke strokeWeight strokeCap strokeJoin ellipseMode rectMode print int float str boolean byte char unchar hex " +
    "unhex nf nfc nfp nfs splitTokens shuffle _toRadians _fromRadians _toDegrees _fromDegrees"
  ).split(" "));
  // p5.brush wraps these four on p5.prototype; its wrappers call p5's own.
  const PRIMITIVES = new Set((
    "point line rect square ellipse circle arc triangle quad beginShape vertex endShape curveVertex bezierVertex " +
    "quadraticVertex splineVertex vertexProperty bezier curve spline beginContour endContour normal beginClip endClip " +
    "clip _renderRect _renderEllipse erase noErase blendMode"
  ).split(" "));
  const IMAGES = new Set((
    "image imageMode tint noTint loadPixels updatePixels get set pixels createImage loadImage copy blend filter " +
    "saveCanvas save saveFrames getFilterGraphicsLayer"
  ).split(" "));
  const SHADERS_3D = /^(plane|box|sphere|cylinder|cone|ellipsoid|torus|model|createModel|loadModel|buildGeometry|freeGeometry|camera|createCamera|setCamera|perspective|ortho|frustum|linePerspective|orbitControl|debugMode|noDebugMode|lights|noLights|.*Light|lightFalloff|texture|textureMode|textureWrap|.*Material|shininess|metalness|specularColor|panorama|compute|.*[sS]hader.*|.*Storage|uniformStorage|rotateX|rotateY|applyMatrix)$/;
  const CANVAS = new Set("resizeCanvas pixelDensity setAttributes fullscreen noCanvas noSmooth smooth".split(" "));

  function kindOf(name) {
    if (PRIMITIVES.has(name)) return "bare_primitive";
    if (IMAGES.has(name)) return "image_or_pixels";
    if (/^(text|loadFont|font)/.test(name)) return "text_on_canvas";
    if (SHADERS_3D.test(name)) return "shader_or_3d";
    if (CANVAS.has(name)) return "canvas_change";
    if (/^(createGraphics|createFramebuffer)$/.test(name)) return "offscreen_layer";
    if (name === "drawingContext" || name === "getContext") return "direct_context";
    return "p5_not_allowed";
  }
  // p5's own entry points from the event loop (animation frames, DOM events).
  const taskEntry = (name) => (name === "_draw" || name === "redraw" ? true : name.slice(0, 3) === "_on" ? EVENT : false);

  // p5 applies its registered decorators (argument checks on vectors) when it builds its first
  // instance. Have it do so now, through its own constructor, so they wrap the originals and
  // not these wrappers: a throwaway instance-mode sketch that stops before anything starts.
  const STOP = {};
  if (p5.decorations && p5.decorations.size > 0) {
    try { new p5(function () { throw STOP; }); } catch (e) { if (e !== STOP) throw e; }
  }

  // p5.Color's statics register colour spaces with colour.js (whose registry the library reads
  // while it parses a colour, inside brush calls): the libraries' business, like its classes
  // (a space of the sketch's ran there: fourth red-team pass).
  for (const name of ownNames(p5.Color)) {
    if (typeof p5.Color[name] === "function") wrapProperty(p5.Color, name, "p5_not_allowed", "p5.Color." + name, false);
  }

  const proto = p5.prototype;
  for (const name of ownNames(proto)) {
    if (name === "constructor" || SKETCH_OK.has(name)) continue;
    wrapProperty(proto, name, kindOf(name), name, taskEntry(name), kindOf(name) === "p5_not_allowed");
  }

  // ---- p5's classes: all of them are the libraries' business, except colours and vectors ----
  const OWN_CLASSES = new Set(["Color", "Vector", "Matrix", "Quat"]);
  const OFFSCREEN_CLASSES = new Set(["Graphics", "Framebuffer", "FramebufferTexture", "FramebufferCamera", "RenderBuffer"]);
  for (const cls of ownNames(p5)) {
    const value = p5[cls];
    if (typeof value !== "function") continue;
    const isClass = !!value.prototype && ownNames(value.prototype).length > 1;
    if (!isClass) {
      if (cls !== "prototype" && cls !== "length" && cls !== "name") wrapProperty(p5, cls, "tampering", "p5." + cls, false);
      continue;
    }
    if (OWN_CLASSES.has(cls)) continue;
    const kind = OFFSCREEN_CLASSES.has(cls) ? "offscreen_layer" : null;
    for (const name of ownNames(value.prototype)) {
      if (name === "constructor") continue;
      wrapProperty(value.prototype, name, kind || kindOf(name), cls + "." + name, false);
    }
    const wrapped = guarded(value, kind || (cls === "Image" ? "image_or_pixels" : "p5_not_allowed"), "new p5." + cls, false);
    defineProperty(value.prototype, "constructor", { value: wrapped, writable: false, configurable: false });
    defineProperty(p5, cls, { value: wrapped, writable: false, configurable: false });
  }

  // ---- the sketch-facing entries that stay open, with their arguments checked ----
  const isPrimitive = (v) => v === null || (typeof v !== "object" && typeof v !== "function");
  const isArray = Array.isArray;
  // A colour or a list of numbers is taken apart here, outside any trusted window, so getters or
  // traps of the sketch's run (and are checked) now; the library gets primitives and a colour
  // p5 makes afresh from the same sRGB floats (JavaScript's number text is exact both ways).
  const colorProto = p5.Color.prototype;
  const rgbaOf = getDescriptor(colorProto, "_array").get;
  const getPrototypeOf = Object.getPrototypeOf;
  // A colour's colour.js object (and through it colour.js's shared, mutable spaces, which the
  // library reads inside trusted windows) is p5's business only: `_color` and the field behind
  // it, `_cachedColor`, answer the libraries and no one else.
  const colourStore = new WeakMap();
  const storeGet = WeakMap.prototype.get, storeSet = WeakMap.prototype.set;
  defineProperty(colorProto, "_cachedColor", {
    configurable: false,
    get: guarded(function () { return apply(storeGet, colourStore, [this]); }, "p5_not_allowed", "colour internals", false),
    set: guarded(function (v) { apply(storeSet, colourStore, [this, v]); }, "p5_not_allowed", "colour internals", false),
  });
  wrapProperty(colorProto, "_color", "p5_not_allowed", "colour internals", false);
  // A colour the sketch builds itself from an object (`new c.constructor({space, coords})`) hands
  // colour.js that object: p5 never builds colours through `.constructor`, so it is closed
  const ColourClass = colorProto.constructor;
  defineProperty(colorProto, "constructor", {
    value: guarded(ColourClass, "p5_not_allowed", "new p5.Color", false), writable: false, configurable: false,
  });
  // p5 only ever sets `_cachedColor` through the accessor above; an own one is the sketch's, and
  // p5's `_color` would hand it to colour.js (tenth red-team pass)
  const colourGetter = getDescriptor(colorProto, "_color").get;
  defineProperty(colorProto, "_color", {
    configurable: true,
    get: freeze(function passThrough() {
      if (apply(hasOwn, null, [this, "_cachedColor"])) return record("tampering", "colour internals"), undefined;
      return apply(colourGetter, this, []);
    }),
  });
  const REFUSED = {};
  function plainArguments(args) {
    const out = [];
    for (let i = 0; i < args.length; i++) {
      const value = plainValue(args[i], 0);
      if (value === REFUSED) return null;
      out[i] = value;
    }
    return out;
  }
  // A primitive, or a copy made here: arrays (three deep: paletteLerp's [[colour, stop], ...]) of
  // plain values, a colour p5 makes afresh from its sRGB floats, a vector from its numbers.
  function plainValue(value, depth) {
    if (isPrimitive(value)) return value;
    if (isArray(value)) {
      if (depth > 2) return REFUSED;
      const copy = [];
      for (let j = 0; j < value.length; j++) {
        const item = plainValue(value[j], depth + 1);
        if (item === REFUSED) return REFUSED;
        copy[j] = item;
      }
      return copy;
    }
    if (getPrototypeOf(value) === colorProto && instance) {
      // An own `_cachedColor` or `_color` would hand p5's getter, and colour.js, an object of the
      // sketch's; the read runs p5 code on the sketch's colour, so it is steered (tenth red-team pass)
      if (apply(hasOwn, null, [value, "_cachedColor"]) || apply(hasOwn, null, [value, "_color"])) return REFUSED;
      let rgba;
      steering++;
      try { rgba = apply(rgbaOf, value, []); } finally { steering--; }
      const text = "color(srgb " + +rgba[0] + " " + +rgba[1] + " " + +rgba[2] + " / " + +rgba[3] + ")";
      return apply(nativeColor, instance, [text]);
    }
    if (getPrototypeOf(value) === vectorProto && instance) {
      return apply(nativeCreateVector, instance, [+value.x, +value.y, +value.z]);
    }
    return REFUSED;
  }
  const nativeColor = proto.color;
  const nativeCreateVector = proto.createVector;
  const nativeBackground = proto.background;
  proto.background = function background() {
    const args = plainArguments(arguments);
    if (args === null) return record("image_or_pixels", "background"), undefined;
    inTrusted(nativeBackground, this, args);
  };
  let mainCanvas = null;
  let creatingCanvas = 0;
  const nativeCreateCanvas = proto.createCanvas;
  proto.createCanvas = function createCanvas() {
    if (arguments.length > 3 || plainArguments(arguments) === null) return record("canvas_change", "createCanvas"), undefined;
    creatingCanvas++;
    try {
      const made = apply(nativeCreateCanvas, this, arguments);
      guardOwnFunctions(this, "p5_not_allowed", "");
      const renderer = this._renderer;
      if (renderer) guardOwnFunctions(renderer, "p5_not_allowed", "renderer.");
      if (renderer && renderer.GL) guardOwnFunctions(renderer.GL, "direct_context", "gl.");
      return made && callerOf(createCanvas) === LIBRARY ? made : undefined;
    } finally {
      creatingCanvas--;
    }
  };
  // p5 keeps some functions on the instances themselves, e.g. its own gl.enable and gl.disable
  // that call WebGL's: from the sketch they are as closed as what they call.
  function guardOwnFunctions(object, kind, prefix) {
    for (const name of ownNames(object)) {
      const value = getDescriptor(object, name).value;
      // createCanvas runs twice (p5's default canvas, then the sketch's): wrap each function once
      if (typeof value === "function" && !apply(weakHas, wrappers, [value])) {
        wrapProperty(object, name, kind, prefix + name, taskEntry(name));
      }
    }
  }
  // ---- contexts: every method of WebGL, and every way to get a 2D or WebGL context ----
  // (This loop went missing in a tidy-up on 2026-12-01 and the sixth red-team pass found it
  // gone: without it a leaked context paints freely. test_sandbox.py now checks it is in place.)
  for (const gl of [WebGL2RenderingContext.prototype, WebGLRenderingContext.prototype]) {
    for (const name of ownNames(gl)) {
      if (name !== "constructor" && typeof getDescriptor(gl, name).value === "function") {
        wrapProperty(gl, name, "direct_context", "gl." + name, false);
      }
    }
  }
  const hideContext = (canvas) => {
    let stored;
    defineProperty(canvas, "drawingContext", {
      configurable: false,
      get: guarded(function () { return stored; }, "direct_context", "drawingContext", false, true),
      set: guarded(function (value) { stored = value; }, "tampering", "drawingContext", false, true),
    });
  };
  for (const C of [HTMLCanvasElement, OffscreenCanvas]) {
    const nativeGetContext = C.prototype.getContext;
    const getContext = function getContext(type) {
      if (steering > 0 || callerOf(getContext) !== LIBRARY) return record("direct_context", "getContext"), null;
      const context = apply(nativeGetContext, this, arguments);
      if (context && type === "2d" && !getDescriptor(this, "drawingContext")) hideContext(this);
      if (context && creatingCanvas > 0 && C === HTMLCanvasElement && String(type).slice(0, 5) === "webgl") {
        mainCanvas = this;
        Object.preventExtensions(this); // no getter of the sketch's on the canvas the library reads
      }
      return context;
    };
    defineProperty(C.prototype, "getContext", { value: freeze(getContext), writable: false, configurable: false });
  }
  // A frame of the sketch's own is a fresh realm with pristine prototypes; the renderer also
  // notices any such frame from outside the page (render.py), since window[0] reaches it too.
  for (const C of [HTMLIFrameElement, HTMLObjectElement, HTMLEmbedElement, HTMLFrameElement]) {
    for (const name of ["contentWindow", "contentDocument", "getSVGDocument"]) {
      wrapProperty(C.prototype, name, "tampering", "a frame of its own", false);
    }
  }
  wrapProperty(HTMLCanvasElement.prototype, "transferControlToOffscreen", "direct_context", "transferControlToOffscreen", false);

  // ---- p5.brush: the ten methods are open, with plain arguments; the rest is closed ----
  const ALLOWED = new Set("scaleBrushes noStroke fill noFill fillBleed fillTexture beginShape vertex endShape circle".split(" "));
  // The library never reads window.brush, so the sketch gets a facade; some of the UMD build's
  // exports are fixed getters, which could not be replaced in place.
  const brushApi = window.brush;
  const facade = {};
  for (const name of ownNames(brushApi)) {
    const fn = brushApi[name];
    if (typeof fn !== "function") continue;
    if (ALLOWED.has(name)) {
      // returns nothing: what p5.brush returns (its Plot and Polygon objects) is its own
      facade[name] = function () {
        const args = plainArguments(arguments);
        if (args === null) return record("brush_argument", "brush." + name), undefined;
        inTrusted(fn, undefined, args);
      };
    } else {
      // closed whoever ends up calling it (p5's Vector.lerp calls this.lerp: a deputy)
      facade[name] = closedGlobal("brush_method_not_allowed", "brush." + name);
    }
  }
  freeze(facade);
  defineProperty(window, "brush", { value: facade, writable: false, configurable: false });

  // ---- a bound function the sketch makes is the sketch's, wherever it is later called from ----
  const nativeBind = Function.prototype.bind;
  const bind = function bind(thisArg) {
    const target = this;
    // p5 binds each of its functions to the instance it is building (462 binds): nothing of p5's
    // is in the sketch's hands before p5's presetup, so that is p5 and needs no stack read
    if (instance === null && thisArg instanceof p5Real) return apply(nativeBind, target, arguments);
    if (steering === 0 && callerOf(bind) !== SKETCH) return apply(nativeBind, target, arguments);
    const preset = [];
    for (let i = 1; i < arguments.length; i++) preset[preset.length] = arguments[i];
    return lockName(function sketchBound() {
      const all = preset.slice();
      for (let i = 0; i < arguments.length; i++) all[all.length] = arguments[i];
      return new.target ? construct(target, all) : apply(target, thisArg, all);
    });
  };
  // In place before the sketch runs: a native bind kept from its top level made natively bound
  // WebGL methods that p5's `str` then called for it (fourth red-team pass).
  let activeBind = bind;
  defineProperty(Function.prototype, "bind", {
    get: () => activeBind, set: () => record("tampering", "Function.prototype.bind"), configurable: false,
  });

  // ---- after p5 builds its instance: its global getters, and no way back to it ----
  // p5's global mode puts each p5 function on the window, bound to the instance. Only the sketch
  // calls these (p5 calls its own methods), so a closed one is closed whoever ends up calling it
  // (a `toString` the sketch set to `rect`, run by a built-in); an open one hands back only what
  // is the sketch's to have (numbers, strings, colours, vectors), never the renderer or p5.
  const vectorProto = p5.Vector.prototype;
  const theSketchs = (v) => isPrimitive(v) || isArray(v) || getPrototypeOf(v) === colorProto || getPrototypeOf(v) === vectorProto;
  function closedGlobal(kind, name) {
    return freeze(function () { record(kind, name); });
  }
  // p5 keeps what these are given and reads it later, inside trusted windows (colorMode's maxes
  // are coerced whenever p5 makes a colour from numbers, in background and brush.fill: the third
  // red-team pass ran a toPrimitive, an array getter and a Proxy trap there). They take only what
  // plainArguments lets through; the others use their arguments at once, outside any window.
  const KEEPS_ARGUMENTS = new Set((
    "colorMode fill stroke strokeWeight strokeCap strokeJoin ellipseMode rectMode angleMode frameRate noiseDetail " +
    "randomSeed noiseSeed translate rotate rotateZ scale shearX shearY " +
    // p5 hands a colour's parts to colour.js, which calls methods on what it is given: a space or a
    // path of the sketch's made it call getContext and WebGL for it (tenth red-team pass)
    "color lerpColor paletteLerp red green blue alpha hue saturation brightness lightness"
  ).split(" "));
  function globalGetter(get) {
    return function () { return apply(get, this, []); };
  }
  function globalSetter(set) {
    return function (value) { apply(set, this, [value]); };
  }
  // An open global given only numbers, strings and arrays of them is a call the guard vetted. Given
  // objects (a colour, a vector, anything of the sketch's) it runs under `steered`, a frame that
  // counts as the sketch's: p5 code reached from it may read a colour's internals, nothing closed
  // (a canvas handed to `str` with its `toString` set to getContext: a deputy, issue 32).
  // (and while it runs, `steering` says so at any depth: p5's colour parsing under `red(x)` runs
  // deeper than the six frames callerOf reads). A vetted call inside it starts afresh.
  const steered = lockName(function steered(fn, args) {
    steering++;
    try { return apply(fn, undefined, args); } finally { steering--; }
  });
  function onlyPlainData(args, depth) {
    for (let i = 0; i < args.length; i++) {
      const value = args[i];
      if (isPrimitive(value)) continue;
      if (depth > 2 || !isArray(value) || getPrototypeOf(value) !== arrayProto || !onlyPlainData(value, depth + 1)) return false;
    }
    return true;
  }
  function openGlobal(bound, name) {
    const keeps = KEEPS_ARGUMENTS.has(name);
    return function () {
      let args = arguments;
      if (keeps && (args = plainArguments(arguments)) === null) return record("p5_not_allowed", name + " given an object");
      if (new.target) return undefined;
      if (!keeps && !onlyPlainData(args, 0)) {
        const out = steered(bound, args);
        return theSketchs(out) ? out : undefined;
      }
      const saved = steering;
      steering = 0;
      let out;
      try { out = apply(bound, undefined, args); } finally { steering = saved; }
      return theSketchs(out) ? out : undefined;
    };
  }
  p5.registerAddon(function (_p5, _fn, lifecycles) {
    lifecycles.presetup = function () {
      instance = this;
      for (const name of ownNames(window)) {
        const d = getDescriptor(window, name);
        if (!d.configurable || !(name in proto) || name === "constructor") continue;
        if (d.get && (name === "drawingContext" || name === "pixels")) {
          defineProperty(window, name, { get: closedGlobal(kindOf(name), name), configurable: false });
        } else if (typeof d.value === "function") {
          const value = SKETCH_OK.has(name) ? openGlobal(d.value, name) : closedGlobal(kindOf(name), name);
          defineProperty(window, name, { value: value, writable: true, enumerable: true, configurable: true });
        } else if (d.get || d.set) {
          // p5's global state (width, frameCount, mouseX): a guard entry in front of p5's accessor,
          // so the library frames under it are a vetted call (callerOf), as they were before
          defineProperty(window, name, { get: d.get && globalGetter(d.get), set: d.set && globalSetter(d.set),
                                         enumerable: d.enumerable, configurable: true });
        }
      }
      // p5 has set up its colours (its own presetup decorates Color.prototype): now everything a
      // colour or a vector leads to is fixed, colour.js's shared spaces and p5.Color's statics
      // (colorMap) included, so no getter of the sketch's runs where the library reads them
      deepFreeze([colorProto, vectorProto, p5Class.Matrix && p5Class.Matrix.prototype,
        p5Class.Quat && p5Class.Quat.prototype, ColourClass, vectorProto.constructor], 1);
    };
  });
  // p5.brush registered its addon last before this file: its postsetup and postdraw hooks, the
  // flush of its queued fills, are trusted windows; every other hook is checked like any call.
  for (const hook of ownNames(p5.lifecycleHooks)) {
    const list = p5.lifecycleHooks[hook];
    for (let i = 0; i < list.length; i++) {
      const brushFlush = (hook === "postsetup" || hook === "postdraw") && i === list.length - 1;
      const checked = guarded(list[i], "tampering", "lifecycle " + hook, false);
      list[i] = brushFlush ? function () { return callerOf(list[i]) === LIBRARY ? inTrusted(checked, this, arguments) : record("tampering", "lifecycle " + hook); } : checked;
    }
  }

  // The sketch cannot reach p5 itself, so no p5 object (instance, renderer, state): the
  // harness, the last library file, empties the page's `p5` (the libraries hold their own).
  const p5Class = p5;

  // ---- a callback the sketch schedules runs as the sketch's ----
  // `setTimeout(p5.Vector.lerp, 0, v, canvas, "2d", target)` ran library code from the event loop
  // with arguments of the sketch's choosing and nothing of the sketch's on the stack (the ninth
  // red-team pass). A callback scheduled by anyone but the libraries runs under `sketchTask`.
  const sketchTask = lockName(function sketchTask(callback, self, args) { return apply(callback, self, args); });
  for (const name of ["setTimeout", "setInterval", "requestAnimationFrame", "queueMicrotask", "requestIdleCallback"]) {
    const native = window[name];
    if (typeof native !== "function") continue;
    const scheduler = function () {
      const callback = arguments[0];
      if (typeof callback !== "function" || callerOf(scheduler) === LIBRARY) return apply(native, window, arguments);
      const args = [function () { return sketchTask(callback, this, arguments); }];
      for (let i = 1; i < arguments.length; i++) args[i] = arguments[i];
      return apply(native, window, args);
    };
    defineProperty(scheduler, "name", { value: name });
    defineProperty(window, name, { value: freeze(scheduler), writable: true, enumerable: true, configurable: true });
  }

  // ---- what the libraries read cannot be changed under them ----
  // The page's own globals: names do not move (no getter of the sketch's where the library reads
  // `performance` or `OffscreenCanvas`), and constructors and namespaces keep their value.
  // Only names the libraries may read: constructors, namespaces, JavaScript's global functions and
  // a few of the window's own (`let name` or `function stop()` in a sketch must still work: a
  // non-configurable global would make them a SyntaxError).
  const P5_NAMES = new Set(ownNames(p5Class.prototype));
  const STORAGE = new Set(["localStorage", "sessionStorage", "indexedDB", "caches", "cookieStore", "__watercolourGuard"]);
  // The globals p5 and p5.brush read by name (each name below occurs in their code, checked
  // 2026-12-01): constructors, namespaces, global functions, timers (a `structuredClone` of the
  // sketch's ran inside brush calls: third red-team pass). Names they never read stay free, so a
  // top-level `class Node`, `let Iterator` or `let screen` in a sketch is legal (the false
  // positives of passes 2 to 4); `let Image` or `let URL` is not.
  const READ_BY_LIBRARIES = new Set((
    "self window globalThis console parseInt parseFloat isNaN isFinite encodeURIComponent escape Math JSON Reflect " +
    "Object Function Array Number Boolean String Symbol Date Promise RegExp Error ReferenceError SyntaxError " +
    "TypeError ArrayBuffer Uint8Array Int8Array Uint16Array Int16Array Uint32Array Int32Array Uint8ClampedArray " +
    "Float32Array Float64Array DataView Map Set WeakMap WeakSet BigInt Proxy Image Path2D OffscreenCanvas " +
    "HTMLElement HTMLCanvasElement ImageData DOMMatrix DOMPoint DOMException Event FontFace URL TextEncoder " +
    "TextDecoder AbortController structuredClone requestAnimationFrame setTimeout clearTimeout setInterval clearInterval"
  ).split(" "));
  for (const name of ownNames(window)) {
    if (P5_NAMES.has(name) || STORAGE.has(name) || name === "p5" || name === "brush") continue;
    const d = getDescriptor(window, name);
    if (!d.configurable || !READ_BY_LIBRARIES.has(name)) continue;
    d.configurable = false;
    if ("value" in d) d.writable = false;
    try { defineProperty(window, name, d); } catch (e) { /* a property the page keeps for itself */ }
  }
  // A second copy of p5.brush loaded by the sketch would hand its exports to these names.
  for (const name of ["exports", "module", "define", "require"]) {
    // configurable, so a sketch's own top-level `const module` stays legal (fifth pass's false
    // positive); a second p5.brush still finds no p5 to register with (the page's is the sketch's)
    if (!(name in window)) defineProperty(window, name, { value: undefined, writable: false, configurable: true });
  }
  // Every built-in prototype, the JavaScript ones and the page's interfaces, is frozen. Where a
  // library sets a method on an instance (p5 sets gl.enable and gl.disable on its context), the
  // prototype's property becomes an accessor whose setter makes that own property, since frozen
  // data would refuse it; elsewhere data stays data, so hot calls keep their inline caches.
  // The canvas prototypes (cold, and what the report relies on) record an attempt to replace them.
  const OVERRIDDEN = new Set(["enable", "disable"]);
  const WATCHED = new Set([HTMLCanvasElement.prototype, OffscreenCanvas.prototype]);
  // and the names a sketch's own objects shadow by assignment (`this.name = "..."` in an Error
  // subclass, `fn.toString = ...`): see overridableLock
  const OVERRIDDEN_ON = new Map([[Function.prototype, new Set(["toString", "constructor"])]]);
  for (const name of ["Error", "TypeError", "RangeError", "ReferenceError", "SyntaxError", "EvalError", "URIError", "AggregateError"]) {
    if (window[name]) OVERRIDDEN_ON.set(window[name].prototype, new Set(["name", "message", "toString", "constructor"]));
  }
  function deepFreeze(roots, depth) {
    let level = roots.filter(Boolean);
    const seen = new WeakSet();
    for (let d = 0; d <= depth && level.length; d++) {
      const next = [];
      for (const object of level) {
        if (apply(weakHas, seen, [object]) || object === window || object instanceof DOMNode) continue;
        apply(weakAdd, seen, [object]);
        for (const key of Reflect.ownKeys(object)) {
          const desc = getDescriptor(object, key);
          if (desc && "value" in desc && desc.value && (typeof desc.value === "object" || typeof desc.value === "function")) {
            next.push(desc.value);
          }
        }
        const parent = Object.getPrototypeOf(object);
        if (parent) next.push(parent);
        if (typeof object === "function" && object.prototype) next.push(object.prototype);
        tamedFreeze(object, true);
      }
      level = next;
    }
  }
  // Object.prototype and Array.prototype are locked property by property, not with
  // Object.freeze: freezing either turns off V8's fast paths for arrays with holes (p5.brush's
  // polygon growth ran 4x slower, docs/LOG.md, 2026-12-01). Array.prototype.constructor is locked
  // too, though redefining it turns off the array-species fast path (the guard's own slice, map
  // and filter below win most of it back): left writable, a species of the sketch's ran inside the
  // libraries' own `filter` and handed it p5's renderer, instance and WebGL context (fourth
  // red-team pass), and a getter there would run wherever colour.js walks `.constructor`.
  const SPECIES = [Object.prototype, arrayProto];
  installPlainArrayMethods();
  function lockInPlace(object, overridable) {
    Object.preventExtensions(object);
    for (const key of Reflect.ownKeys(object)) {
      const d = getDescriptor(object, key);
      if (!d.configurable) continue;
      if ("value" in d && (overridable === "*" ? typeof key === "string" : overridable.has(key))) {
        defineProperty(object, key, overridableLock(object, key, d));
        continue;
      }
      d.configurable = false;
      if ("value" in d) d.writable = false;
      defineProperty(object, key, d);
    }
  }
  // A locked data property would make `point.toString = ...`, `this.name = ...` in an Error
  // subclass or `path.fill = ...` on an array fail (JavaScript's "override mistake": an inherited
  // read-only property cannot be shadowed by assignment), which the sketch is entitled to. These
  // names become accessors whose setter gives the receiver its own property, as the assignment
  // would without the lock; assigning to the prototype itself is tampering.
  function overridableLock(object, key, d) {
    const value = d.value;
    return {
      enumerable: d.enumerable, configurable: false, get: function () { return value; },
      set: function (v) {
        if (this === object) return record("tampering", String(key));
        if (this === null || (typeof this !== "object" && typeof this !== "function")) return;
        // as a sloppy assignment would: no own property on a non-extensible receiver, no error
        Reflect.defineProperty(this, key, { value: v, writable: true, enumerable: true, configurable: true });
      },
    };
  }
  // Object.prototype's every name; of Array.prototype's, the ones an array of the sketch's may
  // plausibly carry as its own (its hot methods stay data, so calls keep their inline caches)
  lockInPlace(Object.prototype, "*");
  lockInPlace(arrayProto, new Set(["constructor", "toString", "toLocaleString", "join", "fill", "keys", "values",
    "entries", "find", "sort", "reverse", "at", "flat", "includes", "indexOf"]));
  // With `constructor` locked V8's own `slice`, `map` and `filter` take their slow generic path
  // (grow's `slice` 22 -> 78 ms a typical render, docs/LOG.md). These give the same arrays
  // without asking for a species: on an array whose constructor is the locked `Array` (no own
  // `constructor`, Array.prototype its prototype) the species is `Array`, so ArraySpeciesCreate
  // is ArrayCreate; anything else (a subclass, another realm, a proxy, an own `constructor`,
  // arguments that are not numbers) goes to the native method, unchanged.
  function installPlainArrayMethods() {
    const nativeSlice = arrayProto.slice, nativeMap = arrayProto.map, nativeFilter = arrayProto.filter;
    const isArray = Array.isArray, getPrototype = Object.getPrototypeOf, hasOwn = Object.hasOwn;
    const ArrayOf = Array, trunc = Math.trunc;
    const plain = (o) => isArray(o) && getPrototype(o) === arrayProto && !hasOwn(o, "constructor");
    const relative = (n, len) => {
      n = trunc(n) || 0;
      return n < 0 ? (len + n > 0 ? len + n : 0) : (n < len ? n : len);
    };
    const methods = {
      slice(start, end) {
        if (!plain(this) || (start !== undefined && typeof start !== "number") ||
            (end !== undefined && typeof end !== "number")) return apply(nativeSlice, this, arguments);
        const len = this.length;
        let k = start === undefined ? 0 : relative(start, len);
        const final = end === undefined ? len : relative(end, len);
        const result = new ArrayOf(final > k ? final - k : 0);
        for (let n = 0; k < final; k++, n++) {
          const value = this[k]; // a hole reads as undefined: `in` only then tells the two apart
          if (value !== undefined || k in this) result[n] = value;
        }
        return result;
      },
      map(callback, thisArg) {
        if (!plain(this) || typeof callback !== "function") return apply(nativeMap, this, arguments);
        const len = this.length;
        const result = new ArrayOf(len);
        for (let k = 0; k < len; k++) {
          const value = this[k];
          if (value === undefined && !(k in this)) continue;
          result[k] = thisArg === undefined ? callback(value, k, this) : apply(callback, thisArg, [value, k, this]);
        }
        return result;
      },
      filter(callback, thisArg) {
        if (!plain(this) || typeof callback !== "function") return apply(nativeFilter, this, arguments);
        const len = this.length;
        const result = [];
        for (let k = 0; k < len; k++) {
          const value = this[k];
          if (value === undefined && !(k in this)) continue;
          if (thisArg === undefined ? callback(value, k, this) : apply(callback, thisArg, [value, k, this])) result[result.length] = value;
        }
        return result;
      },
    };
    for (const name of ARRAY_COPIES) {
      defineProperty(arrayProto, name, { value: freeze(lockName(methods[name])), writable: true, enumerable: false, configurable: true });
    }
  }
  function tamedFreeze(object, everything) {
    if (!object || Object.isFrozen(object) || SPECIES.indexOf(object) >= 0) return;
    const alsoOverridden = OVERRIDDEN_ON.get(object);
    for (const name of ownNames(object)) {
      if (!everything && !OVERRIDDEN.has(name) && !WATCHED.has(object) && !(alsoOverridden && alsoOverridden.has(name))) continue;
      const d = getDescriptor(object, name);
      if (!d.configurable || !("value" in d)) continue;
      defineProperty(object, name, overridableLock(object, name, d));
    }
    freeze(object);
  }
  // The heap's size outlives every frame of the page: a render that left garbage behind told the
  // next one it had run (seventh red-team pass). No memory figures, here or in a child frame.
  delete Performance.prototype.memory;
  delete Performance.prototype.measureUserAgentSpecificMemory;
  const p5Prototypes = new Set([p5Class.prototype]);
  for (const name of ownNames(p5Class)) if (p5Class[name] && p5Class[name].prototype) p5Prototypes.add(p5Class[name].prototype);
  const hidden = [
    Object.getPrototypeOf(Uint8Array), Object.getPrototypeOf(Uint8Array.prototype),
    Object.getPrototypeOf([][Symbol.iterator]()), Object.getPrototypeOf(Object.getPrototypeOf([][Symbol.iterator]())),
    Object.getPrototypeOf(new Map()[Symbol.iterator]()), Object.getPrototypeOf(new Set()[Symbol.iterator]()),
    Object.getPrototypeOf(""[Symbol.iterator]()), Object.getPrototypeOf(async function () {}),
    Object.getPrototypeOf(function* () {}), Object.getPrototypeOf(function* () {}).prototype,
  ];
  for (const object of hidden) tamedFreeze(object);
  for (const name of ownNames(window)) {
    const value = getDescriptor(window, name).value;
    if (typeof value === "function" && name !== "p5") {
      if (value.prototype && typeof value.prototype === "object" && !p5Prototypes.has(value.prototype)) {
        tamedFreeze(value.prototype);
      }
      freeze(value);
    } else if (value && typeof value === "object" && /^(Math|JSON|Reflect|Atomics|Intl|console|CSS|WebAssembly)$/.test(name)) {
      freeze(value);
    }
  }

  // For the harness, which takes this and deletes it before the sketch loads.
  const nativeToDataURL = HTMLCanvasElement.prototype.toDataURL;
  const canvasWidth = getDescriptor(HTMLCanvasElement.prototype, "width").get;
  const canvasHeight = getDescriptor(HTMLCanvasElement.prototype, "height").get;
  // The sketch holds p5.Vector from its top level on, before presetup freezes the rest: a method
  // of its own on the prototype ran inside brush calls (the ninth red-team pass). Frozen now.
  deepFreeze([vectorProto, vectorProto.constructor], 1);

  window.__watercolourGuard = freeze({
    violations: () => found.slice(),
    sketchP5: freeze({ Vector: vectorProto.constructor }),
    fromSketch: (fn) => callerOf(fn) !== LIBRARY,
    record: record,
    picture: () => {
      if (!mainCanvas) return { png: null, width: 0, height: 0 };
      return { png: apply(nativeToDataURL, mainCanvas, ["image/png"]), width: apply(canvasWidth, mainCanvas, []),
               height: apply(canvasHeight, mainCanvas, []) };
    },
  });
}
