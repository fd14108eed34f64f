"""`/health` over a real server: the render pool, sessions, scorers, pool and versions."""

from __future__ import annotations

import json
import threading
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor

import httpx
import pytest

from tests.conftest import REPO, slow_sketch
from watercolour_env import WatercolourAction, WatercolourEnv

pytestmark = [pytest.mark.server, pytest.mark.browser]


def health(url: str) -> dict:
    response = httpx.get(f"{url}/health", timeout=10)
    assert response.status_code == 200
    return response.json()


def episode(url: str, seed: int) -> None:
    with WatercolourEnv(base_url=url, message_timeout_s=120).sync() as env:
        env.reset(seed=seed)
        env.step(WatercolourAction(reply=slow_sketch(800)))  # slow on purpose: the watcher sees the queue


def test_health_names_the_pool_the_versions_and_the_renderer(server_url):
    report = health(server_url)
    assert report["status"] == "healthy"
    render = report["render"]
    assert render["workers"] == 2 and render["max_queue"] == 64  # the fixture's settings
    assert render["renderer"] and render["chromium"] and render["network"] in ("namespace", "flags")
    lock = json.loads((REPO / "envs/watercolour_env/server/sandbox/js/package-lock.json").read_text())["packages"]
    assert report["versions"]["openenv"] == "0.10.0"  # pyproject.toml pins it
    assert "not installed" not in report["versions"].values()
    assert report["versions"]["p5"] == lock["node_modules/p5"]["version"]
    assert report["versions"]["p5.brush"] == lock["node_modules/p5.brush"]["version"]
    rows = (REPO / "envs/watercolour_env/pool/starter/pool.jsonl").read_text().splitlines()
    tiers = Counter(json.loads(row)["tier"] for row in rows if json.loads(row)["id"] != "songbird-33")  # held out
    assert report["pool"]["counts"] == {"love": tiers["love"], "okay": tiers["okay"], "nope": tiers["nope"]}
    assert report["pool"]["source"].endswith("starter") and report["pool"]["revision"].startswith("sha256:")
    assert report["sessions"]["capacity"] == 64
    assert report["limits"] == {
        "episode_deadline_s": 120,
        "render_deadline_s": 60,  # the fixture's
        "session_timeout_s": 900,
        "max_reply_bytes": 262_144,
    }


def test_health_counts_a_scorers_calls_after_an_episode(server_url):
    before = health(server_url)["scorers"]
    assert set(before) == {"length", "embedded", "witness"}  # hpsv3 and the judge are not configured here
    episode(server_url, seed=21)
    after = health(server_url)["scorers"]["embedded"]
    assert after["calls"] == before["embedded"]["calls"] + 1 and after["answers"] is True
    assert after["weight"] == pytest.approx(0.9)


def test_health_counts_live_sessions_and_the_render_queue(server_url):
    live = health(server_url)["sessions"]["live"]
    with WatercolourEnv(base_url=server_url, message_timeout_s=60).sync() as env:
        env.reset(seed=1)
        assert health(server_url)["sessions"]["live"] == live + 1
    deadline = time.monotonic() + 10
    while health(server_url)["sessions"]["live"] != live:  # OpenEnv closes the session after the socket
        assert time.monotonic() < deadline, "the closed session was never counted out"
        time.sleep(0.1)

    seen = {"busy": 0, "queued": 0}
    done = threading.Event()

    def watch() -> None:
        while not done.is_set():
            render = health(server_url)["render"]
            seen["busy"], seen["queued"] = max(seen["busy"], render["busy"]), max(seen["queued"], render["queued"])
            time.sleep(0.05)

    watcher = threading.Thread(target=watch)
    watcher.start()
    with ThreadPoolExecutor(6) as pool:
        list(pool.map(lambda seed: episode(server_url, seed), range(30, 36)))  # 6 renders on 2 workers
    done.set()
    watcher.join()
    assert seen["busy"] == 2 and seen["queued"] >= 1
