"""Faults a long run meets, with real processes on loopback: what happens and how fast it heals."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time

import httpx
import pytest

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

    app = build_app(load_settings(render_workers=1, session_timeout_s=2))
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
