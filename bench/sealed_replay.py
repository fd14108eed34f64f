"""Decision 0007, built: does every painting come out of the sealed render as it does unsealed?

    watercolour bench sealed_replay [--limit N] [--seed 0] [--workers 2]

Renders each sketch of the starter pool and the warm-start corpus twice at the same seed: as the
sketch paints itself in the painter's pages (`Renderer(sealed=False)`, the guard watching, as
before decision 0007), and sealed (`Renderer(sealed=True)`: the sketch runs in a recorder without WebGL
and p5.brush, its checked calls are painted by a sketch of literal calls; sealed.py). Prints one
line per sketch whose PNG bytes or status differ, the count of identical pictures, and the
render times of both (median and range; the two renderers alternate, so load falls on both).
"""

from __future__ import annotations

import argparse
import random
import statistics
from pathlib import Path

from watercolour_env.pool import STARTER_POOL, Pool
from watercolour_env.server.sandbox import Renderer

REPO = Path(__file__).resolve().parents[1]


def sketches() -> list[tuple[str, str]]:
    """(id, source) of the starter pool's paintings and the warm-start corpus's sketches."""
    pool = Pool.load(str(STARTER_POOL))
    corpus = sorted((REPO / "trainer" / "corpus" / "warmstart" / "sketches").glob("*.js"))
    return [(r.id, r.sketch) for r in pool.references] + [(p.stem, p.read_text()) for p in corpus]


def compare(chosen: list[tuple[str, str]], seed: int, workers: int) -> tuple[list[str], list[float], list[float]]:
    """Renders each (id, sketch) unsealed and sealed at `seed`.

    Returns:
        (a line for each id whose picture or status differs; each unsealed render's seconds;
        each sealed render's seconds, queue included).
    """
    differ, plain_s, sealed_s = [], [], []
    with Renderer(workers=workers, sealed=False) as plain, Renderer(workers=workers, sealed=True) as sealed:
        for name, sketch in chosen:
            before = plain.render(sketch, seed=seed)
            after = sealed.render(sketch, seed=seed)
            plain_s.append(before.elapsed_ms / 1000)
            sealed_s.append(after.elapsed_ms / 1000)
            if before.png is None or before.png != after.png or before.status != after.status:
                differ.append(
                    f"{name} ({before.status.value} / {after.status.value}: {after.detail or after.violations})"
                )
    return differ, plain_s, sealed_s


def spread(values: list[float]) -> str:
    return f"{statistics.median(values) * 1000:.0f} ms ({min(values) * 1000:.0f}-{max(values) * 1000:.0f})"


def main() -> None:
    """Prints the comparison (see the module docstring)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=0, help="a random sample of this many (0: all)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    chosen = sketches()
    if args.limit:
        chosen = random.Random(0).sample(chosen, args.limit)
    differ, plain_s, sealed_s = compare(chosen, args.seed, args.workers)
    for line in differ:
        print(f"differs: {line}")
    print(f"seed {args.seed}: {len(chosen) - len(differ)} of {len(chosen)} sealed renders gave the same PNG bytes")
    print(f"render, unsealed: {spread(plain_s)}")
    print(f"render, sealed:   {spread(sealed_s)}")
    ratio = statistics.median(sealed_s) / statistics.median(plain_s)
    print(f"sealed / unsealed, medians: {ratio:.2f}")


if __name__ == "__main__":
    main()
