from tests.conftest import example
from watercolour_env.models import Violation
from watercolour_env.server.gate import check_render, check_source
from watercolour_env.server.sandbox import RenderResult, RenderStatus


def test_a_reply_with_no_code_is_no_sketch():
    assert check_source(example("no_setup.md")).violations == [Violation.NO_SKETCH]


def test_bare_p5_primitives_are_rejected_before_rendering():
    gate = check_source(example("bare_primitives.js"))
    assert not gate.passed
    assert gate.violations == [Violation.BARE_PRIMITIVE, Violation.NO_BRUSH_PAINT]


def test_a_fenced_block_without_setup_names_every_violation():
    gate = check_source("```js\nfunction draw() { background(0); }\n```")
    assert gate.violations == [Violation.NO_SETUP, Violation.CANVAS_NOT_WEBGL, Violation.NO_BRUSH_PAINT]


def test_a_typical_sketch_passes_the_source_checks():
    assert check_source(example("hibiscus.js")).passed


def test_a_browser_crash_is_the_infrastructures_failure_not_a_violation():
    source = check_source(example("hibiscus.js"))
    gate = check_render(source, RenderResult(RenderStatus.INFRA_ERROR, detail="browser died"))
    assert gate.infra_failure and not gate.passed
    assert gate.violations == []


def test_a_canvas_under_the_paint_floor_is_blank():
    source = check_source(example("hibiscus.js"))
    gate = check_render(source, RenderResult(RenderStatus.OK, png=b"x", paint_fraction=0.001, finished=True), 0.005)
    assert gate.violations == [Violation.BLANK_CANVAS]


def test_a_timeout_is_the_sketchs_violation():
    source = check_source(example("hibiscus.js"))
    gate = check_render(source, RenderResult(RenderStatus.TIMEOUT))
    assert gate.violations == [Violation.RENDER_TIMEOUT] and not gate.infra_failure
