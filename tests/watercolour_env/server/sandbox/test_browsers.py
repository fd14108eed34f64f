"""Several browsers behind one render call (server/sandbox/browsers.py): split, routed, one verdict."""

import threading
from concurrent.futures import ThreadPoolExecutor

import pytest

from tests.conftest import example
from watercolour_env.errors import ConfigError, RenderError
from watercolour_env.server.sandbox import Renderer, RenderStatus, browsers
from watercolour_env.server.sandbox.browsers import Browsers
from watercolour_env.server.settings import load_settings


def test_the_pages_and_the_queue_are_split_as_evenly_as_whole_numbers_go():
    pool = Browsers.split(workers=5, browsers=2, max_queue=7, deadline_s=3.0)  # nothing starts yet
    assert [(r.workers, r.max_queue, r.deadline_s) for r in pool.renderers] == [(3, 4, 3.0), (2, 3, 3.0)]
    assert pool.workers == 5
    # the queue goes by pages, largest remainder first: 64 x 2/3 = 42.67 and 64 x 1/3 = 21.33 -> 43 and 21
    assert [(r.workers, r.max_queue) for r in Browsers.split(workers=3, browsers=2).renderers] == [(2, 43), (1, 21)]
    with pytest.raises(ValueError, match="3 render workers cannot be split over 4 browsers"):
        Browsers.split(workers=3, browsers=4)


def test_the_settings_choose_one_browser_by_default_and_refuse_more_browsers_than_pages():
    assert isinstance(browsers.from_settings(load_settings({"WATERCOLOUR_RENDER_WORKERS": "4"})), Renderer)
    settings = load_settings({"WATERCOLOUR_RENDER_WORKERS": "4", "WATERCOLOUR_RENDER_BROWSERS": "2"})
    pool = browsers.from_settings(settings)
    assert isinstance(pool, Browsers) and [r.workers for r in pool.renderers] == [2, 2]
    with pytest.raises(ConfigError, match="WATERCOLOUR_RENDER_BROWSERS=3 exceeds WATERCOLOUR_RENDER_WORKERS=2"):
        load_settings({"WATERCOLOUR_RENDER_WORKERS": "2", "WATERCOLOUR_RENDER_BROWSERS": "3"})


@pytest.mark.browser
def test_renders_go_to_both_browsers_and_a_painting_does_not_depend_on_which_drew_it():
    with Browsers.split(workers=3, browsers=2) as pool:  # 2 pages and 1: llvmpipe with 0 threads and with 1
        drawn, chosen = [0, 0], threading.Barrier(4, timeout=60)  # all four chosen before any draws
        for i, renderer in enumerate(pool.renderers):
            render = renderer.render

            def counted(*args, _render=render, _i=i, **kwargs):  # noqa: ANN002, ANN003, ANN202
                drawn[_i] += 1
                if sum(drawn) <= 4:
                    chosen.wait()
                return _render(*args, **kwargs)

            renderer.render = counted
        sketch = example("hibiscus.js")
        with ThreadPoolExecutor(4) as threads:
            results = list(threads.map(lambda seed: pool.render(sketch, seed), [1, 2, 3, 4]))
        assert [r.status for r in results] == [RenderStatus.OK] * 4
        # four at once, each to the fewest in flight per page:
        # 0/2 v 0/1, 1/2 v 0/1, 1/2 v 1/1, then 2/2 v 1/1 (a tie goes to the first)
        assert drawn == [3, 1]
        # the same sketch and seed on each browser: the same picture, so the reward cannot depend on the browser
        one, other = (r.render(sketch, seed=5) for r in pool.renderers)
        assert one.png == other.png and one.renderer == other.renderer
        stats = pool.stats()
        assert (stats["browsers"], stats["workers"], stats["started"], stats["closed"]) == (2, 3, True, False)
    assert pool.stats()["closed"]


@pytest.mark.browser
def test_browsers_that_would_paint_differently_refuse_to_start_and_are_all_closed():
    hidden = {"__EGL_VENDOR_LIBRARY_DIRS": "/none"}  # no Mesa for the second: it falls back to SwiftShader
    pool = Browsers([Renderer(workers=1), Renderer(workers=1, browser_env=hidden)])
    with pytest.raises(RenderError, match="the browsers started differently") as refused:
        pool.start()
    assert "llvmpipe" in str(refused.value) and "SwiftShader" in str(refused.value)  # both named
    assert all(r.stats()["closed"] for r in pool.renderers)
