"""Encoder benchmark: what learned image features cost a scored painting, against the hand-made ones.

    watercolour bench encoder [--reps 3] [--threads 1 2]

Over the starter pool's paintings (600x600 PNGs), interleaved in one process, times per painting:
the baseline `image_features` (the 24 hand-made statistics the embedded scorer read before issue
54, now the witness's) and `ImageEncoder.feature` (PNG decode, 224 px, EfficientNet-Lite0 through
onnxruntime) at each thread count. Prints milliseconds (median, range) and the ratio of medians to
the baseline. Issue 54's target: at most 30 ms a painting on 2 cores.
"""

from __future__ import annotations

import argparse
import statistics
import time

from watercolour_env.pool import STARTER_POOL, Pool
from watercolour_env.server.reward.features import image_features
from watercolour_env.server.reward.vision.encoder import ImageEncoder


def main() -> None:
    """Prints the table; see the module docstring."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--reps", type=int, default=3, help="passes over the pool")
    parser.add_argument("--threads", type=int, nargs="+", default=[1, 2], help="onnxruntime threads to time")
    args = parser.parse_args()
    pngs = [r.png for r in Pool.load(str(STARTER_POOL)).references]
    encoders = {f"encoder, {n} thread{'s' * (n > 1)}": ImageEncoder(threads=n) for n in args.threads}
    ways = {"hand features (baseline)": image_features, **{k: e.feature for k, e in encoders.items()}}
    times: dict[str, list[float]] = {name: [] for name in ways}
    for way in ways.values():
        way(pngs[0])  # warm up
    for _ in range(args.reps):
        for png in pngs:
            for name, way in ways.items():
                started = time.perf_counter()
                way(png)
                times[name].append(1000 * (time.perf_counter() - started))
    base = statistics.median(times["hand features (baseline)"])
    print(f"{len(pngs)} paintings x {args.reps} passes, ms per painting")
    print(f"{'':28} {'median':>8} {'range':>16} {'x baseline':>10}")
    for name, ms in times.items():
        median = statistics.median(ms)
        print(f"{name:28} {median:8.1f} {min(ms):7.1f} - {max(ms):6.1f} {median / base:10.2f}")


if __name__ == "__main__":
    main()
