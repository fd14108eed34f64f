"""The gate: which replies are paintings worth scoring, each failure a named `Violation`.

Source checks read the syntax tree (`sketch.inspect_sketch`) before the browser, so a rejected
reply costs no render time; they are the fast first pass, and what the sandbox blocked while the
sketch ran (`RenderResult.violations`, static/guard.js) is what decides. The render checks (a
sketch error, a timeout, a blank canvas) run on the result. A crash of the browser itself is the
infrastructure's failure, reported apart from the sketch's: its reward is None, while a reply
that fails the gate still gets a number.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from watercolour_env.server.sandbox import CANVAS_PX, RenderResult, RenderStatus
from watercolour_env.server.sandbox.brush_api import brush_methods
from watercolour_env.sketch import ALLOWED_BRUSH_METHODS, SketchInventory, extract_sketch, inspect_sketch
from watercolour_env.syntax import parse_budget
from watercolour_env.terms import RewardComponent, ScoreStatus, Violation

if TYPE_CHECKING:
    from watercolour_env.server.copies import CopyGuard, CopyMatch

log = logging.getLogger(__name__)

DEFAULT_PAINT_FLOOR = 0.005
"""Paint fraction under which a canvas is blank. The example sketches measured 0.0 (all shapes
off the canvas) against 0.02 for one small circle (trivial.js); see docs/LOG.md."""


@dataclass
class GateResult:
    """The gate's verdict on one reply.

    Attributes:
        passed: True when the reply rendered a real painting with no violation.
        violations: every violation found, in the order checked.
        sketch: the extracted JavaScript, or None.
        inventory: counts from the source, or None when there is no sketch.
        render: the render result when a render was made.
        infra_failure: True when the browser, not the sketch, failed (reward must be None).
        copied: the pool painting the reply reproduces (`copied_reference`), or None.
    """

    passed: bool
    violations: list[Violation] = field(default_factory=list)
    sketch: str | None = None
    inventory: SketchInventory | None = None
    render: RenderResult | None = None
    infra_failure: bool = False
    copied: CopyMatch | None = None


BARE_PRIMITIVES = frozenset(
    {
        "point",
        "line",
        "rect",
        "square",
        "ellipse",
        "circle",
        "arc",
        "triangle",
        "quad",
        "beginShape",
        "vertex",
        "endShape",
        "curveVertex",
        "bezierVertex",
        "quadraticVertex",
        "splineVertex",
        "bezier",
        "curve",
        "spline",
        "beginContour",
        "endContour",
        "plane",
        "box",
        "sphere",
        "cylinder",
        "cone",
        "ellipsoid",
        "torus",
        "image",
    }
)
"""p5 drawing functions: called without `brush.` they paint without the medium."""

EXTERNAL_GLOBALS = frozenset(
    {
        "fetch",
        "XMLHttpRequest",
        "WebSocket",
        "EventSource",
        "Worker",
        "SharedWorker",
        "eval",
        "Function",
        "importScripts",
        "open",
        "location",
        "document",
        "navigator",
        "localStorage",
        "sessionStorage",
        "indexedDB",
        "caches",
        "postMessage",
        "opener",
        "Image",
        "Audio",
        "FileReader",
        "RTCPeerConnection",
        "httpGet",
        "httpPost",
        "httpDo",
        "select",
        "selectAll",
        "removeElements",
    }
)
"""Globals that reach the network, the page or the browser; `setTimeout` with a string is eval too."""

EXTERNAL_PREFIXES = ("load", "create", "save")
"""p5's load* (files, images, fonts), create* (DOM and media elements) and save* functions."""
CANVAS_OK_CREATORS = frozenset({"createCanvas", "createVector"})
OFFSCREEN_CREATORS = frozenset({"createGraphics", "createFramebuffer", "createImage"})
P5_INTERNALS = frozenset({"p5", "_renderer"})
"""p5 itself and its renderer: the sketch's way to p5's internals, never needed in global mode."""
TEXT_FUNCTIONS = frozenset({"text", "textFont", "textSize", "textAlign", "textStyle", "textWrap"})
CANVAS_CHANGES = frozenset({"resizeCanvas", "pixelDensity", "setAttributes", "fullscreen", "noCanvas"})


def check_source(reply: str, strict: bool = True, known_methods: frozenset[str] | None = None) -> GateResult:
    """Source checks, before any render: every violation the code shows, not only the first.

    Args:
        reply: the model's raw completion.
        strict: reject real p5.brush methods outside the ten-method allowlist (training default).
        known_methods: the installed p5.brush API; read from the package when None.

    Returns:
        A result with `passed=True` when the reply may go to the renderer. A reply that makes the
        check itself fail (a literal that overflows, a lone surrogate, a parse past its CPU
        budget: `syntax.PARSE_CPU_S` for all of a reply's blocks) is `unparseable`: the reply chose
        it, so it earns the rejection's reward, never an error or None.
    """
    known = brush_methods() if known_methods is None else known_methods
    sketch = None
    try:
        with parse_budget():
            sketch = extract_sketch(reply)
            if sketch is None:
                return GateResult(False, [Violation.NO_SKETCH])
            inventory = inspect_sketch(sketch)
        violations = source_violations(inventory, known, strict)
    except Exception as err:  # noqa: BLE001 (whatever the reply made the parser do is the reply's)
        log.info("gate: a reply broke the source check (%s: %s)", type(err).__name__, str(err)[:200])
        return GateResult(False, [Violation.UNPARSEABLE], sketch)
    return GateResult(not violations, violations, sketch, inventory)


def source_violations(inventory: SketchInventory, known_methods: frozenset[str], strict: bool) -> list[Violation]:
    """The source violations of an inventory, in a fixed order."""
    found = []
    # a function the sketch defines itself (say `function circle(...)` around brush.circle) is not p5's
    calls = {name: n for name, n in inventory.global_calls.items() if name not in inventory.declared}
    # a p5 function named without being called (`const e = ellipse; e(...)`) is that function
    named = (inventory.references - inventory.declared) | set(calls)
    if inventory.syntax_error:
        found.append(Violation.SYNTAX_ERROR)
    if not inventory.has_setup:
        found.append(Violation.NO_SETUP)
    width, height, renderer = inventory.canvas or (None, None, None)
    if renderer != "WEBGL":
        found.append(Violation.CANVAS_NOT_WEBGL)
    if inventory.canvas is not None and (width, height) != (CANVAS_PX, CANVAS_PX):
        found.append(Violation.CANVAS_SIZE)
    methods = set(inventory.brush_calls)
    if methods - known_methods:
        found.append(Violation.UNKNOWN_BRUSH_METHOD)
    if strict and (methods & known_methods) - set(ALLOWED_BRUSH_METHODS):
        found.append(Violation.BRUSH_METHOD_NOT_ALLOWED)
    if BARE_PRIMITIVES & named:
        found.append(Violation.BARE_PRIMITIVE)
    if _reaches_outside(inventory):
        found.append(Violation.EXTERNAL_ACCESS)
    if TEXT_FUNCTIONS & named:
        found.append(Violation.TEXT_ON_CANVAS)
    if CANVAS_CHANGES & named:
        found.append(Violation.CANVAS_CHANGE)
    if not inventory.paints_with_brush:
        found.append(Violation.NO_BRUSH_PAINT)
    if inventory.computed - inventory.declared:  # `top[i]` on the sketch's own array `top` is its own
        found.append(Violation.COMPUTED_ACCESS)
    if OFFSCREEN_CREATORS & named:
        found.append(Violation.OFFSCREEN_LAYER)
    if "drawingContext" in named or any(call.endswith(".getContext") for call in inventory.member_calls):
        found.append(Violation.DIRECT_CONTEXT)
    if P5_INTERNALS & named:
        found.append(Violation.P5_NOT_ALLOWED)
    return found


def _reaches_outside(inventory: SketchInventory) -> bool:
    names = (set(inventory.global_calls) | inventory.references | inventory.constructed) - inventory.declared
    p5_io = (
        {n for n in names & set(inventory.global_calls) if n.startswith(EXTERNAL_PREFIXES)}
        - CANVAS_OK_CREATORS
        - OFFSCREEN_CREATORS
    )
    return bool(inventory.dynamic_import or inventory.urls or p5_io or names & EXTERNAL_GLOBALS)


_RUNTIME = {v.value: v for v in Violation}


def sandbox_detail(render: RenderResult) -> str:
    """What the sandbox blocked, readable: "blocked in the sandbox: bare_primitive (ellipse), ..."."""
    if not render.violations:
        return ""
    return "blocked in the sandbox: " + ", ".join(f"{name} ({what})" for name, what in render.violations[:8])


def check_copy(result: GateResult, guard: CopyGuard | None, allowed: str | None = None) -> GateResult:
    """The copy guard on a reply that passed every other check.

    Args:
        result: the gate's result so far.
        guard: the pool's copy guard; None when it is off.
        allowed: the id of the one painting this episode may copy (the pool's oracle, in an
            episode reset with `oracle=True`); a copy of any other is still `copied_reference`.

    Returns:
        `copied_reference` when the reply reproduces a painting of the pool (server/copies.py),
        with the match in `copied`; the result unchanged otherwise, or when the guard is None (off).
    """
    if guard is None or not result.passed or result.sketch is None:
        return result
    match = guard.match(result.sketch, result.render.png if result.render else None, ignore=allowed)
    if match is None:
        return result
    return GateResult(False, [Violation.COPIED_REFERENCE], result.sketch, result.inventory, result.render, copied=match)


def check_render(source: GateResult, render: RenderResult, paint_floor: float = DEFAULT_PAINT_FLOOR) -> GateResult:
    """Render checks on a reply that passed `check_source`, with what the sandbox blocked.

    Every run-time violation the sandbox recorded (`RenderResult.violations`) rejects the reply,
    whatever the picture: the sandbox decides, the source checks are a fast first pass.

    Args:
        source: the result of `check_source`.
        render: what the renderer made of the sketch.
        paint_floor: paint fraction in [0, 1] below which the canvas counts as blank.
    """
    violations = list(source.violations)
    for name, _what in render.violations:
        violation = _RUNTIME.get(name, Violation.TAMPERING)
        if violation not in violations:
            violations.append(violation)
    infra = render.status is RenderStatus.INFRA_ERROR
    if render.status is RenderStatus.SKETCH_ERROR:
        violations.append(Violation.SKETCH_ERROR)
    elif render.status is RenderStatus.TIMEOUT:
        violations.append(Violation.RENDER_TIMEOUT)
    elif render.status is RenderStatus.OK and render.paint_fraction < paint_floor:
        violations.append(Violation.BLANK_CANVAS)
    passed = not violations and not infra
    return GateResult(passed, violations, source.sketch, source.inventory, render, infra)


def step_detail(gate: GateResult, components: list[RewardComponent]) -> str:
    """Why a step ended as it did, in one line.

    The renderer's failure first (the stage that ran out of time, the full queue), else the
    scorers without a verdict, else the sandbox's or the parser's report.
    """
    render = gate.render
    if gate.infra_failure and render is not None and render.detail:
        return f"render: {render.detail}"
    if gate.copied is not None:
        return gate.copied.describe()
    if render is not None:
        return _unscored_detail(components) or sandbox_detail(render) or render.detail
    return _unscored_detail(components) or _source_detail(gate)


def _unscored_detail(components: list[RewardComponent]) -> str:
    """Which weighted scorers gave no verdict, and why (empty when all did)."""
    missing = [
        f"{c.name} ({c.detail})" if c.detail else c.name for c in components if c.status is ScoreStatus.UNAVAILABLE
    ]
    return f"unscored, no verdict from: {'; '.join(missing)}" if missing else ""


def _source_detail(gate: GateResult) -> str:
    """Where the parser stopped, for a reply rejected before rendering with a syntax error."""
    if Violation.UNPARSEABLE in gate.violations:
        return "the source check could not read this reply (see the server log)"
    if gate.inventory is not None and gate.inventory.syntax_error:
        return f"syntax error at {gate.inventory.syntax_error}"
    return ""
