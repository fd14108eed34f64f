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

from tests.conftest import EXAMPLES, serving

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
    client = subprocess.Popen([sys.executable, "-c", CLIENT, server_url, str(EXAMPLES / "rich.js"), when],
                              stdout=subprocess.PIPE, text=True)  # fmt: skip
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
    from watercolour_trainer.rewards import EnvironmentReward

    mode = {"now": "ok"}
    with serving(hpsv3_stand_in(mode)) as scorer:
        settings = load_settings(preset="hps-only", hpsv3_url=scorer, hpsv3_retries=0, render_workers=1,
                                 render_deadline_s=5, episode_deadline_s=6)  # fmt: skip
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
