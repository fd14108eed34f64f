"""Decision 0007's spike: does a painting survive being recorded as plain values and replayed?

    watercolour bench sealed_replay [--limit N] [--seed 3]

For each sketch of the starter pool and the warm-start corpus: run it in a recorder page (seed.js
and p5 as the renderer loads them, the Math.random draws p5.brush takes at load, then
`sealed_replay/recorder.js`, in a Chromium with `--disable-3d-apis`: no WebGL), which keeps the
ten methods' arguments and those of p5's functions that change the picture; write the log back
as a sketch of literal calls; render the original and the replay with today's renderer at the
same seed and compare the PNG bytes.
Prints one line per sketch that differs, then the count of identical pictures, the log lengths
and the recorder's time per sketch (median and range).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import tempfile
import time
from pathlib import Path

from playwright.sync_api import sync_playwright

from watercolour_env.pool import STARTER_POOL, Pool
from watercolour_env.server.sandbox import Renderer
from watercolour_env.sketch import inspect_sketch

REPO = Path(__file__).resolve().parents[1]
SANDBOX = REPO / "envs" / "watercolour_env" / "server" / "sandbox"
LIBRARIES = {
    "seed.js": SANDBOX / "static" / "seed.js",
    "p5.min.js": SANDBOX / "js" / "node_modules" / "p5" / "lib" / "p5.min.js",
    "recorder.js": REPO / "bench" / "sealed_replay" / "recorder.js",
}
BRUSH_DRAWS_AT_LOAD = 4
"""Math.random draws p5.brush takes when it loads (it seeds its own generators; counted here with a
wrapped Math.random). The recorder loads no p5.brush, whose hooks need WebGL, and takes as many."""
PAGE = """<!doctype html><html><head><meta charset="utf-8">
<script src="seed.js" data-seed="{seed}"></script><script src="p5.min.js"></script>
<script src="burn.js"></script><script src="recorder.js"></script><script src="sketch.js"></script>
<script>[window.setup, window.draw] = __recordAround(window.setup, window.draw);</script>
</head><body></body></html>"""
CONSTANTS = {'"webgl"': "WEBGL", '"degrees"': "DEGREES", '"radians"': "RADIANS"}


def sketches() -> list[tuple[str, str]]:
    """(id, source) of the starter pool's paintings and the warm-start corpus's sketches."""
    pool = Pool.load(str(STARTER_POOL))
    corpus = sorted((REPO / "trainer" / "corpus" / "warmstart" / "sketches").glob("*.js"))
    return [(r.id, r.sketch) for r in pool.references] + [(p.stem, p.read_text()) for p in corpus]


def replay(log: list, sketch: str) -> str:
    """The log as a sketch of literal calls (p5's constants by name), all in setup."""
    calls = "\n".join(f"  {name}({', '.join(json.dumps(a) for a in args)});" for name, args in log)
    for value, name in CONSTANTS.items():
        calls = calls.replace(value, name)
    draw = "function draw() {}\n" if "draw" in inspect_sketch(sketch).declared else ""
    return f"function setup() {{\n{calls}\n}}\n{draw}"


def compare(chosen: list[tuple[str, str]], seed: int) -> tuple[list[str], list[int], list[float]]:
    """Records and replays each (id, sketch) at `seed`.

    Returns:
        (the ids whose replay differs, with both statuses; each log's length in calls; each
        recorder page's seconds from a cold load to its first frame).
    """
    differ, lengths, recording = [], [], []
    with tempfile.TemporaryDirectory() as work, sync_playwright() as playwright, Renderer(workers=2) as renderer:
        folder = Path(work)
        for name, path in LIBRARIES.items():
            (folder / name).write_bytes(path.read_bytes())
        (folder / "index.html").write_text(PAGE.format(seed=seed))
        (folder / "burn.js").write_text(f"for (let i = 0; i < {BRUSH_DRAWS_AT_LOAD}; i++) Math.random();")
        browser = playwright.chromium.launch(executable_path=renderer.chromium_path, args=["--disable-3d-apis"])
        for name, sketch in chosen:
            (folder / "sketch.js").write_text(sketch)
            page = browser.new_page()
            started = time.perf_counter()
            page.goto((folder / "index.html").as_uri())
            page.wait_for_function("window.__done === true", timeout=30_000)
            log = page.evaluate("window.__log")
            recording.append(time.perf_counter() - started)
            page.close()
            lengths.append(len(log))
            original = renderer.render(sketch, seed=seed)
            replayed = renderer.render(replay(log, sketch), seed=seed)
            if original.png is None or original.png != replayed.png:
                differ.append(f"{name} ({original.status.value} / {replayed.status.value}, {replayed.js_errors[:1]})")
        browser.close()
    return differ, lengths, recording


def main() -> None:
    """Prints the comparison (see the module docstring)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=0, help="a random sample of this many (0: all)")
    parser.add_argument("--seed", type=int, default=3)
    args = parser.parse_args()
    chosen = sketches()
    if args.limit:
        chosen = random.Random(0).sample(chosen, args.limit)
    differ, lengths, recording = compare(chosen, args.seed)
    for line in differ:
        print(f"differs: {line}")
    print(f"seed {args.seed}: {len(chosen) - len(differ)} of {len(chosen)} replays gave the same PNG bytes")
    print(f"log length: {min(lengths)} to {max(lengths)} calls, median {statistics.median(lengths):g}")
    print(
        f"recorder page, load to first frame: median {statistics.median(recording) * 1000:.0f} ms "
        f"({min(recording) * 1000:.0f}-{max(recording) * 1000:.0f})"
    )


if __name__ == "__main__":
    main()
