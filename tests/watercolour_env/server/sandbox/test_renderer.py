import hashlib

import pytest

from tests.conftest import example, of_each_chromium_process
from watercolour_env.errors import ConfigError
from watercolour_env.server.sandbox import Renderer, RenderStatus

pytestmark = pytest.mark.browser

RANDOM_SKETCH = """
function setup() { createCanvas(600, 600, WEBGL); noLoop(); }
function draw() {
  translate(-width / 2, -height / 2);
  background(250, 246, 238);
  brush.noStroke();
  brush.fill("#d94f70", 120);
  brush.circle(100 + Math.random() * 400, 100 + Math.random() * 400, 80);
}
"""


def digest(png: bytes | None) -> str:
    assert png is not None
    return hashlib.sha256(png).hexdigest()


def test_the_renderer_runs_webgl_on_mesa_llvmpipe(renderer):
    assert "llvmpipe" in renderer.renderer_string


@pytest.mark.parametrize("name", ["trivial.js", "hibiscus.js", "rich.js"])
def test_good_sketches_render_a_600px_png_with_paint(renderer, name):
    result = renderer.render(example(name), seed=1)
    assert result.status is RenderStatus.OK, result.js_errors
    assert result.finished and result.js_errors == []
    assert result.png is not None and result.png[1:4] == b"PNG"
    assert int.from_bytes(result.png[16:20], "big") == 600 and int.from_bytes(result.png[20:24], "big") == 600
    assert 0.005 < result.paint_fraction <= 1.0


def test_a_sketch_that_throws_in_draw_is_a_sketch_error_with_the_message(renderer):
    result = renderer.render(example("throws_in_draw.js"), seed=1)
    assert result.status is RenderStatus.SKETCH_ERROR
    assert not result.finished
    assert any("TypeError" in e for e in result.js_errors)


def test_a_syntax_error_is_a_sketch_error(renderer):
    result = renderer.render("function setup() { createCanvas(600, 600, WEBGL);", seed=1)
    assert result.status is RenderStatus.SKETCH_ERROR
    assert any("SyntaxError" in e for e in result.js_errors)


def test_the_same_seed_gives_a_bit_identical_png_across_workers(renderer):
    digests = {digest(renderer.render(RANDOM_SKETCH, seed=42).png) for _ in range(3)}
    assert len(digests) == 1


def test_different_seeds_give_different_paintings(renderer):
    assert digest(renderer.render(RANDOM_SKETCH, seed=1).png) != digest(renderer.render(RANDOM_SKETCH, seed=2).png)


def test_an_infinite_loop_times_out_and_the_next_render_succeeds(renderer):
    result = renderer.render(
        "function setup() { createCanvas(600, 600, WEBGL); while (true) {} }", seed=1, deadline_s=2
    )
    assert result.status is RenderStatus.TIMEOUT
    after = renderer.render(example("trivial.js"), seed=1)
    assert after.status is RenderStatus.OK


def test_a_closed_renderer_reports_an_infrastructure_error():
    r = Renderer(workers=1)
    r.start()
    r.close()
    assert r.render(example("trivial.js")).status is RenderStatus.INFRA_ERROR


def test_the_same_seed_gives_the_same_png_after_a_restart(renderer):
    first = digest(renderer.render(RANDOM_SKETCH, seed=99).png)
    with Renderer(workers=1) as fresh:
        assert digest(fresh.render(RANDOM_SKETCH, seed=99).png) == first


def test_a_missing_browser_fails_at_start_with_a_message_that_says_how_to_install_it():
    from watercolour_env.errors import RenderError

    with pytest.raises(RenderError, match="make install"):
        Renderer(workers=1, chromium_path="/nonexistent/chromium").start()


def test_without_mesa_the_renderer_falls_back_to_swiftshader_and_says_so(caplog):
    # hiding Mesa's EGL vendor file makes Chromium fall back to SwiftShader silently
    with caplog.at_level("WARNING"), Renderer(workers=1, browser_env={"__EGL_VENDOR_LIBRARY_DIRS": "/none"}) as r:
        assert "llvmpipe" not in r.renderer_string and "SwiftShader" in r.renderer_string
        assert r.render(example("trivial.js"), seed=1).status is RenderStatus.OK
    assert any("not Mesa llvmpipe" in m and "SwiftShader" in m for m in caplog.messages)


def gpu_processes() -> set[int]:
    """Process ids of the Chromium GPU processes under this test process (another Chromium on the
    machine, a user's or another test run's, is not ours to count)."""
    gpu = of_each_chromium_process(lambda process: "--type=gpu-process" in process.cmdline() and process.pid)
    return {pid for pid in gpu if pid}


def llvmpipe_threads(pid: int) -> int:
    """How many llvmpipe rasterizer threads (named llvmpipe-N) a process runs."""
    from pathlib import Path

    return sum((task / "comm").read_text().startswith("llvmpipe-") for task in Path(f"/proc/{pid}/task").iterdir())


@pytest.mark.parametrize(("workers", "env", "threads"), [(1, {}, 1), (2, {}, 0), (1, {"LP_NUM_THREADS": "2"}, 2)])
def test_llvmpipe_rasterizer_threads_follow_the_worker_count_unless_overridden(workers, env, threads):
    # (Chromium rewrites its processes' environ, so the threads themselves are what can be checked.)
    before = gpu_processes()
    with Renderer(workers=workers, browser_env=env) as r:
        assert r.render(example("trivial.js"), seed=1).status is RenderStatus.OK
        (ours,) = gpu_processes() - before
        assert llvmpipe_threads(ours) == threads


def test_an_install_without_the_pinned_libraries_refuses_in_one_line_naming_the_npm_folder(tmp_path):
    # a wheel carries package.json and the lock, not node_modules: `serve` said FileNotFoundError in a traceback
    node_modules = tmp_path / "js" / "node_modules"
    with pytest.raises(ConfigError) as refused:
        Renderer(workers=1, js_dir=node_modules).start()
    assert f"npm ci --prefix {tmp_path / 'js'}" in str(refused.value) and "\n" not in str(refused.value)
