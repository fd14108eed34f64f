"""The allowlist inside the sandbox (static/guard.js), with the source checks out of the way.

Each red-team sketch under spaces/env/validation/canaries/ is rendered straight through the renderer,
so what is tested is what the sandbox itself blocks and records, not what the gate's first pass
would have caught. Valid paintings must not change by a single byte: the starter pool renders to
its stored references under enforcement, and the examples render the same with it on and off.
"""

from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor

import pytest

from tests.conftest import EXAMPLES, REPO
from watercolour_env.pool import STARTER_POOL
from watercolour_env.server.sandbox import Renderer, RenderStatus

pytestmark = pytest.mark.browser

FIXTURES = REPO / "tests" / "fixtures" / "sketches"
CANARIES = REPO / "spaces" / "env" / "validation" / "canaries"  # the red-team corpus, the Space's canaries
HACKS = json.loads((CANARIES / "expected.json").read_text())
SHAPES = FIXTURES / "shapes"
# What a hack marked "same_as_baseline" must paint: its own brush call and nothing else.
BASELINE = """function setup() { createCanvas(600, 600, WEBGL); angleMode(DEGREES); noLoop(); }
function draw() {
  translate(-width / 2, -height / 2);
  background(250, 246, 238);
  brush.noStroke();
  brush.fill("#d94f70", 120);
  brush.circle(300, 300, 60);
}"""


@pytest.fixture(scope="module")
def unguarded():
    with Renderer(workers=1, deadline_s=20, enforce=False) as renderer:
        yield renderer


@pytest.fixture(scope="module")
def sealed():
    """Sealed (decision 0007): the sketch records, a painter replays its checked calls."""
    with Renderer(workers=2, deadline_s=20, sealed=True) as renderer:
        yield renderer


@pytest.mark.parametrize(("name", "expected"), sorted(HACKS.items()))
def test_the_sandbox_blocks_each_hack_on_its_own(renderer, name, expected):
    source = (CANARIES / name).read_text()
    result = renderer.render(source, seed=1)
    kinds = [kind for kind, _ in result.violations]
    if expected["sandbox"] == "sketch_error":
        # the way in does not exist here: the sketch throws before it can paint
        assert result.status is RenderStatus.SKETCH_ERROR and not kinds, (result.js_errors, kinds)
    elif expected["sandbox"] == "same_as_baseline":
        baseline = renderer.render(BASELINE, seed=1)
        assert result.status is RenderStatus.OK and not kinds and result.png == baseline.png
    elif expected["sandbox"] == "contained":
        # no effect at all: the same picture as the sketch without the attempt
        twin = renderer.render(source.replace(expected["same_as_without"], ""), seed=1)
        assert source != source.replace(expected["same_as_without"], "")
        assert result.status is RenderStatus.OK and twin.status is RenderStatus.OK and not kinds
        assert result.png == twin.png
    else:
        assert expected["sandbox"] in kinds, (kinds, result.js_errors)


@pytest.mark.parametrize(("name", "expected"), sorted(HACKS.items()))
def test_the_sealed_render_contains_each_hack(sealed, renderer, name, expected):
    """Sealed (decision 0007), each hack gets the guard's violation, one of its own, or a sketch
    error; or it paints exactly what its ten-method calls paint: the guarded render's picture, or,
    where the guard's render threw, the one circle it paints with brush.circle (BASELINE)."""
    guarded, source = renderer, (CANARIES / name).read_text()
    result = sealed.render(source, seed=1)
    kinds = [kind for kind, _ in result.violations]
    if expected["sealed"] == "sketch_error":
        assert result.status is RenderStatus.SKETCH_ERROR and not kinds, (result.js_errors, kinds)
    elif expected["sealed"] in ("same_as_guarded", "same_as_baseline"):
        reference = sealed.render(BASELINE, seed=1) if expected["sealed"] == "same_as_baseline" else None
        reference = reference or guarded.render(source, seed=1)
        assert result.status is RenderStatus.OK and not kinds, (result.js_errors, kinds)
        assert result.png == reference.png
    else:
        assert expected["sealed"] in kinds, (kinds, result.js_errors)


def test_the_corpus_holds_at_least_thirty_distinct_hacks():
    assert len(HACKS) >= 30
    assert len({(CANARIES / name).read_text() for name in HACKS}) == len(HACKS)


@pytest.mark.parametrize("name", ["setup_only.js", "setup_only_noloop.js", "noloop_in_draw.js", "paint_in_both.js"])
def test_every_shape_of_sketch_reports_at_once_with_the_pixels_of_its_draw_twin(renderer, name):
    twin = renderer.render((SHAPES / "draw_twin.js").read_text(), seed=5)
    result = renderer.render((SHAPES / name).read_text(), seed=5)
    assert result.status is RenderStatus.OK, (result.detail, result.js_errors)
    assert result.png == twin.png
    assert result.elapsed_ms < 10_000  # the 20 s deadline was the old way for a setup-only sketch to end


@pytest.mark.slow
def test_every_starter_pool_painting_renders_byte_identical_to_its_stored_reference(renderer):
    pool = STARTER_POOL
    rows = [json.loads(line) for line in (pool / "pool.jsonl").read_text().splitlines() if line.strip()]

    def same(row: dict) -> tuple[str, bool, list]:
        result = renderer.render((pool / row["sketch"]).read_text(), seed=row["seed"])
        return row["id"], result.png == (pool / row["image"]).read_bytes(), result.violations

    outcomes = list(ThreadPoolExecutor(renderer.workers).map(same, rows))
    assert len(outcomes) == 166  # 165 references and the oracle the starter holds out (pool.toml)
    # under a loaded CI run one render of 166 once came out unlike its stored PNG (jellyfish-34;
    # identical in 12 renders on a quiet machine, docs/LOG.md): a differing one is rendered again
    # alone, and a stored PNG that is stale differs again
    again = [same(row) for row, o in zip(rows, outcomes, strict=True) if not o[1] or o[2]]
    assert [o for o in again if not o[1] or o[2]] == []


VALID = sorted((FIXTURES / "valid").glob("*.js"))


@pytest.mark.parametrize("path", VALID, ids=[p.name for p in VALID])
def test_a_valid_sketch_the_red_team_found_rejected_now_renders_as_without_the_sandbox(renderer, unguarded, path):
    # lerpColor, paletteLerp and array colours, `let name`, `class Text`, p5.Vector.fromAngle, ...
    on, off = renderer.render(path.read_text(), seed=1), unguarded.render(path.read_text(), seed=1)
    assert off.status is RenderStatus.OK, off.js_errors
    assert (on.status, on.png, on.violations, on.js_errors) == (off.status, off.png, [], [])


@pytest.mark.parametrize("name", ["trivial.js", "hibiscus.js", "rich.js", "throws_in_draw.js", "paints_nothing.js"])
def test_an_example_renders_the_same_bytes_with_the_sandbox_on_and_off(renderer, unguarded, name):
    source = (EXAMPLES / name).read_text()
    on, off = renderer.render(source, seed=3), unguarded.render(source, seed=3)
    assert (on.status, on.png, on.js_errors, on.violations) == (off.status, off.png, off.js_errors, [])


def test_a_guard_that_fails_to_load_gives_an_infrastructure_error_never_an_unguarded_verdict():
    with Renderer(workers=1, deadline_s=10) as broken:
        broken._library._libraries["guard.js"] = b"throw new Error('guard broken on purpose');"
        result = broken.render((EXAMPLES / "trivial.js").read_text(), seed=1)
    assert result.status is RenderStatus.INFRA_ERROR
    assert "guard did not run" in result.detail


def test_a_picture_that_is_not_the_canvas_png_is_named_for_what_it_is():
    from watercolour_env.server.sandbox import check_png

    def png_header(width: int, height: int, depth: int = 8, colour: int = 6) -> str:
        import base64

        ihdr = width.to_bytes(4, "big") + height.to_bytes(4, "big") + bytes([depth, colour, 0, 0, 0])
        raw = b"\x89PNG\r\n\x1a\n" + (13).to_bytes(4, "big") + b"IHDR" + ihdr + b"\0\0\0\0"
        return "data:image/png;base64," + base64.b64encode(raw).decode()

    assert check_png(png_header(600, 600))[1] == ""
    assert check_png(png_header(800, 800))[1] == "canvas is 800x800 pixels, not 600x600"
    assert check_png(png_header(600, 600, colour=2))[1] == "bit depth 8 and colour type 2, not 8-bit RGBA"
    assert check_png("data:image/jpeg;base64,AAAA")[1] == "not a PNG data URL"
    assert check_png("data:image/png;base64,R0lGODlhAQABAAAAACw=")[1] == "no PNG signature and header"
    assert check_png("data:image/png;base64,@@@")[1] == "invalid base64"
    assert check_png("data:image/png;base64," + "A" * 2_600_000)[1].startswith("data URL of")
    assert check_png(None)[1] == "not a PNG data URL"
