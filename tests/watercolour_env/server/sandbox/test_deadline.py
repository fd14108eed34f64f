"""The episode's deadline in the renderer: the queue wait counts against it, and a render it cuts
short is the infrastructure's failure (reward None), not the sketch's timeout (reward 0)."""

import threading
import time

import pytest

from tests.conftest import REPO, example
from watercolour_env.server.sandbox import Renderer, RenderStatus

pytestmark = pytest.mark.browser

HANGS = (REPO / "tests" / "fixtures" / "sketches" / "hostile" / "loop_in_setup.js").read_text()


@pytest.fixture(scope="module")
def one_worker():
    with Renderer(workers=1, deadline_s=20) as renderer:
        yield renderer


def test_a_render_cut_by_the_episode_deadline_is_an_infra_error_and_the_page_is_replaced(one_worker):
    started = time.monotonic()
    result = one_worker.render(HANGS, seed=1, deadline_at=started + 2.0)
    elapsed_s = time.monotonic() - started
    # the sketch had 20 s of its own, so the 2 s episode deadline is what ended it
    assert result.status is RenderStatus.INFRA_ERROR, result
    assert "the episode's deadline ran out while rendering" in result.detail
    assert 1.9 < elapsed_s < 8, elapsed_s  # 2 s, plus replacing the hung page
    after = one_worker.render(example("hibiscus.js"), seed=1)
    assert after.status is RenderStatus.OK, after.detail
    assert one_worker.stats()["busy"] == 0 and one_worker.stats()["queued"] == 0


def test_the_same_hang_without_an_episode_deadline_is_the_sketchs_timeout(one_worker):
    result = one_worker.render(HANGS, seed=1, deadline_s=2.0)
    assert result.status is RenderStatus.TIMEOUT, result.detail


def test_time_waiting_for_a_worker_counts_against_the_episode_deadline(one_worker):
    blocker: list = []
    hog = threading.Thread(target=lambda: blocker.append(one_worker.render(HANGS, seed=2, deadline_s=4.0)))
    hog.start()
    time.sleep(0.5)  # the hanging sketch holds the only worker
    started = time.monotonic()
    result = one_worker.render(example("hibiscus.js"), seed=1, deadline_at=started + 1.5)
    waited_s = time.monotonic() - started
    hog.join()
    assert result.status is RenderStatus.INFRA_ERROR, result
    assert "the episode's deadline ran out in the render queue" in result.detail
    assert 1.4 < waited_s < 3.0, waited_s
    assert blocker[0].status is RenderStatus.TIMEOUT  # the other render keeps its own verdict
    assert (
        one_worker.render(example("hibiscus.js"), seed=1, deadline_at=time.monotonic() + 20).status is RenderStatus.OK
    )


def test_a_render_with_less_time_left_than_a_render_takes_is_refused_before_it_starts():
    with Renderer(workers=1, deadline_s=20) as renderer:
        for seed in range(8):  # the median of these is what "a render takes" here
            assert renderer.render(example("trivial.js"), seed=seed).status is RenderStatus.OK
        started = time.monotonic()
        # 0.1 s: over the 0.05 s floor, under what a trivial render takes
        result = renderer.render(example("rich.js"), seed=1, deadline_at=started + 0.1)
        assert time.monotonic() - started < 0.5
    assert result.status is RenderStatus.INFRA_ERROR
    assert "in the render queue" in result.detail and "s left, a render takes" in result.detail
