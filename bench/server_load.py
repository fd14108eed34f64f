"""Server load benchmark: many sessions of mixed example sketches against a server it starts.

    watercolour bench server_load [--configs 8x10,64x10,256x2] [--capacity 256] [--short]

Starts `watercolour serve` on a free loopback port (capacity `--capacity`, the rest default),
then for each `SESSIONSxEPISODES` runs that many concurrent clients (OpenEnv's async client,
one socket each), each doing its episodes back to back: reset, then a step with the next
example sketch of a fixed mix (typical, rich, trivial, one the gate rejects, one that throws).
Per configuration it prints episodes/s, reset and step latency (p50 / p99), the queue wait (the
observation's `queue_ms`: waiting for a render worker), the statuses and which stage each
`infra_error` ran out in, protocol errors (an exception instead of an
observation), sessions still open after every client closed (`/health`), and the server's
RSS (the server process and its Chromium) before and after.

The baseline, measured in the same run: the same mix without the server (the source check, and
a render of each reply that passes it, on one in-process `Renderer` with the server's worker
count fed by as many threads), measured before each configuration and after the last, with the
server up and idle. A configuration's ratio is to the mean of the two baselines around it, so a
machine that speeds up or slows down during the run (these shared machines move 2x within a day:
docs/LOG.md) moves both; the range of the baselines is printed. The ratio is the server's
overhead: sessions, websocket, scoring.
`--short` runs 4x3 only (the form `make test` runs).

`--revisions K` makes every episode one of 1 + K paintings (reset's `revisions`): the steps of an
episode take the mix's sketches in turn, and the counts, rates and step latencies are per turn
(one painting each), so the ratio still compares painting for painting with the baseline.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import psutil

from watercolour_env import WatercolourAction, WatercolourEnv, WatercolourObservation
from watercolour_env.server.gate import check_source
from watercolour_env.server.sandbox import Renderer
from watercolour_env.server.settings import default_render_workers

REPO = Path(__file__).resolve().parents[1]
MIX = ["hibiscus.js", "rich.js", "trivial.js", "bare_primitives.js", "throws_in_draw.js"]


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def tree_rss_mb(pid: int) -> float:
    """RSS of a process and all its children, in MB."""
    root = psutil.Process(pid)
    total = 0
    for p in [root, *root.children(recursive=True)]:
        try:
            total += p.memory_info().rss
        except psutil.NoSuchProcess:
            pass
    return total / 2**20


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def session(
    url: str, episodes: int, offset: int, replies: list[str], out: dict, index: int, revisions: int = 0
) -> None:
    try:
        async with WatercolourEnv(base_url=url, message_timeout_s=600) as env:
            turn = 0
            for i in range(episodes):
                k = offset + i
                started = time.perf_counter()
                result = await env.reset(seed=k, revisions=revisions)
                out["reset"].append(time.perf_counter() - started)
                while not result.done:
                    started = time.perf_counter()
                    # session s starts the mix at its s-th sketch, so every moment has the whole mix
                    # (with the same sketch for all, 64 rich renders arrived at once: docs/LOG.md)
                    sketch = (index + turn) % len(replies)
                    result = await env.step(WatercolourAction(reply=replies[sketch]))
                    turn += 1
                    record(out, MIX[sketch], started, result.observation)
    except Exception as err:  # noqa: BLE001 (every exception is a protocol error to count)
        out["errors"].append(f"{type(err).__name__}: {err}"[:200])


def record(out: dict, sketch: str, started: float, obs: WatercolourObservation) -> None:
    """One step's latency, queue wait, status and trace line into `out`."""
    step_s = time.perf_counter() - started
    out["step"].append(step_s)
    out["wait"].append((obs.queue_ms or 0) / 1000)
    out["trace"].append(
        {
            "sketch": sketch,
            "step_started_s": started - out["t0"],
            "step_s": step_s,
            "queue_s": (obs.queue_ms or 0) / 1000,
            "status": obs.status.value,
        }
    )
    out["status"][obs.status.value] = out["status"].get(obs.status.value, 0) + 1
    if obs.status.value == "infra_error":  # which stage: queue full, queue, render, scorer
        why = obs.detail.split(" (")[0]
        out["infra"][why] = out["infra"].get(why, 0) + 1


async def load(url: str, sessions: int, episodes: int, replies: list[str], revisions: int = 0) -> dict:
    out: dict = {"reset": [], "step": [], "wait": [], "status": {}, "errors": [], "infra": {}, "trace": []}
    started = out["t0"] = time.perf_counter()
    await asyncio.gather(*(session(url, episodes, s * episodes, replies, out, s, revisions) for s in range(sessions)))
    out["seconds"] = time.perf_counter() - started
    return out


class Baseline:
    """The same mix without the server: the source check, and a render of each reply that
    passes it, on one in-process renderer with the server's worker count; episodes/s."""

    def __init__(self, replies: list[str], workers: int) -> None:
        self.replies, self.workers = replies, workers
        self.renderer = Renderer(workers=workers)
        self.pool = ThreadPoolExecutor(workers)

    def __enter__(self) -> Baseline:
        self.renderer.start()
        list(self.pool.map(self._one, range(self.workers)))  # warm
        return self

    def __exit__(self, *exc: object) -> None:
        self.pool.shutdown()
        self.renderer.close()

    def _one(self, k: int) -> None:
        gate = check_source(self.replies[k % len(self.replies)])
        if gate.passed:
            self.renderer.render(gate.sketch or "", seed=k)

    def measure(self, episodes: int) -> float:
        """Episodes/s over `episodes` episodes (the mix from its first sketch)."""
        started = time.perf_counter()
        list(self.pool.map(self._one, range(episodes)))
        return episodes / (time.perf_counter() - started)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--configs", default="8x10,64x10,256x2")
    parser.add_argument("--capacity", type=int, default=256)
    parser.add_argument("--short", action="store_true", help="4x3 only, with a baseline of 10 episodes.")
    parser.add_argument(
        "--baseline-episodes",
        type=int,
        default=60,
        help="Episodes of each baseline measurement (before each configuration and after the last).",
    )
    parser.add_argument("--json", help="Also write the table here, one object per configuration.")
    parser.add_argument("--server-log", help="Write the server's log here (else it is dropped).")
    parser.add_argument("--trace", help="Write every episode here (JSON lines: sketch, start, step, queue, status).")
    parser.add_argument("--revisions", type=int, default=0, help="Revisions per episode: 1 + K paintings each.")
    args = parser.parse_args()
    if args.short:
        args.baseline_episodes = 10
    configs = [(4, 3)] if args.short else [tuple(int(n) for n in c.split("x")) for c in args.configs.split(",")]
    replies = [(REPO / "examples" / "sketches" / name).read_text() for name in MIX]
    workers = default_render_workers()

    port = free_port()
    url = f"http://127.0.0.1:{port}"
    env = {**os.environ, "WATERCOLOUR_MAX_CONCURRENT_ENVS": str(args.capacity), "WATERCOLOUR_PORT": str(port)}
    sink = open(args.server_log, "w") if args.server_log else subprocess.DEVNULL  # noqa: SIM115 (open as long as the server)
    server = subprocess.Popen(
        [sys.executable, "-m", "watercolour_env.cli", "serve"], env=env, stdout=sink, stderr=subprocess.STDOUT
    )
    failed = False
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                if httpx.get(f"{url}/health", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline or server.poll() is not None:
                raise SystemExit("the server did not start")
            time.sleep(0.5)
        rss_start = tree_rss_mb(server.pid)
        print(f"server: {workers} render workers, capacity {args.capacity}, RSS at start {rss_start:.0f} MB")
        rows, baselines = [], []
        with Baseline(replies, workers) as alone:
            for sessions, episodes in configs:
                baselines.append(alone.measure(args.baseline_episodes))
                rss_before = tree_rss_mb(server.pid)
                out = asyncio.run(load(url, sessions, episodes, replies, args.revisions))
                time.sleep(1.0)  # let the last sockets close
                leaked = httpx.get(f"{url}/health", timeout=10).json()["sessions"]["live"]
                rss_after = tree_rss_mb(server.pid)
                done = len(out["step"])
                rows.append((f"{sessions}x{episodes}", done, done / out["seconds"], out, leaked, rss_before, rss_after))
                failed |= bool(out["errors"]) or leaked != 0
            baselines.append(alone.measure(args.baseline_episodes))
    finally:
        server.terminate()
        server.wait(timeout=30)

    print(
        f"\nthe same mix without the server, {workers} render workers, {args.baseline_episodes} episodes before "
        f"each configuration and after the last: {', '.join(f'{b:.2f}' for b in baselines)} episodes/s "
        f"(range {min(baselines):.2f}-{max(baselines):.2f})\n"
    )
    unit = ("episodes", "ep/s") if args.revisions == 0 else ("turns", "turn/s")  # a turn: one painting
    if args.revisions:
        print(f"episodes of {1 + args.revisions} paintings: counts, rates and steps are per painting\n")
    head = f"{'config':>8} {unit[0]:>8} {unit[1]:>6} {'base':>5} {'x base':>6} {'reset p50/p99 s':>16} "
    head += f"{'step p50/p99 s':>15} {'wait p50/p99 s':>15} {'errors':>6} {'leaked':>6} {'RSS MB before/after':>20}"
    print(head + "  statuses")
    for i, (name, done, rate, out, leaked, before, after) in enumerate(rows):
        baseline = (baselines[i] + baselines[i + 1]) / 2
        print(
            f"{name:>8} {done:>8} {rate:>6.2f} {baseline:>5.2f} {rate / baseline:>6.2f} "
            f"{pct(out['reset'], 0.5):>7.3f} /{pct(out['reset'], 0.99):>7.3f} "
            f"{pct(out['step'], 0.5):>6.2f} /{pct(out['step'], 0.99):>6.2f} "
            f"{pct(out['wait'], 0.5):>6.2f} /{pct(out['wait'], 0.99):>6.2f} "
            f"{len(out['errors']):>6} {leaked:>6} {before:>9.0f} /{after:>8.0f}  {out['status']}"
        )
        for why, count in sorted(out["infra"].items(), key=lambda kv: -kv[1]):
            print(f"         infra_error x {count}: {why}")
        for err in sorted(set(out["errors"]))[:3]:
            print(f"         error: {err}")
    if args.json:
        import json

        table = [
            {
                "config": name,
                "episodes": done,
                "episodes_per_s": rate,
                "baseline_episodes_per_s": (baselines[i] + baselines[i + 1]) / 2,
                "errors": out["errors"],
                "leaked_sessions": leaked,
                "statuses": out["status"],
                "infra": out["infra"],
                "rss_mb_before": before,
                "rss_mb_after": after,
            }
            for i, (name, done, rate, out, leaked, before, after) in enumerate(rows)
        ]
        Path(args.json).write_text(json.dumps(table, indent=2))
    if args.trace:
        import json

        Path(args.trace).write_text("".join(json.dumps(e) + "\n" for row in rows for e in row[3]["trace"]))
    if len(rows) > 1:
        first, last = rows[0], rows[-1]
        print(f"\nRSS after the last configuration / after the first: {last[6] / first[6]:.2f}")
    print(f"median step over all: {statistics.median([s for r in rows for s in r[3]['step']]):.2f} s")
    if failed:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
