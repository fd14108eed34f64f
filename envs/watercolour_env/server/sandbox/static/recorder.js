// The recorder of decision 0007 (docs/decisions/0007-the-sealed-sketch.md): loaded after seed.js
// and p5, before the harness and the sketch, in a browser without WebGL (--disable-3d-apis) and
// without p5.brush. The sketch runs here and paints nothing that leaves: `brush` records the ten
// methods' arguments, and p5's functions that change what p5.brush paints record theirs and act
// on this frame's 2D canvas, so width, height, sin in degrees, random and the rest answer as they
// do in a painting frame. The harness sends the calls to the server as plain values; the server
// checks them (sealed.py) and a painter frame, where no code of the sketch runs, replays them.
// What else the sketch calls is recorded as the violation the guard names (guard.js): a report,
// not the containment, which is that nothing here is ever painted or read back.
(function () {
  "use strict";
  // p5.brush takes this many Math.random draws when it loads (it seeds its own generators then,
  // and takes none after): the sketch's draws here are the ones it gets in a painting frame.
  const BRUSH_DRAWS_AT_LOAD = 4;
  for (let i = 0; i < BRUSH_DRAWS_AT_LOAD; i++) Math.random();
  const BRUSH_EXPORTS = /*BRUSH_EXPORTS*/["circle"];
  const apply = Reflect.apply, defineProperty = Object.defineProperty, freeze = Object.freeze;
  const getPrototypeOf = Object.getPrototypeOf, isArray = Array.isArray;

  const TEN = new Set("scaleBrushes noStroke fill noFill fillBleed fillTexture beginShape vertex endShape circle".split(" "));
  // p5's state that p5.brush reads or the canvas shows: replayed in order in the painter.
  const RECORDED = new Set((
    "createCanvas background clear angleMode colorMode translate rotate rotateZ scale shearX shearY resetMatrix " +
    "push pop fill noFill stroke noStroke strokeWeight strokeCap strokeJoin ellipseMode rectMode " +
    // p5.brush wraps these two to reseed its own generators (red team, 2026-12-07)
    "randomSeed noiseSeed"
  ).split(" "));
  const WEBGL_ONLY = new Set(["rotateZ"]);  // recorded; the recorder's 2D canvas would throw
  // What the sketch may call besides (guard.js's SKETCH_OK less the recorded): helpers, run as they are.
  const HELPERS = new Set((
    "noLoop loop isLooping frameRate getFrameRate getTargetFrameRate millis second minute hour day month " +
    "year random randomGaussian noise noiseDetail map lerp constrain dist mag norm sq sqrt pow " +
    "abs floor ceil round min max exp log fract sin cos tan asin acos atan atan2 degrees radians color lerpColor " +
    "paletteLerp red green blue alpha hue saturation brightness lightness createVector print int float str boolean " +
    "byte char unchar hex unhex nf nfc nfp nfs splitTokens shuffle"
  ).split(" "));
  // The guard's names for the rest (guard.js, kindOf), so that users see the same violations.
  const PRIMITIVES = new Set((
    "point line rect square ellipse circle arc triangle quad beginShape vertex endShape curveVertex bezierVertex " +
    "quadraticVertex splineVertex vertexProperty bezier curve spline beginContour endContour normal beginClip endClip " +
    "clip erase noErase blendMode"
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

  const found = [];
  function record(kind, name) {
    for (let i = 0; i < found.length; i++) if (found[i].kind === kind && found[i].name === name) return;
    if (found.length < 40) found.push(freeze({ kind: kind, name: String(name).slice(0, 60) }));
  }

  // ---- the calls, as plain values ----
  // Numbers JSON cannot carry, and undefined (which a default parameter tells from null), travel
  // tagged; a colour as its sRGB floats and a vector as its numbers, as the guard hands them on.
  // sealed.py's bounds: calls, arguments and array items, a string's characters, and the leaves
  // (numbers, strings ...) and string characters of the whole recording
  const MAX_CALLS = 100000, MAX_ITEMS = 64, MAX_CHARS = 200, MAX_LEAVES = 400000, MAX_TOTAL_CHARS = 2000000;
  const calls = [];
  let overflow = false, leaves = 0, chars = 0;
  const REFUSED = {};
  const colorProto = p5.Color.prototype, vectorProto = p5.Vector.prototype;
  const rgbaOf = Object.getOwnPropertyDescriptor(colorProto, "_array").get;
  function number(value) {
    if (value !== value || value === Infinity || value === -Infinity) return { $: String(value) };
    return value === 0 && 1 / value < 0 ? { $: "-0" } : value;
  }
  function encode(value, depth) {
    leaves++;
    switch (typeof value) {
      case "number": return number(value);
      case "boolean": return value;
      case "string": chars += value.length; return value.length <= MAX_CHARS ? value : REFUSED;
      case "undefined": return { $: "undefined" };
    }
    if (value === null) return null;
    if (typeof value !== "object") return REFUSED;
    const proto = getPrototypeOf(value);
    if (isArray(value) && proto === Array.prototype) {
      if (depth > 2 || value.length > MAX_ITEMS) return REFUSED;
      const out = [];
      for (let i = 0; i < value.length; i++) {
        const item = encode(value[i], depth + 1);
        if (item === REFUSED) return REFUSED;
        out.push(item);
      }
      return out;
    }
    if (proto === colorProto) {
      const rgba = apply(rgbaOf, value, []);
      return { $color: [number(+rgba[0]), number(+rgba[1]), number(+rgba[2]), number(+rgba[3])] };
    }
    if (proto === vectorProto) return { $vector: [number(+value.x), number(+value.y), number(+value.z)] };
    return REFUSED;
  }
  function add(name, args) {
    if (args.length > MAX_ITEMS) return false;
    const plain = [];
    for (let i = 0; i < args.length; i++) {
      const item = encode(args[i], 0);
      if (item === REFUSED) return false;
      plain.push(item);
    }
    if (calls.length >= MAX_CALLS || leaves > MAX_LEAVES || chars > MAX_TOTAL_CHARS) overflow = true;
    if (!overflow) calls.push([name, plain]);
    return true;
  }

  // ---- brush: the ten methods record; the rest of p5.brush's exports are the guard's violation ----
  const facade = {};
  for (const name of BRUSH_EXPORTS) {
    facade[name] = TEN.has(name)
      ? function () { if (!add("brush." + name, arguments)) record("brush_argument", "brush." + name); }
      : function () { record("brush_method_not_allowed", "brush." + name); };
  }
  defineProperty(window, "brush", { value: freeze(facade), writable: false, configurable: false });

  // ---- p5: recorded while the sketch's setup and first frame run, outermost calls only ----
  // `depth` counts p5 calls in progress, so what p5 calls inside them (createCanvas sets its own
  // state) is p5's and replays with them; p5's own calls between (resetMatrix before each draw)
  // are recorded, since the painter runs the whole log in its setup.
  let depth = 0, active = false, hasDraw = false;
  const proto = p5.prototype;
  function wrap(name, real) {
    if (RECORDED.has(name)) {
      return function () {
        if (depth === 0 && active) {
          const refused = name === "createCanvas" ? arguments.length > 3 : false;
          if (refused || !add(name, arguments)) {
            return record(name === "createCanvas" ? "canvas_change" : name === "background" ? "image_or_pixels" : "p5_not_allowed",
              name + " given an object"), undefined;
          }
        }
        if (WEBGL_ONLY.has(name)) return undefined;
        // the recorder's canvas is 2D: this browser has no WebGL
        const args = name === "createCanvas" ? [arguments[0], arguments[1]] : arguments;
        depth++;
        try { return apply(real, this, args); } finally { depth--; }
      };
    }
    if (HELPERS.has(name)) {
      return function () { depth++; try { return apply(real, this, arguments); } finally { depth--; } };
    }
    return function () {
      if (depth === 0 && active) return record(kindOf(name), name), undefined;
      depth++;
      try { return apply(real, this, arguments); } finally { depth--; }
    };
  }
  for (const name of Object.getOwnPropertyNames(proto)) {
    const d = Object.getOwnPropertyDescriptor(proto, name);
    // p5's own entry points (_draw, _onresize, and redraw, which _draw calls) are left alone:
    // what they call is recorded (resetMatrix before each draw)
    if (name === "constructor" || name === "redraw" || name[0] === "_" || typeof d.value !== "function" || !d.writable) continue;
    proto[name] = wrap(name, d.value);
  }
  for (const C of [HTMLCanvasElement, OffscreenCanvas]) {
    const getContext = C.prototype.getContext;
    C.prototype.getContext = function () {
      if (depth === 0 && active) return record("direct_context", "getContext"), null;
      return apply(getContext, this, arguments);
    };
  }
  p5.registerAddon(function (_p5, _fn, lifecycles) {
    lifecycles.presetup = function () {
      for (const name of ["drawingContext", "pixels"]) {
        const d = Object.getOwnPropertyDescriptor(window, name);
        if (d && d.get && d.configurable) {
          defineProperty(window, name, { get: function () { if (active) record(kindOf(name), name); }, configurable: true });
        }
      }
      hasDraw = typeof window.draw === "function";
      const setup = window.setup;
      if (typeof setup === "function") {
        try { window.setup = function () { active = true; return apply(setup, this, arguments); }; } catch (e) { /* kept */ }
      }
    };
  });

  // What the harness reads, as it reads the guard (harness.js).
  window.__watercolourGuard = freeze({
    picture: function () { return { png: null, width: 0, height: 0 }; },
    violations: function () { return found.slice(); },
    record: record,
    fromSketch: function () { return false; },
    recording: function () { return { calls: calls.slice(), overflow: overflow, hasDraw: hasDraw }; },
    sketchP5: freeze({ Vector: vectorProto.constructor }),
  });
})();
