"""Gate benchmark: the source checks, and what the sandbox's run-time allowlist costs a render.

    watercolour bench gate [--reps 200] [--extract-reps 5] [--render-reps 7]

1. Times `check_source` (tree-sitter parse, inventory, every violation) per example sketch
   against a baseline measured in the same run: the public reproduction's approach, regular
   expressions over code with comments stripped.
2. Times extraction on adversarial replies of 16 k, 64 k and 256 KiB characters against the fence
   pattern it replaced (issue 32), run in the same process: `fenced_blocks` alone and the whole
   `extract_sketch` (which parses the reply when no fence holds a sketch). Linear time shows as a
   ratio near 4 from one size to the next; the old pattern's was near 16. `--extract-reps 0`
   skips this part; the old pattern runs once at 256 KiB (about 40 s).
3. Renders the trivial, typical and rich sketches with the guard (static/guard.js) on and off,
   interleaved in the same run on two one-worker renderers, and prints render milliseconds
   (median and range) with the ratio; it also checks that both give the same PNG bytes.
   `--render-reps 0` skips this part.
"""

from __future__ import annotations

import argparse
import re
import statistics
import time
from pathlib import Path

import psutil

from watercolour_env.server.gate import check_source
from watercolour_env.server.sandbox import Renderer
from watercolour_env.server.sandbox.brush_api import brush_methods
from watercolour_env.sketch import extract_sketch, fenced_blocks

REPO = Path(__file__).resolve().parents[1]
SKETCHES = {"trivial": "trivial.js", "typical": "hibiscus.js", "rich": "rich.js"}
_COMMENTS = re.compile(r"//[^\n]*|/\*.*?\*/", re.DOTALL)
# The fence pattern of sketch.py before issue 32: quadratic on a fence and one letter repeated.
_OLD_FENCE = re.compile(r"(```|~~~)[ \t]*([A-Za-z0-9_+-]*)[^\n]*\n(.*?)(?:\1|\Z)", re.DOTALL)
ADVERSARIAL = {
    "fence + letters": lambda n: "```" + "a" * (n - 3),
    "(fence letter)*": lambda n: "```a" * (n // 4),
    "tildes only": lambda n: "~" * n,
    "(fence newline)*": lambda n: "```\n" * (n // 4),
    "member chain": lambda n: "```js\nfunction setup() {}\nx" + ".a()" * ((n - 30) // 4) + ";\n```",
}
SIZES = {"16 k": 16_384, "64 k": 65_536, "256 KiB": 262_144}
_PATTERNS = [re.compile(p) for p in (r"\bfunction\s+setup\s*\(", r"brush\.\w+\s*\(", r"\b(ellipse|rect|point|line)\(")]


def regex_gate(source: str) -> list[bool]:
    """The baseline: strip comments, then search a few patterns (names in strings still match)."""
    code = _COMMENTS.sub("", source)
    return [bool(p.search(code)) for p in _PATTERNS]


def timed_ms(fn, arg: str, reps: int) -> list[float]:  # noqa: ANN001
    times = []
    for _ in range(reps):
        started = time.perf_counter()
        fn(arg)
        times.append((time.perf_counter() - started) * 1000)
    return times


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--reps", type=int, default=200)
    parser.add_argument("--extract-reps", type=int, default=5)
    parser.add_argument("--render-reps", type=int, default=7)
    args = parser.parse_args(argv)
    brush_methods()  # read the package's export list once, as the server does at start-up
    print(f"{'sketch':<9} {'regex baseline ms':>20} {'check_source ms':>22} {'ratio':>7}")
    for name, file in SKETCHES.items():
        source = (REPO / "examples" / "sketches" / file).read_text()
        base, ours = timed_ms(regex_gate, source, args.reps), timed_ms(check_source, source, args.reps)
        b, o = statistics.median(base), statistics.median(ours)
        print(
            f"{name:<9} {b:8.3f} ({min(base):.3f}-{max(base):.3f}) {o:8.3f} ({min(ours):.3f}-{max(ours):.3f})"
            f" {o / b:6.1f}x"
        )
    if args.extract_reps > 0:
        extraction_cost(args.extract_reps)
    if args.render_reps > 0:
        enforcement_cost(args.render_reps)


def extraction_cost(reps: int) -> None:
    """Milliseconds to read the fences of adversarial replies: the old pattern, the scan, extraction."""
    print(
        f"\n{'reply':<16} {'size':>8} {'old pattern ms':>16} {'fenced_blocks ms':>18} {'extract_sketch ms':>19}"
        f" {'old/new':>9}"
    )
    for kind, make in ADVERSARIAL.items():
        for label, size in SIZES.items():
            reply = make(size)
            old = timed_ms(lambda r: list(_OLD_FENCE.finditer(r)), reply, 1 if size > 100_000 else reps)
            scan, whole = timed_ms(fenced_blocks, reply, reps), timed_ms(extract_sketch, reply, reps)
            o, n = statistics.median(old), statistics.median(scan)
            print(
                f"{kind:<16} {label:>8} {o:10.1f} [{len(old)}] {n:12.3f} ({min(scan):.3f}-{max(scan):.3f})"
                f" {statistics.median(whole):10.1f} ({min(whole):.1f}-{max(whole):.1f}) {o / max(n, 1e-6):9.3g}x"
            )


def _browser_cpu_s(driver: psutil.Process) -> float:
    """CPU seconds (user + system) used so far by the Chromium processes under one driver."""
    total = 0.0
    for proc in driver.children(recursive=True):
        try:
            times = proc.cpu_times()
            total += times.user + times.system
        except psutil.NoSuchProcess:
            pass
    return total


def enforcement_cost(reps: int) -> None:
    """Render ms and browser CPU ms with the guard off and on, interleaved, per sketch; same PNGs?

    Each rep renders once with each renderer, back to back (order alternating), so a pair shares
    the machine's load; the paired column is the median of the pairs' on/off ratios of wall time
    and their interquartile range. CPU ms is what the renderer's own Chromium processes used for
    the render (psutil, every process under its Playwright driver): on a shared machine it moves
    less than wall time, since waiting for a core is not counted.
    """
    print(
        f"\n{'sketch':<9} {'guard off ms':>22} {'guard on ms':>22} {'on/off':>7} {'paired on/off (IQR)':>21}"
        f" {'CPU ms off':>11} {'CPU ms on':>10} {'CPU on/off':>10}  same PNG"
    )
    before = set(psutil.Process().children())
    off = Renderer(workers=1, enforce=False)
    off.start()
    (off_driver,) = set(psutil.Process().children()) - before
    before.add(off_driver)
    on = Renderer(workers=1, enforce=True)
    on.start()
    (on_driver,) = set(psutil.Process().children()) - before
    drivers = {False: off_driver, True: on_driver}
    try:
        for name, file in SKETCHES.items():
            source = (REPO / "examples" / "sketches" / file).read_text()
            first_off, first_on = off.render(source, seed=1), on.render(source, seed=1)  # warm, and the bytes
            times: dict[bool, list[float]] = {False: [], True: []}
            cpu: dict[bool, list[float]] = {False: [], True: []}
            for rep in range(reps):
                for enforce in (False, True) if rep % 2 == 0 else (True, False):
                    start = _browser_cpu_s(drivers[enforce])
                    times[enforce].append((on if enforce else off).render(source, seed=1).elapsed_ms)
                    cpu[enforce].append((_browser_cpu_s(drivers[enforce]) - start) * 1000)
            b, o = statistics.median(times[False]), statistics.median(times[True])
            cb, co = statistics.median(cpu[False]), statistics.median(cpu[True])
            ratios = [t_on / t_off for t_off, t_on in zip(times[False], times[True], strict=True)]
            q1, _, q3 = statistics.quantiles(ratios, n=4) if reps > 1 else (ratios[0],) * 3
            print(
                f"{name:<9} {b:8.0f} ({min(times[False]):.0f}-{max(times[False]):.0f}) [{reps}]"
                f" {o:8.0f} ({min(times[True]):.0f}-{max(times[True]):.0f}) [{reps}] {o / b:6.2f}x"
                f" {statistics.median(ratios):8.2f}x ({q1:.2f}-{q3:.2f})"
                f" {cb:11.0f} {co:10.0f} {co / cb:9.2f}x"
                f"  {first_off.png == first_on.png}"
            )
    finally:
        off.close()
        on.close()


if __name__ == "__main__":
    main()
