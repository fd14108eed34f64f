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
        "resetMatrix push pop fill noFill stroke noStroke strokeWeight strokeCap strokeJoin ellipseMode rectMode "
        "randomSeed noiseSeed"
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
MAX_LEAVES = 400_000
"""The most values (numbers, strings, booleans, nulls, tags) in a whole recording, and
`MAX_TOTAL_CHARS` the most characters of its strings: without them, arrays that share their items
made a replay of 535 MB from ten calls (red team, 2026-12-07; the largest pool painting has about
30,000)."""
MAX_TOTAL_CHARS = 2_000_000
MAX_RECORDING_CHARS = 16_000_000
"""The longest recording the harness sends, as JSON text (harness.js): longer is "too large". The
recorder's own bounds keep an honest one under it (400,000 values of at most 24 characters)."""
MAX_INT = 2**53
"""Integers past this are not JavaScript numbers (a BigInt's digits, forged into a recording)."""
MAX_ITEMS = 64
"""The most arguments of a call, and items of an array argument (recorder.js refuses more)."""
MAX_CHARS = 200
"""The longest string argument, in characters (a colour is at most a few dozen)."""
TAGS = {"NaN": "NaN", "Infinity": "Infinity", "-Infinity": "-Infinity", "-0": "-0", "undefined": "undefined"}
"""Values JSON cannot carry, sent tagged as {"$": name}, and the literal that replays each."""


class BadRecording(ValueError):
    """A recording outside the grammar: the sketch reached into its recorder (tampering)."""


class _Budget:
    """What is left of a recording's bounds while its lines are written."""

    def __init__(self) -> None:
        self.leaves, self.chars = MAX_LEAVES, MAX_TOTAL_CHARS

    def take(self, chars: int = 0) -> None:
        self.leaves -= 1
        self.chars -= chars
        if self.leaves < 0 or self.chars < 0:
            raise BadRecording(f"more than {MAX_LEAVES:,} values or {MAX_TOTAL_CHARS:,} characters")


def _literal(value: object, budget: _Budget, depth: int = 0) -> str:
    """One argument as a JavaScript literal; raises BadRecording for anything outside the grammar."""
    if isinstance(value, (list, dict)):
        budget.take()
        if isinstance(value, list):
            if depth > 2 or len(value) > MAX_ITEMS:
                raise BadRecording("an array too deep or too long")
            return "[" + ", ".join(_literal(item, budget, depth + 1) for item in value) + "]"
        if len(value) == 1:
            ((key, inner),) = value.items()
            if key == "$" and isinstance(inner, str) and inner in TAGS:
                return TAGS[inner]
            if key in ("$color", "$vector") and isinstance(inner, list) and len(inner) == (4 if key == "$color" else 3):
                parts = [_number(item, budget) for item in inner]
                if key == "$vector":
                    return f"createVector({', '.join(parts)})"
                # as the guard hands a colour on: p5 makes it afresh from its sRGB floats (guard.js)
                r, g, b, a = parts
                return f'color("color(srgb " + {r} + " " + {g} + " " + {b} + " / " + {a} + ")")'
        raise BadRecording("an object outside the grammar")
    if isinstance(value, str):
        budget.take(len(value))
        if len(value) > MAX_CHARS:
            raise BadRecording(f"a string of {len(value)} characters")
        return json.dumps(value)  # ASCII only: every other character escaped
    return _number(value, budget)


def _number(value: object, budget: _Budget) -> str:
    """A number, a boolean, null or a tag as a literal (a colour's or vector's part: no arrays)."""
    budget.take()
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    if isinstance(value, int):
        if abs(value) > MAX_INT:
            raise BadRecording("an integer past 2**53")
        return str(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise BadRecording("a number that is not finite, untagged")
        return repr(value)
    if isinstance(value, dict) and len(value) == 1 and isinstance(value.get("$"), str) and value["$"] in TAGS:
        return TAGS[value["$"]]
    raise BadRecording(f"a value of type {type(value).__name__}")


def check_recording(recording: object) -> tuple[list[str], bool]:
    """The recorder's report as the painter's lines, checked.

    Args:
        recording: what the recorder frame sent, as JSON text (harness.js) or already parsed:
            {"calls": [[name, [arg, ...]], ...], "overflow": bool, "hasDraw": bool}.

    Returns:
        (one line of JavaScript per call, e.g. `brush.circle(145, 268, 166);`, in order; whether
        the sketch declared draw(), so that the painter's picture is taken after a first frame too).

    Raises:
        BadRecording: text that is not JSON or longer than `MAX_RECORDING_CHARS`, a name outside
            `CALLS`, an argument outside the grammar, more than `MAX_CALLS` calls or past the
            bounds of the whole, or a report of another shape. Nothing else: whatever the sketch
            made its recorder send is the sketch's doing (it reaches its recorder's realm, never
            the painter's), so no fault of the check's own escapes as another error.
    """
    try:
        return _checked(recording)
    except BadRecording:
        raise
    except Exception as err:  # noqa: BLE001 (a sketch's recording must never raise anything else)
        raise BadRecording(f"a recording the check could not read ({type(err).__name__})") from err


def parse_recording(recording: object) -> object:
    """The recorder's JSON text parsed (anything else passes as it is); BadRecording when it is not JSON."""
    if not isinstance(recording, str):
        return recording
    if len(recording) > MAX_RECORDING_CHARS:
        raise BadRecording(f"{len(recording):,} characters of JSON")
    try:
        return json.loads(recording)
    except (ValueError, RecursionError) as err:  # a BigInt's 5,000 digits are a ValueError too
        raise BadRecording(f"not JSON: {recording[:20]!r}") from err


def _checked(recording: object) -> tuple[list[str], bool]:
    recording = parse_recording(recording)
    if not isinstance(recording, dict) or not isinstance(recording.get("calls"), list):
        raise BadRecording("no list of calls")
    calls = recording["calls"]
    if len(calls) > MAX_CALLS:
        raise BadRecording(f"{len(calls)} calls, over {MAX_CALLS}")
    budget, lines = _Budget(), []
    for call in calls:
        if not (isinstance(call, list) and len(call) == 2 and isinstance(call[0], str) and isinstance(call[1], list)):
            raise BadRecording("a call that is not [name, [arguments]]")
        name, args = call
        if name not in CALLS:
            raise BadRecording(f"a call outside the ten methods and p5's picture functions: {name[:40]!r}")
        if len(args) > MAX_ITEMS:
            raise BadRecording(f"{name} given {len(args)} arguments")
        lines.append(f"{name}({', '.join(_literal(a, budget) for a in args)});")
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
    checking = time.perf_counter()
    try:
        recording: object = parse_recording(recorded.recording)
    except BadRecording as err:
        recording = err
    if isinstance(recording, dict) and recording.get("overflow") is True:
        recorded.recording, recorded.status, recorded.finished = None, RenderStatus.SKETCH_ERROR, False
        recorded.detail = (
            f"the sketch asked for more than a recording holds ({MAX_CALLS:,} calls, {MAX_LEAVES:,} values)"
        )
        recorded.js_errors = [*recorded.js_errors, recorded.detail][:20]
        return recorded
    violations = list(recorded.violations)
    try:
        if isinstance(recording, BadRecording):
            raise recording
        lines, has_draw = check_recording(recording)
    except BadRecording as err:
        violations.append(("tampering", f"its recording: {err}"[:80]))
        lines, has_draw = [], False
    # the check's own time counts, as the sketch's arguments decide it
    spent_s = (recorded.elapsed_ms - recorded.queued_ms) / 1000.0 + (time.perf_counter() - checking)
    started = checking
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
