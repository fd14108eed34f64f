"""Copy guard benchmark: copies at other seeds and places, honest paintings, with and without the encoder.

    watercolour bench copy_guard [--pool FOLDER] [--workers 2]

Renders, each at the seeds named:
- `copy`: the red team's copies of pool paintings re-coded (tests/fixtures/sketches/reward-attacks,
  a02/a03/a04/a09/a19/a20), at seeds 0-8;
- `verbatim`: every fourth `love` painting of the pool as it is, at seeds 1 and 5;
- `moved`: the same, moved by translate(40, 25), at seed 3;
- `honest`: the audit's honest paintings of every subject, at seeds 0 and 4;
- `example`: examples/sketches, at seed 2;
- `formless`: three of each formless family, at seed 0.
Then, per group, how many the guard names a copy: without the encoder (the source and the seed-0
presence map only: the guard before issue 54) and with it (the check at any seed and place), the
closest joint similarity of the group (the margin to `JOINT_THRESHOLD`), and milliseconds per
check. Copies should be named, honest paintings and examples never.
"""

from __future__ import annotations

import argparse
import statistics
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np

from watercolour_env.audit.probes import honest_sketches, other_subject_sketches
from watercolour_env.families import family_sketches
from watercolour_env.pool import STARTER_POOL, Pool, Tier
from watercolour_env.server.copies import JOINT_THRESHOLD, CopyGuard
from watercolour_env.server.reward.vision.encoder import ImageEncoder

REPO = Path(__file__).resolve().parents[1]
ATTACKS = REPO / "tests" / "fixtures" / "sketches" / "reward-attacks"
COPIES = ("a02_", "a03_", "a04_", "a09_", "a19_", "a20_")
"""The red team's re-coded copies of pool paintings (issue 33's corpus)."""
GROUPS = ("copy", "verbatim", "moved", "honest", "example", "formless")


def jobs(pool: Pool) -> list[tuple[str, str, int]]:
    """(group, sketch, seed) of every render, as the module docstring lists them."""
    recoded = [p.read_text() for p in sorted(ATTACKS.glob("*.js")) if p.name.startswith(COPIES)]
    out = [("copy", sketch, seed) for sketch in recoded for seed in range(9)]
    for ref in pool.tier(Tier.LOVE)[::4]:
        out += [("verbatim", ref.sketch, 1), ("verbatim", ref.sketch, 5)]
        moved = ref.sketch.replace("function draw() {", "function draw() {\n  translate(40, 25);", 1)
        if moved != ref.sketch:
            out.append(("moved", moved, 3))
    out += [("honest", s, seed) for s in (honest_sketches("") | other_subject_sketches()).values() for seed in (0, 4)]
    out += [("example", p.read_text(), 2) for p in sorted((REPO / "examples" / "sketches").glob("*.js"))]
    out += [("formless", s, 0) for s in family_sketches(3).values()]
    return out


def main() -> None:
    """Prints the table; see the module docstring."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pool", default=str(STARTER_POOL), help="a pool folder or Hub dataset")
    parser.add_argument("--workers", type=int, default=2, help="render workers")
    args = parser.parse_args()
    from watercolour_env.server.sandbox import Renderer

    pool = Pool.load(args.pool)
    encoder = ImageEncoder()
    guards = {"before": CopyGuard(pool), "after": CopyGuard(pool, encoder=encoder)}
    todo = jobs(pool)
    started = time.perf_counter()
    with Renderer(workers=args.workers) as renderer, ThreadPoolExecutor(args.workers) as threads:
        results = list(threads.map(lambda job: renderer.render(job[1], seed=job[2]), todo))
    print(f"pool {pool.source}: {len(todo)} renders in {time.perf_counter() - started:.0f} s")

    named: dict[tuple[str, str], int] = {}
    sent: dict[str, int] = dict.fromkeys(GROUPS, 0)
    closest: dict[str, float] = {}
    ms: dict[str, list[float]] = {"before": [], "after": []}
    for (group, sketch, _), result in zip(todo, results, strict=True):
        if not result.png:
            print(f"  no picture: {group} ({result.status.value})")
            continue
        sent[group] += 1
        for name, guard in guards.items():
            begun = time.perf_counter()
            match = guard.match(sketch, result.png)
            ms[name].append(1000 * (time.perf_counter() - begun))
            named[(group, name)] = named.get((group, name), 0) + (match is not None)
        joint = guards["after"]._joint_like(result.png)
        closest[group] = max(closest.get(group, 0.0), float(np.max(joint)))

    print(f"\nnamed a copy / rendered (joint threshold {JOINT_THRESHOLD}); should be: all for copies, none else")
    print(f"{'group':10} {'sent':>5} {'before':>7} {'after':>7} {'closest joint':>14}")
    for group in GROUPS:
        print(
            f"{group:10} {sent[group]:5d} {named.get((group, 'before'), 0):7d} {named.get((group, 'after'), 0):7d} "
            f"{closest.get(group, float('nan')):14.3f}"
        )
    for name, values in ms.items():
        print(f"{name}: {statistics.median(values):.1f} ms a check ({min(values):.1f}-{max(values):.1f})")
    print("(the first check of a painting encodes it; the server's scorer then reuses the features)")


if __name__ == "__main__":
    main()
