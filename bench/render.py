"""Render benchmark: our renderer against the public reproduction's configuration, same run.

    watercolour bench render [--reps 5] [--baseline-reps 3,2,1] [--memory-renders 500] [--json out.json]

(a) baseline, what the public reproduction does: `--use-angle=swiftshader
--enable-unsafe-swiftshader`, a new page per render, p5 and p5.brush inlined with
`set_content`, readiness polled every 40 ms, `toDataURL`. (b) ours: `Renderer` (Mesa llvmpipe
through ANGLE/EGL, software 2D canvas, long-lived pages, a fresh iframe per render, a postdraw
hook). Prints a table of median/min/max seconds per sketch and the ratio a/b, the wall time of a
GRPO group of 8 typical sketches, and the browser's resident memory after N and N/10 renders.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from watercolour_env.server.sandbox import CANVAS_PX, Renderer, RenderStatus
from watercolour_env.server.sandbox.library_server import DEFAULT_JS_DIR, STATIC_DIR

REPO = Path(__file__).resolve().parents[1]
SKETCHES = {"trivial": "trivial.js", "typical": "hibiscus.js", "rich": "rich.js"}

BASELINE_FLAGS = [
    "--use-angle=swiftshader",
    "--enable-unsafe-swiftshader",
    "--no-sandbox",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
BASELINE_HOOK = "p5.registerAddon((p5, fn, lc) => { lc.postdraw = () => { window.__done = true; }; });"


def read_sketch(name: str) -> str:
    return (REPO / "examples" / "sketches" / SKETCHES[name]).read_text()


def baseline_html(sketch: str, seed: int) -> str:
    """One self-contained page: seed, p5, p5.brush, readiness flag and the sketch, inlined."""
    seed_js = (
        (STATIC_DIR / "seed.js").read_text().replace("parseInt(document.currentScript.dataset.seed, 10)", str(seed))
    )
    p5 = (DEFAULT_JS_DIR / "p5" / "lib" / "p5.min.js").read_text()
    brush = (DEFAULT_JS_DIR / "p5.brush" / "dist" / "p5.brush.js").read_text()
    scripts = "".join(f"<script>{s}</script>" for s in (seed_js, p5, brush, BASELINE_HOOK, sketch))
    return f"<!doctype html><html><head><meta charset='utf-8'>{scripts}</head><body style='margin:0'></body></html>"


async def baseline_render(browser, sketch: str, seed: int, deadline_s: float) -> float:  # noqa: ANN001
    started = time.perf_counter()
    page = await browser.new_page(viewport={"width": CANVAS_PX, "height": CANVAS_PX})
    try:
        await page.set_content(baseline_html(sketch, seed), timeout=deadline_s * 1000)
        while not await page.evaluate("window.__done === true"):
            if time.perf_counter() - started > deadline_s:
                raise TimeoutError("baseline render missed its deadline")
            await asyncio.sleep(0.040)
        await page.evaluate("document.querySelector('canvas').toDataURL('image/png').length")
    finally:
        await page.close()
    return time.perf_counter() - started


async def run_baseline(reps: dict[str, int], deadline_s: float) -> dict[str, list[float]]:
    from playwright.async_api import async_playwright

    times: dict[str, list[float]] = {}
    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path="/usr/bin/chromium", args=BASELINE_FLAGS)
        for name, n in reps.items():
            times[name] = []
            for rep in range(n):
                times[name].append(await baseline_render(browser, read_sketch(name), rep, deadline_s))
                print(f"  baseline {name} #{rep + 1}: {times[name][-1]:.2f} s", file=sys.stderr, flush=True)
        await browser.close()
    return times


def run_ours(reps: int) -> tuple[dict[str, list[float]], str]:
    times: dict[str, list[float]] = {}
    with Renderer(workers=1) as renderer:
        renderer.render(read_sketch("trivial"), seed=0)  # warm the library cache, as a server would be
        for name in SKETCHES:
            times[name] = []
            for rep in range(reps):
                result = renderer.render(read_sketch(name), seed=rep)
                assert result.status is RenderStatus.OK, result
                times[name].append(result.elapsed_ms / 1000)
        return times, renderer.renderer_string


def run_group(workers: int, size: int = 8, reps: int = 3) -> list[float]:
    """Wall seconds to render a GRPO group of `size` typical sketches in parallel."""
    sketch = read_sketch("typical")
    walls = []
    with Renderer(workers=workers) as renderer, ThreadPoolExecutor(max_workers=size) as pool:
        renderer.render(sketch, seed=0)
        for rep in range(reps):
            started = time.perf_counter()
            results = list(pool.map(lambda i, seed=rep: renderer.render(sketch, seed=seed), range(size)))
            walls.append(time.perf_counter() - started)
            assert all(r.status is RenderStatus.OK for r in results)
    return walls


def chromium_rss_mb() -> float:
    """Resident memory of every Chromium process descended from this one, in MiB."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(ppid, []).append(int(entry.name))
    total_kb, stack = 0, list(children.get(os.getpid(), []))
    while stack:
        pid = stack.pop()
        stack.extend(children.get(pid, []))
        try:
            status = Path(f"/proc/{pid}/status").read_text()
            if "chrom" in Path(f"/proc/{pid}/comm").read_text():
                total_kb += int(next(line for line in status.splitlines() if line.startswith("VmRSS")).split()[1])
        except (OSError, StopIteration):
            continue
    return total_kb / 1024


def run_memory(renders: int, workers: int) -> dict[str, float]:
    sketch = read_sketch("typical")
    marks: dict[str, float] = {}
    with Renderer(workers=workers) as renderer, ThreadPoolExecutor(max_workers=workers) as pool:
        done = 0
        while done < renders:
            batch = min(workers * 5, renders - done)
            list(pool.map(lambda i: renderer.render(sketch, seed=i), range(done, done + batch)))
            done += batch
            if (done >= renders // 10 and not marks) or done == renders:
                marks[str(done)] = chromium_rss_mb()
    return marks


def summarise(xs: list[float]) -> dict[str, float]:
    return {"median": statistics.median(xs), "min": min(xs), "max": max(xs), "n": len(xs)}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--reps", type=int, default=5, help="renders per sketch in our configuration")
    parser.add_argument("--baseline-reps", default="3,2,1", help="baseline renders for trivial,typical,rich")
    parser.add_argument("--baseline-deadline-s", type=float, default=400.0)
    parser.add_argument("--memory-renders", type=int, default=500, help="0 skips the memory run")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--json", type=Path, default=Path("runs/bench/render.json"))
    args = parser.parse_args(argv)

    baseline_reps = dict(zip(SKETCHES, (int(n) for n in args.baseline_reps.split(",")), strict=True))
    print("running our configuration ...", file=sys.stderr, flush=True)
    ours, renderer_string = run_ours(args.reps)
    group = run_group(args.workers)
    for name, xs in ours.items():
        print(f"  ours {name}: median {statistics.median(xs):.2f} s", file=sys.stderr, flush=True)
    print(f"  ours group of 8: median {statistics.median(group):.2f} s", file=sys.stderr, flush=True)
    print("running the baseline configuration (slow) ...", file=sys.stderr, flush=True)
    baseline = asyncio.run(run_baseline(baseline_reps, args.baseline_deadline_s))
    memory = run_memory(args.memory_renders, args.workers) if args.memory_renders else {}

    report = {
        "machine": {"cpus": os.cpu_count(), "renderer": renderer_string},
        "ours": {k: summarise(v) for k, v in ours.items()},
        "baseline": {k: summarise(v) for k, v in baseline.items() if v},
        "group_of_8_typical_s": summarise(group),
        "workers": args.workers,
        "chromium_rss_mb": memory,
    }
    print(f"\nRenderer: {renderer_string}; {os.cpu_count()} CPUs; seconds per render, median (min-max) [n]\n")
    print(f"{'sketch':<9} {'baseline (a)':>24} {'ours (b)':>22} {'a/b':>7}")
    for name in SKETCHES:
        b, a = report["ours"][name], report["baseline"].get(name)
        a_text = f"{a['median']:.2f} ({a['min']:.2f}-{a['max']:.2f}) [{a['n']}]" if a else "-"
        ratio = f"{a['median'] / b['median']:.0f}x" if a else "-"
        print(f"{name:<9} {a_text:>24} {b['median']:.2f} ({b['min']:.2f}-{b['max']:.2f}) [{b['n']}] {ratio:>7}")
    g = report["group_of_8_typical_s"]
    print(f"\ngroup of 8 typical, {args.workers} workers: {g['median']:.2f} s median ({g['min']:.2f}-{g['max']:.2f})")
    if memory:
        (first, m1), (last, m2) = list(memory.items())[0], list(memory.items())[-1]
        print(f"Chromium RSS: {m1:.0f} MiB after {first} renders, {m2:.0f} MiB after {last} ({m2 / m1 - 1:+.0%})")
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(report, indent=2))
    print(f"\nJSON: {args.json}")


if __name__ == "__main__":
    main()
