"""Gate benchmark: the source checks, and what the sandbox's run-time allowlist costs a render.

    watercolour bench gate [--reps 200] [--render-reps 7]

1. Times `check_source` (tree-sitter parse, inventory, every violation) per example sketch
   against a baseline measured in the same run: the public reproduction's approach, regular
   expressions over code with comments stripped.
2. Renders the trivial, typical and rich sketches with the guard (static/guard.js) on and off,
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

from watercolour_env.server.brush_api import brush_methods
from watercolour_env.server.gate import check_source
from watercolour_env.server.render import Renderer

REPO = Path(__file__).resolve().parents[1]
SKETCHES = {"trivial": "trivial.js", "typical": "hibiscus.js", "rich": "rich.js"}
_COMMENTS = re.compile(r"//[^\n]*|/\*.*?\*/", re.DOTALL)
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
    if args.render_reps > 0:
        enforcement_cost(args.render_reps)


def enforcement_cost(reps: int) -> None:
    """Render ms with the guard off and on, interleaved, per sketch; and whether the PNGs match.

    Each rep renders once with each renderer, back to back (order alternating), so a pair shares
    the machine's load; the paired column is the median of the pairs' on/off ratios and their
    interquartile range, steadier on a shared machine than the ratio of the two medians.
    """
    print(
        f"\n{'sketch':<9} {'guard off ms':>22} {'guard on ms':>22} {'on/off':>7} {'paired on/off (IQR)':>21}  same PNG"
    )
    with Renderer(workers=1, enforce=False) as off, Renderer(workers=1, enforce=True) as on:
        for name, file in SKETCHES.items():
            source = (REPO / "examples" / "sketches" / file).read_text()
            first_off, first_on = off.render(source, seed=1), on.render(source, seed=1)  # warm, and the bytes
            times: dict[bool, list[float]] = {False: [], True: []}
            for rep in range(reps):
                for enforce in (False, True) if rep % 2 == 0 else (True, False):
                    times[enforce].append((on if enforce else off).render(source, seed=1).elapsed_ms)
            b, o = statistics.median(times[False]), statistics.median(times[True])
            ratios = [t_on / t_off for t_off, t_on in zip(times[False], times[True], strict=True)]
            q1, _, q3 = statistics.quantiles(ratios, n=4) if reps > 1 else (ratios[0],) * 3
            print(
                f"{name:<9} {b:8.0f} ({min(times[False]):.0f}-{max(times[False]):.0f}) [{reps}]"
                f" {o:8.0f} ({min(times[True]):.0f}-{max(times[True]):.0f}) [{reps}] {o / b:6.2f}x"
                f" {statistics.median(ratios):8.2f}x ({q1:.2f}-{q3:.2f})"
                f"  {first_off.png == first_on.png}"
            )


if __name__ == "__main__":
    main()
