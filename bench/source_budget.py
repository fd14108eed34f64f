"""The source check's CPU budget: how long a hostile reply holds a step, and the server's threads.

    watercolour bench source_budget [--rounds 3]

The red team's reply (issue 56): 256 KiB of `a<b ` in a code block. tree-sitter's error
recovery took 4.7 s a parse, the gate parsed it twice, and the parse held the GIL throughout, so
`/health` and every other session's thread waited (4.7 s). Now the gate's parses and walks
share `syntax.PARSE_CPU_S` of CPU time, and the parser reads through a callback, so other
threads run between its steps.

For each reply: `check_source`'s wall time (median and range over `--rounds`), its verdict, and
the longest pause that a thread ticking every millisecond saw meanwhile; the baseline, in the
same run, is one parse from bytes of the block's text, as the gate did before twice (a single
call into tree-sitter), with its own longest pause. The ratio is the gate's longest pause over the baseline's.
"""

from __future__ import annotations

import argparse
import statistics
import threading
import time
from collections.abc import Callable
from pathlib import Path

from watercolour_env import syntax
from watercolour_env.server.gate import check_source
from watercolour_env.sketch import fenced_blocks

REPO = Path(__file__).resolve().parents[1]
REPLIES = {
    "hibiscus (1.4 KB)": (REPO / "examples" / "sketches" / "hibiscus.js").read_text(),
    "plain statements (150 KB)": "```js\nfunction setup() { createCanvas(600, 600, WEBGL);\n"
    + "let a = b + c; " * 10_000
    + "}\n```",
    "a<b (64 KiB)": "```js\n" + "a<b " * 16_384 + "\n```",
    "a<b (256 KiB)": "```js\n" + "a<b " * 65_536 + "\n```",
    # a red-team helper's (2026-12-07): dead-code walks quadratic in small statements, 53 s before
    "if(0); x 20,000 (256 KiB)": "```js\nfunction setup(){}\n" + "if(0);" * 20_000 + ";" * 141_925 + "\n```",
    "var a; x 12,000, a; x 12,000": "```js\nfunction setup(){}\n" + "var a;" * 12_000 + "a;" * 12_000 + "\n```",
}


def longest_pause(work: Callable[[], object]) -> tuple[float, float, object]:
    """(wall seconds of `work`, the longest gap in seconds of a thread sleeping 1 ms meanwhile, its result)."""
    gaps: list[float] = []
    stop = threading.Event()

    def tick() -> None:
        last = time.perf_counter()
        while not stop.is_set():
            time.sleep(0.001)
            now = time.perf_counter()
            gaps.append(now - last)
            last = now

    ticker = threading.Thread(target=tick)
    ticker.start()
    time.sleep(0.05)
    started = time.perf_counter()
    result = work()
    elapsed = time.perf_counter() - started
    stop.set()
    ticker.join()
    return elapsed, max(gaps), result


def fresh() -> None:
    """Forgets the trees and the inventory kept per thread (as each check does), for the baseline."""
    syntax.reply_cache().clear()


def main() -> None:
    """Prints the table (see the module docstring)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    sketches = {name: fenced_blocks(reply)[0] if "```" in reply else reply for name, reply in REPLIES.items()}
    print(f"budget {syntax.PARSE_CPU_S:g} CPU s; medians (ranges) over {args.rounds} rounds")
    print("| reply | gate check, s | verdict | longest pause, ms | one parse from bytes, s | its pause, ms | ratio |")
    print("|---|---|---|---|---|---|---|")
    for name, reply in REPLIES.items():
        checks, pauses, bases, base_pauses = [], [], [], []
        verdict = ""
        for _ in range(args.rounds):
            fresh()
            elapsed, pause, gate = longest_pause(lambda reply=reply: check_source(reply))
            checks.append(elapsed)
            pauses.append(pause)
            verdict = ", ".join(v.value for v in gate.violations) or "passed"
            data = sketches[name].encode()
            elapsed, pause, _ = longest_pause(lambda data=data: syntax.parser().parse(data))
            bases.append(elapsed)
            base_pauses.append(pause)

        def cell(values: list[float], scale: float = 1.0) -> str:
            return f"{statistics.median(values) * scale:.2f} ({min(values) * scale:.2f}-{max(values) * scale:.2f})"

        ratio = statistics.median(pauses) / statistics.median(base_pauses)
        print(
            f"| {name} | {cell(checks)} | {verdict} | {cell(pauses, 1000)} | {cell(bases)} | "
            f"{cell(base_pauses, 1000)} | {ratio:.2f} |"
        )


if __name__ == "__main__":
    main()
