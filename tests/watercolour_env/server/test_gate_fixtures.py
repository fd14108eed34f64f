"""The gate's fixture table: every source violation has a sketch that must trigger it, and a
dozen ordinary sketches (commented, helpers, loops, Math.*, arrows) must pass untouched."""

import json
from pathlib import Path

import pytest

from watercolour_env.models import Violation
from watercolour_env.server.gate import check_source

GATE = Path(__file__).resolve().parents[2] / "fixtures" / "sketches" / "gate"
EXPECTED = json.loads((GATE / "expected.json").read_text())

# found only in the render, only by the sandbox while the sketch runs, or by the server around it
# (the copy guard compares with the pool: tests/watercolour_env/server/test_copies.py; a reply
# too long is refused before it is read: tests/watercolour_env/server/test_frames.py)
RENDER_ONLY = {
    Violation.SKETCH_ERROR,
    Violation.RENDER_TIMEOUT,
    Violation.BLANK_CANVAS,
    Violation.IMAGE_OR_PIXELS,
    Violation.SHADER_OR_3D,
    Violation.BRUSH_ARGUMENT,
    Violation.TAMPERING,
    Violation.INVALID_FRAME,
    Violation.UNENCODABLE_OBSERVATION,
    Violation.COPIED_REFERENCE,
    Violation.REPLY_TOO_LONG,
}
SOURCE_VIOLATIONS = set(Violation) - RENDER_ONLY


@pytest.mark.parametrize(("name", "violations"), sorted(EXPECTED.items()))
def test_each_fixture_gets_exactly_its_expected_violations(name, violations):
    # surrogatepass: lone_surrogate.js holds what a JSON reply can carry and UTF-8 cannot
    gate = check_source((GATE / name).read_text(errors="surrogatepass"))
    assert [v.value for v in gate.violations] == violations
    assert gate.passed == (violations == [])


def test_the_table_covers_every_source_violation_and_at_least_ten_passing_sketches():
    covered = {Violation(v) for vs in EXPECTED.values() for v in vs}
    assert covered == SOURCE_VIOLATIONS
    assert sum(1 for vs in EXPECTED.values() if not vs) >= 10


def test_outside_strict_mode_real_methods_beyond_the_allowlist_pass():
    source = (GATE / "real_method_outside_allowlist.js").read_text()
    assert check_source(source, strict=False).passed
    assert check_source(source, strict=True).violations == [Violation.BRUSH_METHOD_NOT_ALLOWED]
