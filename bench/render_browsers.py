"""Is the one GPU process the queue? A batch of renders on one browser against several browsers.

    python bench/render_browsers.py [--workers 16] [--browsers 1,2,4,8] [--batch 32] [--rounds 3]

A renderer runs its pages in one browser, so every page's WebGL goes through that browser's one
GPU process. On the lent machine (16 cores, SwiftShader) a batch of 32 renders took 13-14.7 s
whether 4 or 32 pages drew it (`bench/env_share.py`, docs/LOG.md), though one render takes about
1.1 s alone: the pages were not the limit. This holds the page count at `--workers` and splits
the pages over 1, 2, 4 ... browsers (`WATERCOLOUR_RENDER_BROWSERS`, server/sandbox/browsers.py:
each browser its own Chromium and GPU process), started as the server starts them, sends
`--batch` renders of the warm-start corpus's sketches at once, `--rounds` times after a round to
warm up, and prints per split the batch's wall time (median and range), the median render and
the machine's CPU use, with the ratio against one browser measured in the same run.
"""

from __future__ import annotations

import argparse
import statistics
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import psutil

from watercolour_env.server.sandbox import Renderer, RenderStatus
from watercolour_env.server.sandbox.browsers import Browsers, from_settings
from watercolour_env.server.settings import load_settings

REPO = Path(__file__).resolve().parents[1]
SKETCHES = REPO / "trainer" / "corpus" / "warmstart" / "sketches"


def batch_once(
    renderer: Renderer | Browsers, sketches: list[str], pool: ThreadPoolExecutor
) -> tuple[float, list[float]]:
    """Wall seconds for all of `sketches` rendered at once; each render's seconds (its queue left out)."""
    started = time.perf_counter()
    futures = [pool.submit(renderer.render, s, seed) for seed, s in enumerate(sketches)]
    results = [f.result() for f in futures]
    wall = time.perf_counter() - started
    failed = [r.status for r in results if r.status is not RenderStatus.OK]
    if failed:
        raise SystemExit(f"{len(failed)} renders failed: {failed[:3]}")
    return wall, [(r.elapsed_ms - r.queued_ms) / 1000 for r in results]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, default=psutil.cpu_count())
    parser.add_argument("--browsers", default="1,2,4,8")
    parser.add_argument("--batch", type=int, default=32)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()

    corpus = [p.read_text() for p in sorted(SKETCHES.glob("*.js"))]
    sketches = [corpus[i % len(corpus)] for i in range(args.batch)]
    rows = []
    with ThreadPoolExecutor(args.batch) as pool:
        for browsers in [int(b) for b in args.browsers.split(",")]:
            pages = args.workers // browsers
            # as the server starts it (WATERCOLOUR_CHROMIUM_PATH, the network namespace, the split)
            settings = load_settings(render_workers=args.workers, render_browsers=browsers)
            with from_settings(settings) as renderer:
                batch_once(renderer, sketches, pool)  # warm: shaders compiled, pages loaded
                walls, renders, cpu = [], [], []
                for _ in range(args.rounds):
                    psutil.cpu_percent(None)
                    wall, each = batch_once(renderer, sketches, pool)
                    cpu.append(psutil.cpu_percent(None) * psutil.cpu_count() / 100)
                    walls.append(wall)
                    renders += each
            rows.append((browsers, pages, walls, statistics.median(renders), statistics.median(cpu)))
            print(f"  {browsers} browsers x {pages} pages: {statistics.median(walls):.2f} s", flush=True)

    base = statistics.median(rows[0][2])
    print(f"\n{args.batch} renders at once, {args.rounds} rounds, {psutil.cpu_count()} cores")
    head = f"{'browsers':>8} {'pages':>6} {'batch s median [range]':>24} {'render s':>9} {'cores busy':>10}"
    print(f"{head} {'ratio':>6}")
    for browsers, pages, walls, render, cores in rows:
        spread = f"{statistics.median(walls):.2f} [{min(walls):.2f}, {max(walls):.2f}]"
        ratio = statistics.median(walls) / base
        print(f"{browsers:>8} {pages:>6} {spread:>24} {render:>9.2f} {cores:>10.1f} {ratio:>6.2f}")


if __name__ == "__main__":
    main()
