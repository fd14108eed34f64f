"""Faults a long run meets, with real processes on loopback: what happens and how fast it heals."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import textwrap
import time

import httpx
import pytest
from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse

from tests.conftest import EXAMPLES, REPO, serving

pytestmark = [pytest.mark.server, pytest.mark.browser]

CLIENT = textwrap.dedent(
    """
    import sys, time
    from watercolour_env import WatercolourAction, WatercolourEnv
    env = WatercolourEnv(base_url=sys.argv[1], message_timeout_s=120).sync()
    env.connect()
    env.reset(seed=5)
    print("reset", flush=True)
    if sys.argv[3] == "step":
        env.step(WatercolourAction(reply=open(sys.argv[2]).read()))
    time.sleep(600)
    """
)


def live_sessions(url: str) -> int:
    return httpx.get(f"{url}/health", timeout=10).json()["sessions"]["live"]


@pytest.mark.parametrize("when", ["step", "idle"], ids=["mid-step", "between-reset-and-step"])
def test_a_killed_client_frees_its_session(server_url, when):
    before = live_sessions(server_url)
    client = subprocess.Popen(
        [sys.executable, "-c", CLIENT, server_url, str(EXAMPLES / "rich.js"), when], stdout=subprocess.PIPE, text=True
    )
    assert client.stdout.readline().strip() == "reset"
    assert live_sessions(server_url) == before + 1
    time.sleep(0.3)  # the step is on the wire and rendering
    os.kill(client.pid, signal.SIGKILL)
    client.wait()
    killed = time.monotonic()
    while live_sessions(server_url) != before:
        # idle: the kernel closes the socket at once; mid-step: the server notices when it writes
        # the step's answer, after one render (rich.js, about 2 s here)
        assert time.monotonic() - killed < 30, "the dead client's session was never freed"
        time.sleep(0.1)
    freed_s = time.monotonic() - killed
    print(f"{when}: freed {freed_s:.1f} s after the kill")
    with httpx.Client() as http:
        assert http.get(f"{server_url}/health").json()["status"] == "healthy"


def test_the_reaper_closes_a_session_left_idle_past_the_timeout():
    from watercolour_env import WatercolourEnv
    from watercolour_env.server.app import build_app
    from watercolour_env.server.settings import load_settings

    app = build_app(load_settings(render_workers=1, session_timeout_s=2, episode_deadline_s=1.5, render_deadline_s=1))
    try:
        with serving(app) as url, WatercolourEnv(base_url=url, message_timeout_s=30).sync() as env:
            env.reset(seed=1)
            assert live_sessions(url) == 1
            started = time.monotonic()
            while live_sessions(url) != 0:  # OpenEnv's reaper looks every max(timeout / 4, 5) s
                assert time.monotonic() - started < 15, "the idle session was never reaped"
                time.sleep(0.2)
            print(f"reaped {time.monotonic() - started:.1f} s after its last message")
            # the socket is still open, but its reaped session must not work (nor count): found
            # by a red-team helper, who ran 6 sessions on a server of capacity 3 this way
            with pytest.raises(RuntimeError, match="closed by the server"):
                env.reset(seed=2)
    finally:
        app.state.renderer.close()


def hpsv3_stand_in(mode: dict) -> FastAPI:
    """A scorer that speaks the HPSv3 Space's protocol; `mode["now"]` is ok, slow or down.

    Slow answers only once the client has gone, and records when it noticed (`mode["gone_after_s"]`).
    """
    app = FastAPI()

    @app.get("/health")
    async def health() -> dict:
        return {"status": "loaded"}

    @app.get("/info")
    async def info() -> dict:
        return {"score": "POST /score"}

    @app.post("/score")
    async def score(request: Request):
        arrived = time.monotonic()
        if mode["now"] == "down":
            return JSONResponse({"error": "scorer down"}, status_code=503)
        if mode["now"] == "slow":
            while not await request.is_disconnected():
                await asyncio.sleep(0.05)
                if time.monotonic() - arrived > 60:
                    break
            mode["gone_after_s"] = time.monotonic() - arrived
            return JSONResponse({"error": "too late"}, status_code=504)
        return {"scores": [{"mu": 2.0, "sigma": 0.5, "score": 0.62}], "prompt": "p"}

    return app


def test_a_scorer_slow_then_down_then_back_costs_only_its_own_episodes():
    """Over the real websocket, a server whose episode deadline is 6 s (render deadline 5 s)."""
    from watercolour_env import EpisodeStatus, WatercolourAction, WatercolourEnv
    from watercolour_env.server.app import build_app
    from watercolour_env.server.settings import load_settings
    from watercolour_trainer.episodes.rewards import EnvironmentReward

    mode = {"now": "ok"}
    with serving(hpsv3_stand_in(mode)) as scorer:
        settings = load_settings(
            preset="hps-only",
            hpsv3_url=scorer,
            hpsv3_retries=0,
            render_workers=1,
            render_deadline_s=5,
            episode_deadline_s=6,
        )
        app = build_app(settings)
        try:
            with serving(app) as url, WatercolourEnv(base_url=url, message_timeout_s=60).sync() as env:
                seen = {}
                for now in ("ok", "slow", "down", "ok"):
                    mode["now"] = now
                    env.reset(seed=4)
                    started = time.monotonic()
                    result = env.step(WatercolourAction(reply=(EXAMPLES / "hibiscus.js").read_text()))
                    seen.setdefault(now, []).append((result, time.monotonic() - started))
                reward = EnvironmentReward(url, num_generations=1)
                reward.check_configuration()
                assert reward.timeout_s == 6 + 30  # the server's deadline, from /health, plus the margin
        finally:
            app.state.renderer.close()

    for result, _ in seen["ok"]:
        assert result.observation.status is EpisodeStatus.SCORED
        # 0.05 gate + 0.05 x the length ramp + 0.90 x 0.62 from the stand-in
        assert result.reward == pytest.approx(0.05 + 0.05 * result.observation.reward_components[1].value + 0.9 * 0.62)
    ((slow, slow_s),) = seen["slow"]
    assert slow.reward is None and slow.observation.status is EpisodeStatus.INFRA_ERROR
    assert slow_s < 6 + 1.5, f"the step took {slow_s:.1f} s against a 6 s deadline"
    # the rubric stops waiting, or the scorer's call times out, at the same instant: either says so
    assert slow.observation.detail.startswith("unscored, no verdict from: hpsv3 (no ")
    assert "before the episode's deadline" in slow.observation.detail
    assert mode["gone_after_s"] < 6 + 1.0, "the slow scorer's call was left running after the deadline"
    ((down, _),) = seen["down"]
    assert down.reward is None and "HTTP 503" in down.observation.detail


def test_an_overfilled_render_queue_refuses_the_surplus_as_unscored_and_serves_on():
    """One worker and room for one waiting render: of 4 steps at once, 2 render, 2 are refused."""
    import concurrent.futures

    from watercolour_env import EpisodeStatus, WatercolourAction, WatercolourEnv
    from watercolour_env.server.app import build_app
    from watercolour_env.server.settings import load_settings

    app = build_app(load_settings(render_workers=1, render_max_queue=1))
    reply = (EXAMPLES / "rich.js").read_text()  # about 2 s a render: the four steps overlap
    try:
        with serving(app) as url:

            def one_episode(seed: int):
                with WatercolourEnv(base_url=url, message_timeout_s=120).sync() as env:
                    env.reset(seed=seed)
                    return env.step(WatercolourAction(reply=reply)).observation

            with concurrent.futures.ThreadPoolExecutor(4) as pool:
                observations = list(pool.map(one_episode, range(4)))
            statuses = sorted(o.status.value for o in observations)
            assert statuses == ["infra_error", "infra_error", "scored", "scored"], statuses
            for refused in (o for o in observations if o.status is EpisodeStatus.INFRA_ERROR):
                assert refused.reward is None and refused.detail == "render: render queue is full"
            after = one_episode(9)  # the server serves normally at once
            assert after.status is EpisodeStatus.SCORED
            assert httpx.get(f"{url}/health").json()["render"]["queued"] == 0
    finally:
        app.state.renderer.close()


def test_a_server_restarted_between_batches_costs_only_the_batch_it_missed(tmp_path):
    """A real `watercolour serve` process killed and started again on the same port; the trainer's
    reward function scores None while it is down, scores again once it is back, and its
    rollout log accounts for every rollout."""
    from tests.conftest import WATERCOLOUR
    from watercolour_trainer.demo import free_port, wait_healthy
    from watercolour_trainer.episodes.rewards import EnvironmentReward
    from watercolour_trainer.record.rollouts import RolloutLog

    port = free_port()
    url = f"http://127.0.0.1:{port}"
    env = {**os.environ, "WATERCOLOUR_RENDER_WORKERS": "1"}

    def start() -> subprocess.Popen:
        server = subprocess.Popen(
            [WATERCOLOUR, "serve", "--port", str(port)], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        wait_healthy(url, server)
        return server

    log = RolloutLog(tmp_path)
    reward = EnvironmentReward(url, num_generations=2, log=log, timeout_s=10)
    batch = {"prompts": ["p"] * 2, "completions": [(EXAMPLES / "hibiscus.js").read_text()] * 2, "seed": [3, 3]}
    server = start()
    try:
        first = asyncio.run(reward(**batch))
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=30)
        missed = asyncio.run(reward(**batch))
        server = start()
        restarted_at = time.monotonic()
        again = asyncio.run(reward(**batch))
        back_s = time.monotonic() - restarted_at
    finally:
        server.kill()
        server.wait(timeout=30)
    assert all(r is not None and r > 0 for r in first) and missed == [None, None]
    assert again == pytest.approx(first)  # the same seed and sketch: the same painting, the same reward
    print(f"scored again {back_s:.1f} s after the restarted server answered /health")
    rows = [(r.status, r.reward is None) for r in log.rollouts]
    assert rows == [("scored", False)] * 2 + [("infra_error", True)] * 2 + [("scored", False)] * 2
    assert all("ConnectionError" in r.detail or "refused" in r.detail.lower() for r in log.rollouts[2:4])


def test_a_step_stuck_behind_a_hanging_sketch_says_the_deadline_ran_out_in_the_render_stage():
    """One worker, a 5 s render deadline, a 5.3 s episode deadline: a hanging sketch holds the
    worker for 5 s, and the episode sent after the worker is taken has at most 0.3 s left when it
    gets it (less than any render of the hibiscus), so it runs out of time waiting or rendering,
    not by its fault."""
    import concurrent.futures

    from watercolour_env import EpisodeStatus, WatercolourAction, WatercolourEnv
    from watercolour_env.server.app import build_app
    from watercolour_env.server.settings import load_settings

    hangs = (REPO / "tests" / "fixtures" / "sketches" / "hostile" / "loop_in_setup.js").read_text()
    app = build_app(load_settings(render_workers=1, render_deadline_s=5, episode_deadline_s=5.3))
    try:
        with serving(app) as url:

            def worker_taken() -> None:  # the hanging sketch holds the one worker: no race on who goes first
                give_up = time.monotonic() + 30
                while app.state.renderer.stats()["busy"] < 1 and time.monotonic() < give_up:
                    time.sleep(0.02)

            def one_episode(reply: str, wait_for_hang: bool):
                with WatercolourEnv(base_url=url, message_timeout_s=60).sync() as env:
                    env.reset(seed=1)
                    if wait_for_hang:
                        worker_taken()
                    started = time.monotonic()
                    return env.step(WatercolourAction(reply=reply)).observation, time.monotonic() - started

            with concurrent.futures.ThreadPoolExecutor(2) as pool:
                hang = pool.submit(one_episode, hangs, False)
                behind = pool.submit(one_episode, (EXAMPLES / "hibiscus.js").read_text(), True)
                (hung, _), (late, late_s) = hang.result(), behind.result()
    finally:
        app.state.renderer.close()
    assert hung.status is EpisodeStatus.REJECTED and [v.value for v in hung.violations] == ["render_timeout"]
    assert late.status is EpisodeStatus.INFRA_ERROR and late.reward is None
    assert late.detail.startswith("render: the episode's deadline ran out "), late.detail
    assert late_s < 5.3 + 1.5, late_s
