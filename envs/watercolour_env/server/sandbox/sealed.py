"""The sealed render (decision 0007): the sketch records its calls, a painter replays them.

A render is two phases. The sketch runs in a recorder frame (static/recorder.js), in a browser
without WebGL and without p5.brush, where `brush` and p5's picture-changing functions only record
their arguments; nothing the sketch draws there is ever read. The frame's report carries the calls
as plain values, checked here against a closed grammar (`check_recording`): the ten brush methods
and the p5 functions in `P5_CALLS`, with numbers, strings, booleans, null and small arrays of
them, a colour as its four sRGB floats and a vector as its three numbers. `replay_sketch` writes
the checked calls back as a sketch of literal calls, which the painter (the renderer's own pages,
with p5.brush) paints. No code of the sketch's runs where anything is painted, so no path from the
sketch reaches a canvas, a WebGL context, a DOM node or a library object there, whatever it does
in its own realm; and the GPU state the painter keeps is driven only by checked values.

What it does not cover, and why each violation users saw before is still named: the decision
record, docs/decisions/0007-the-sealed-sketch.md.
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Callable

from watercolour_env.server.sandbox.picture import RenderResult, RenderStatus

BRUSH_CALLS = frozenset(
    "scaleBrushes noStroke fill noFill fillBleed fillTexture beginShape vertex endShape circle".split()
)
"""The ten p5.brush methods a sketch may paint with (recorded as "brush.<name>")."""
P5_CALLS = frozenset(
    (
        "createCanvas background clear angleMode colorMode translate rotate rotateZ scale shearX shearY "
        "resetMatrix push pop fill noFill stroke noStroke strokeWeight strokeCap strokeJoin ellipseMode rectMode"
    ).split()
)
"""p5's functions whose state p5.brush reads or the canvas shows, recorded and replayed in order
(static/recorder.js, RECORDED). Every other p5 function the sketch may call is a helper whose
result the recorder already folded into the arguments (random, noise, sin, color ...)."""
CALLS = frozenset({f"brush.{name}" for name in BRUSH_CALLS} | P5_CALLS)
MAX_CALLS = 100_000
"""The most calls a recording may hold (recorder.js stops there and says so); a sketch that makes
more is a sketch error, and nothing is painted. The largest painting of the starter pool and the
warm-start corpus records 7,028 (decision 0007, the spike); 20,000 vertices of one shape already
take more than 60 s to paint, 20,000 circles without fill 0.5 s (docs/LOG.md, 2026-12-07)."""
MAX_ITEMS = 64
"""The most arguments of a call, and items of an array argument (recorder.js refuses more)."""
MAX_CHARS = 200
"""The longest string argument, in characters (a colour is at most a few dozen)."""
TAGS = {"NaN": "NaN", "Infinity": "Infinity", "-Infinity": "-Infinity", "-0": "-0", "undefined": "undefined"}
"""Values JSON cannot carry, sent tagged as {"$": name}, and the literal that replays each."""


class BadRecording(ValueError):
    """A recording outside the grammar: the sketch reached into its recorder (tampering)."""


def _literal(value: object, depth: int = 0) -> str:
    """One argument as a JavaScript literal; raises BadRecording for anything outside the grammar."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise BadRecording("a number that is not finite, untagged")
        return repr(value)
    if isinstance(value, str):
        if len(value) > MAX_CHARS:
            raise BadRecording(f"a string of {len(value)} characters")
        return json.dumps(value)  # ASCII only: every other character escaped
    if isinstance(value, list):
        if depth > 2 or len(value) > MAX_ITEMS:
            raise BadRecording("an array too deep or too long")
        return "[" + ", ".join(_literal(item, depth + 1) for item in value) + "]"
    if isinstance(value, dict) and len(value) == 1:
        ((key, inner),) = value.items()
        if key == "$" and isinstance(inner, str) and inner in TAGS:
            return TAGS[inner]
        if key in ("$color", "$vector") and isinstance(inner, list) and len(inner) == (4 if key == "$color" else 3):
            parts = [_number(item) for item in inner]
            if key == "$vector":
                return f"createVector({', '.join(parts)})"
            # as the guard hands a colour on: p5 makes it afresh from its sRGB floats (guard.js)
            r, g, b, a = parts
            return f'color("color(srgb " + {r} + " " + {g} + " " + {b} + " / " + {a} + ")")'
    raise BadRecording(f"an argument of type {type(value).__name__}")


def _number(value: object) -> str:
    """A number, or a tagged one, as a literal."""
    if isinstance(value, bool) or not isinstance(value, int | float | dict):
        raise BadRecording("a colour or vector part that is not a number")
    if isinstance(value, dict) and value.get("$") == "undefined":
        raise BadRecording("a colour or vector part that is undefined")
    return _literal(value, 3)


def check_recording(recording: object) -> tuple[list[str], bool]:
    """The recorder's report as the painter's lines, checked.

    Args:
        recording: what the recorder frame sent: {"calls": [[name, [arg, ...]], ...],
            "overflow": bool, "hasDraw": bool}; anything else is refused.

    Returns:
        (one line of JavaScript per call, e.g. `brush.circle(145, 268, 166);`, in order; whether
        the sketch declared draw(), so that the painter's picture is taken after a first frame too).

    Raises:
        BadRecording: a name outside `CALLS`, an argument outside the grammar, more than
            `MAX_CALLS` calls, or a report of another shape. The sketch's doing: it can reach
            its recorder's realm, never the painter's.
    """
    if not isinstance(recording, dict) or not isinstance(recording.get("calls"), list):
        raise BadRecording("no list of calls")
    calls = recording["calls"]
    if len(calls) > MAX_CALLS:
        raise BadRecording(f"{len(calls)} calls, over {MAX_CALLS}")
    lines = []
    for call in calls:
        if not (isinstance(call, list) and len(call) == 2 and call[0] in CALLS and isinstance(call[1], list)):
            raise BadRecording(f"a call outside the ten methods and p5's picture functions: {str(call)[:80]}")
        name, args = call
        if len(args) > MAX_ITEMS:
            raise BadRecording(f"{name} given {len(args)} arguments")
        lines.append(f"{name}({', '.join(_literal(a) for a in args)});")
    return lines, recording.get("hasDraw") is True


def replay_sketch(lines: list[str], has_draw: bool) -> str:
    """The painter's sketch: every recorded call in setup, and an empty draw() where the sketch had one."""
    body = "\n".join(lines)
    return f"function setup() {{\n{body}\n}}\n" + ("function draw() {}\n" if has_draw else "")


Render = Callable[[str, int, float, "float | None"], RenderResult]
"""A render phase: (sketch, seed, deadline_s, deadline_at) -> RenderResult."""


class Sealing:
    """`Renderer.render`, sealed or not; mixed into `Renderer`, which has `_render_here` (one phase)."""

    def _recorder_for(self, sealed: bool):  # noqa: ANN202 (a Renderer: renderer.py imports this module)
        """The recorder a sealed renderer records on: as many pages, the same deadline and browser."""
        if not sealed:
            return None
        return type(self)(
            workers=self.workers, deadline_s=self.deadline_s, max_queue=self.max_queue,
            chromium_path=self.chromium_path, js_dir=self._js_dir, browser_env=self.browser_env,
            network_namespace=self.network_namespace, recorder=True,
        )  # fmt: skip

    def render(
        self, sketch: str, seed: int = 0, deadline_s: float | None = None, deadline_at: float | None = None
    ) -> RenderResult:
        """Renders one sketch; blocks the calling thread, never raises for a bad sketch.

        Sealed, the sketch runs in the recorder's pages and these pages paint its
        checked calls (`render_sealed`); unsealed, the sketch paints here itself, watched by the guard.

        Args:
            sketch: JavaScript source defining at least `setup`.
            seed: seed of `Math.random` in [0, 2**32).
            deadline_s: seconds the sketch may render once it has a worker; defaults to the pool's.
            deadline_at: the episode's deadline (a `time.monotonic()` instant). A render starts
                only while its whole `deadline_s` still fits before it, so this deadline never cuts
                a render short; a render that cannot start in time is `INFRA_ERROR` ("... in the
                render queue"), never the sketch's timeout.

        Returns:
            The result; infrastructure failures are `INFRA_ERROR`, with the slow stage in the detail.
        """
        if self._recorder is None:
            return self._render_here(sketch, seed, deadline_s, deadline_at)
        deadline = self.deadline_s if deadline_s is None else deadline_s
        return render_sealed(self._recorder.render, self._render_here, sketch, seed, deadline, deadline_at)


def render_sealed(
    record: Render, paint: Render, sketch: str, seed: int, deadline_s: float, deadline_at: float | None
) -> RenderResult:
    """Records `sketch`, checks its calls, and paints them; the result is what one render gives.

    The render deadline covers both phases, as it covered one before: the recorder has
    `deadline_s` from when it gets a page, the painter what is left of it (its time in the queue
    for a page not counted, as a render's never is). So a sketch that computes for 19 s and then
    paints for 2 s times out as it did unsealed.

    Returns:
        The recorder's result when it timed out, failed for the infrastructure, or sent no calls
        (a navigation); the painter's when it did; else the painter's picture with both phases'
        errors, violations and times: `SKETCH_ERROR` when either phase threw.
    """
    recorded = record(sketch, seed, deadline_s, deadline_at)
    if recorded.status in (RenderStatus.TIMEOUT, RenderStatus.INFRA_ERROR) or recorded.recording is None:
        recorded.recording = None
        if recorded.status is RenderStatus.OK:  # a recorder frame always sends its calls
            return RenderResult(
                RenderStatus.INFRA_ERROR, detail="the recorder sent no calls", renderer=recorded.renderer
            )
        return recorded
    if isinstance(recorded.recording, dict) and recorded.recording.get("overflow") is True:
        recorded.recording, recorded.status, recorded.finished = None, RenderStatus.SKETCH_ERROR, False
        recorded.detail = f"the sketch made more than {MAX_CALLS:,} calls to paint"
        recorded.js_errors = [*recorded.js_errors, recorded.detail][:20]
        return recorded
    violations = list(recorded.violations)
    try:
        lines, has_draw = check_recording(recorded.recording)
    except BadRecording as err:
        violations.append(("tampering", f"its recording: {err}"[:80]))
        lines, has_draw = [], False
    spent_s = (recorded.elapsed_ms - recorded.queued_ms) / 1000.0
    started = time.perf_counter()
    painted = paint(replay_sketch(lines, has_draw), seed, max(0.05, deadline_s - spent_s), deadline_at)
    if painted.status is RenderStatus.TIMEOUT:
        painted.detail = f"no finished frame within {deadline_s:g} s (its {len(lines)} calls painted)"
    painted.elapsed_ms = recorded.elapsed_ms + (time.perf_counter() - started) * 1000.0
    painted.queued_ms += recorded.queued_ms
    if painted.status in (RenderStatus.TIMEOUT, RenderStatus.INFRA_ERROR):
        painted.violations = violations + painted.violations
        return painted
    painted.violations = violations + painted.violations
    painted.js_errors = (recorded.js_errors + painted.js_errors)[:20]
    painted.finished = recorded.finished and painted.finished
    if not recorded.finished:
        painted.status, painted.detail = RenderStatus.SKETCH_ERROR, recorded.detail or painted.detail
    return painted
