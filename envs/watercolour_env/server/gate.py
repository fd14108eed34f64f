"""The gate: which replies are paintings worth scoring, each failure a named `Violation`.

Source checks run before the browser, so a rejected reply costs no render time; the render
checks (a sketch error, a timeout, a blank canvas) run on the result. A timeout or a crash of
the browser itself is the infrastructure's failure, reported apart from the sketch's.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from watercolour_env.models import Violation
from watercolour_env.server.render import RenderResult, RenderStatus
from watercolour_env.sketch import SketchInventory, extract_sketch, inspect_sketch

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
    """

    passed: bool
    violations: list[Violation] = field(default_factory=list)
    sketch: str | None = None
    inventory: SketchInventory | None = None
    render: RenderResult | None = None
    infra_failure: bool = False


def check_source(reply: str) -> GateResult:
    """Source checks: a sketch is present, defines `setup` and paints with p5.brush.

    Returns:
        A result with `passed=True` when the reply may go to the renderer.
    """
    sketch = extract_sketch(reply)
    if sketch is None:
        return GateResult(False, [Violation.NO_SKETCH])
    inventory = inspect_sketch(sketch)
    violations = []
    if not inventory.has_setup:
        violations.append(Violation.NO_SETUP)
    if not inventory.paints_with_brush:
        violations.append(Violation.NO_BRUSH_PAINT)
    return GateResult(not violations, violations, sketch, inventory)


def check_render(source: GateResult, render: RenderResult, paint_floor: float = DEFAULT_PAINT_FLOOR) -> GateResult:
    """Render checks on a reply that passed `check_source`.

    Args:
        source: the result of `check_source`.
        render: what the renderer made of the sketch.
        paint_floor: paint fraction in [0, 1] below which the canvas counts as blank.
    """
    violations = list(source.violations)
    infra = render.status is RenderStatus.INFRA_ERROR
    if render.status is RenderStatus.SKETCH_ERROR:
        violations.append(Violation.SKETCH_ERROR)
    elif render.status is RenderStatus.TIMEOUT:
        violations.append(Violation.RENDER_TIMEOUT)
    elif render.status is RenderStatus.OK and render.paint_fraction < paint_floor:
        violations.append(Violation.BLANK_CANVAS)
    passed = not violations and not infra
    return GateResult(passed, violations, source.sketch, source.inventory, render, infra)
