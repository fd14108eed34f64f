"""A run spread over replicas: three real `watercolour serve` processes, one killed mid-run."""

import asyncio
import os
import signal
import subprocess

import pytest

from tests.conftest import EXAMPLES, WATERCOLOUR, serving
from watercolour_env.errors import ConfigError
from watercolour_trainer.demo import free_port, wait_healthy
from watercolour_trainer.episodes.replicas import Replicas
from watercolour_trainer.episodes.rewards import EnvironmentReward
from watercolour_trainer.record.rollouts import RolloutLog

pytestmark = [pytest.mark.server, pytest.mark.browser]


def start_server(extra_env: dict[str, str] | None = None) -> tuple[str, subprocess.Popen]:
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    env = {**os.environ, "WATERCOLOUR_RENDER_WORKERS": "1", **(extra_env or {})}
    server = subprocess.Popen(
        [WATERCOLOUR, "serve", "--port", str(port)], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    wait_healthy(url, server)
    return url, server


def test_three_replicas_share_the_rollouts_and_one_killed_mid_run_loses_none(tmp_path):
    """Batches of 6 rollouts over 3 servers; the second batch is sent, then one server is killed
    while its episodes are in flight: they move to the other two, and every rollout is scored."""
    servers = [start_server() for _ in range(3)]
    urls = [url for url, _ in servers]
    try:
        log = RolloutLog(tmp_path)
        reward = EnvironmentReward(urls, num_generations=6, log=log, max_parallel=6)
        reward.check_configuration("a peach hibiscus")
        reward.replicas.retry_after_s = 3600  # the killed one stays out for the rest of the test
        batch = {"prompts": ["p"] * 6, "completions": [(EXAMPLES / "rich.js").read_text()] * 6, "seed": [5] * 6}
        first = asyncio.run(reward(**batch))
        assert all(r is not None and r > 0 for r in first)
        assert [r.in_flight for r in reward.replicas.replicas] == [0, 0, 0]

        async def batch_with_a_kill() -> list:
            scoring = asyncio.ensure_future(reward(**batch))
            while reward.replicas.replicas[1].in_flight < 2:  # 6 episodes over 3 replicas: 2 each
                await asyncio.sleep(0.05)
            servers[1][1].send_signal(signal.SIGKILL)  # mid-render: a rich sketch takes ~2 s
            return await scoring

        second = asyncio.run(batch_with_a_kill())
        third = asyncio.run(reward(**batch))
    finally:
        for _, server in servers:
            server.kill()
            server.wait(timeout=30)
    assert second == pytest.approx(first) and third == pytest.approx(first)  # same seed and sketch: same reward
    down = [r.url for r in reward.replicas.replicas if r.down_until]
    assert down == [urls[1]]
    assert len(log.rollouts) == 18 and all(r.status == "scored" for r in log.rollouts)


def app_with(**settings):
    from watercolour_env.server.app import build_app
    from watercolour_env.server.settings import load_settings

    return build_app(load_settings(render_workers=1, **settings))


def test_replicas_that_weigh_the_reward_differently_refuse_to_start_and_say_what_differs():
    a, b = app_with(), app_with(weight_gate=0.2, weight_length=0.0, weight_embedded=0.8)
    try:
        with serving(a) as url_a, serving(b) as url_b:
            with pytest.raises(ConfigError, match=r"reward weights: .* has .* has") as refused:
                Replicas([url_a, url_b]).check()
            assert url_a in str(refused.value) and url_b in str(refused.value)
            assert "pool" not in str(refused.value)  # the same pool: only what differs is named
            Replicas([url_a, url_a]).check()  # alike: accepted
    finally:
        a.state.renderer.close()
        b.state.renderer.close()


def test_a_replica_down_at_start_is_left_out_and_rollouts_go_to_the_rest(tmp_path):
    url, server = start_server()
    dead = f"http://127.0.0.1:{free_port()}"
    try:
        reward = EnvironmentReward([dead, url], num_generations=2, log=RolloutLog(tmp_path))
        reward.check_configuration()
        assert [bool(r.down_until) for r in reward.replicas.replicas] == [True, False]
        batch = {"prompts": ["p"] * 2, "completions": [(EXAMPLES / "trivial.js").read_text()] * 2, "seed": [1, 1]}
        rewards = asyncio.run(reward(**batch))
    finally:
        server.kill()
        server.wait(timeout=30)
    assert all(r is not None for r in rewards)
    assert reward.replicas.replicas[1].in_flight == 0


def test_no_replica_answering_at_start_refuses_the_run_naming_them():
    dead = [f"http://127.0.0.1:{free_port()}" for _ in range(2)]
    with pytest.raises(ConfigError, match="no environment replica answered") as refused:
        EnvironmentReward(dead, num_generations=2).check_configuration()
    assert all(url in str(refused.value) for url in dead)
