"""Several browsers behind one render call (server/sandbox/browsers.py): split, routed, one verdict."""

import threading
from concurrent.futures import ThreadPoolExecutor

import pytest

from tests.conftest import example
from watercolour_env.errors import ConfigError
from watercolour_env.server.sandbox import Renderer, RenderStatus, browsers
from watercolour_env.server.sandbox.browsers import Browsers
from watercolour_env.server.settings import load_settings


def test_the_pages_and_the_queue_are_split_as_evenly_as_whole_numbers_go():
    pool = Browsers.split(workers=5, browsers=2, max_queue=7, deadline_s=3.0)  # nothing starts yet
    assert [(r.workers, r.max_queue, r.deadline_s) for r in pool.renderers] == [(3, 4, 3.0), (2, 3, 3.0)]
    assert pool.workers == 5
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
    with Browsers.split(workers=2, browsers=2) as pool:
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
        assert drawn == [2, 2]  # four at once: each browser took its share
        # the same sketch and seed on each browser: the same picture, so the reward cannot depend on the browser
        one, other = (r.render(sketch, seed=5) for r in pool.renderers)
        assert one.png == other.png and one.renderer == other.renderer
        stats = pool.stats()
        assert (stats["browsers"], stats["workers"], stats["started"], stats["closed"]) == (2, 2, True, False)
    assert pool.stats()["closed"]
