"""Where a GRPO step's environment time goes: one generation's paintings, scored at once.

    python bench/env_share.py [--workers 4,8,16] [--batch 32] [--rounds 3] [--sketches DIR]

A step of the first run sent 32 completions to the server together and waited for all 32: the
environment's share of the step was 32% (13 s of 39 s) on the lent machine, though one render
took about 1.1 s alone (issue 55). This starts `watercolour serve` once per render-worker count
(`WATERCOLOUR_RENDER_WORKERS`, the rest as configured by the caller's environment), sends
`--batch` episodes at once, each on its own socket (reset, then a step with one of the warm-start
corpus's sketches, which look like the policy's), `--rounds` times after one round to warm up,
and prints per worker count:

- the batch's wall time (median and range over the rounds): what a step waits for;
- per episode, medians: the render (`render_ms`), the wait for a render worker (`queue_ms`) and
  the rest of the step as the client saw it (the copy guard, the scorers, the socket);
- the machine's CPU use during the batch (psutil, all cores, percent of one core).

The baseline, in the same run and on the same server: one episode alone (`--batch` 1), before the
batches, so that the ratio of the batch's wall time to `batch x alone` says how well the
renders overlap (1.0: not at all; 1 / workers: perfectly).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

import httpx
import psutil

from watercolour_env import WatercolourAction, WatercolourEnv

REPO = Path(__file__).resolve().parents[1]
SKETCHES = REPO / "trainer" / "corpus" / "warmstart" / "sketches"


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


async def episode(url: str, sketch: str, seed: int) -> dict:
    """One reset and step on its own socket; the observation's times and the client's."""
    started = time.perf_counter()
    async with WatercolourEnv(base_url=url, message_timeout_s=600) as env:
        await env.reset(seed=seed)
        sent = time.perf_counter()
        result = await env.step(WatercolourAction(reply=f"```js\n{sketch}\n```"))
        done = time.perf_counter()
    obs = result.observation
    render, queue = obs.render_ms or 0.0, obs.queue_ms or 0.0
    return {
        "status": getattr(obs.status, "value", str(obs.status)),
        "render_ms": render,
        "queue_ms": queue,
        "rest_ms": max(0.0, (done - sent) * 1000 - render - queue),
        "episode_s": done - started,
    }


async def batch(url: str, sketches: list[str], size: int, seed: int) -> tuple[float, list[dict], float]:
    """`size` episodes at once: (wall seconds, each episode's times, mean CPU percent)."""
    psutil.cpu_percent(interval=None)
    started = time.perf_counter()
    done = await asyncio.gather(*(episode(url, sketches[i % len(sketches)], seed + i) for i in range(size)))
    wall = time.perf_counter() - started
    cpu = psutil.cpu_percent(interval=None) * psutil.cpu_count() / 100  # cores busy, on average
    return wall, list(done), cpu


def serve(workers: int, log: Path | None) -> tuple[subprocess.Popen, str]:
    port = free_port()
    env = {**os.environ, "WATERCOLOUR_RENDER_WORKERS": str(workers), "WATERCOLOUR_PORT": str(port)}
    sink = open(log, "a") if log else subprocess.DEVNULL  # noqa: SIM115 (open as long as the server)
    server = subprocess.Popen(
        [sys.executable, "-m", "watercolour_env.cli", "serve"], env=env, stdout=sink, stderr=subprocess.STDOUT
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 300
    while True:
        try:
            if httpx.get(url + "/health", timeout=2).status_code == 200:
                return server, url
        except httpx.HTTPError:
            pass
        if time.monotonic() > deadline or server.poll() is not None:
            server.kill()
            raise SystemExit(f"the server with {workers} render workers did not start")
        time.sleep(0.5)


def median(values: list[float]) -> float:
    return statistics.median(values) if values else float("nan")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", default=f"{os.cpu_count()}", help="Render worker counts, comma-separated.")
    parser.add_argument("--batch", type=int, default=32)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--sketches", type=Path, default=SKETCHES)
    parser.add_argument("--server-log", type=Path, help="Append the servers' logs here.")
    args = parser.parse_args()
    sketches = [p.read_text() for p in sorted(args.sketches.glob("*.js"))]
    if not sketches:
        raise SystemExit(f"no sketches in {args.sketches}")
    print(f"{psutil.cpu_count()} CPUs; {len(sketches)} sketches; batches of {args.batch}, {args.rounds} rounds")
    header = "workers  alone s  batch s (min-max)    x alone  render ms  queue ms  rest ms  cores busy  statuses"
    print(header)
    for workers in [int(w) for w in args.workers.split(",")]:
        server, url = serve(workers, args.server_log)
        try:
            alone = [asyncio.run(batch(url, sketches, 1, 1000 + k))[0] for k in range(3)]
            asyncio.run(batch(url, sketches, args.batch, 0))  # warm-up: every worker's page loaded
            rounds = [asyncio.run(batch(url, sketches, args.batch, 100 * (r + 1))) for r in range(args.rounds)]
        finally:
            server.terminate()
            server.wait(timeout=60)
        walls = [wall for wall, _, _ in rounds]
        episodes = [e for _, done, _ in rounds for e in done]
        statuses: dict[str, int] = {}
        for e in episodes:
            statuses[e["status"]] = statuses.get(e["status"], 0) + 1
        one = median(alone)
        print(
            f"{workers:>7}  {one:>7.2f}  {median(walls):>7.2f} ({min(walls):.2f}-{max(walls):.2f})  "
            f"{median(walls) / (args.batch * one):>7.2f}  {median([e['render_ms'] for e in episodes]):>9.0f}  "
            f"{median([e['queue_ms'] for e in episodes]):>8.0f}  {median([e['rest_ms'] for e in episodes]):>7.0f}  "
            f"{median([c for _, _, c in rounds]):>10.1f}  {statuses}"
        )


if __name__ == "__main__":
    main()
