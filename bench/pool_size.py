"""How many paintings to rate: the embedded scorer's accuracy against the size of its pool.

    .venv/bin/python bench/pool_size.py [--pool PATH] [--draws 20] [--json out.json]

Draws subsamples of the pool (sizes 8, 12, 20, 30, 45, 62; tiers in the pool's proportions, at
least one love and one okay), fits the embedded scorer on each as the server would, and prints
for each size, as the median and range over the draws:

1. held-out accuracy: the pairwise accuracy, on cross-tier pairs, of the fitted scorer on the
   paintings the draw left out (the rest of the pool): how well a pool of that size ranks
   paintings it has not seen;
2. what the server says: the 5-fold cross-validated accuracy within the draw (its start-up
   warning), or "-" when the draw is too small to measure it;
3. how often the server warns (under `WEAK_ACCURACY`, or not measurable).

The baseline, in the same run, is the whole pool's own 5-fold accuracy (the starter's: 0.85);
the ratio column is each size's median held-out accuracy against it.
"""

from __future__ import annotations

import argparse
import json
import statistics
from pathlib import Path

import numpy as np

from watercolour_env.pool import STARTER_POOL, Pool, Tier
from watercolour_env.server.reward import witness as embedded
from watercolour_env.server.reward.preference import WEAK_ACCURACY

L2 = 3.0  # EmbeddedScorer.fit's default
SIZES = (8, 12, 20, 30, 45, 62)


def stratified(ranks: np.ndarray, size: int, rng: np.random.Generator) -> np.ndarray:
    """Indices of `size` paintings, tiers in the pool's proportions (largest remainder), >= 1 love and okay."""
    tiers, counts = np.unique(ranks, return_counts=True)
    exact = counts / counts.sum() * size
    take = np.floor(exact).astype(int)
    for i in np.argsort(exact - take)[::-1][: size - take.sum()]:
        take[i] += 1
    for needed in (embedded.TIER_RANK[Tier.LOVE], embedded.TIER_RANK[Tier.OKAY]):
        i = int(np.nonzero(tiers == needed)[0][0])
        if take[i] == 0:  # from the largest tier
            take[int(np.argmax(take))] -= 1
            take[i] = 1
    return np.concatenate(
        [rng.choice(np.nonzero(ranks == t)[0], n, replace=False) for t, n in zip(tiers, take, strict=True)]
    )


def held_out_accuracy(features: np.ndarray, ranks: np.ndarray, chosen: np.ndarray) -> float:
    """Pairwise accuracy on the cross-tier pairs of the paintings not `chosen`, fitted on `chosen`."""
    rest = np.setdiff1d(np.arange(len(ranks)), chosen)
    model = embedded.HandScorer._fit_arrays(features[chosen], ranks[chosen], L2)
    utilities = np.array([model.utility(f) for f in features[rest]])
    pairs = embedded.tier_pairs(ranks[rest])
    return float((utilities[pairs[:, 0]] > utilities[pairs[:, 1]]).mean())


def measure(pool: Pool, draws: int) -> dict:
    """Per size: held-out and cross-validated accuracies over `draws` subsamples; and the baseline."""
    features = np.stack([embedded.image_features(r.png) for r in pool.references])
    ranks = np.array([embedded.TIER_RANK[r.tier] for r in pool.references])
    baseline = embedded._cross_validate(features, ranks, L2, 5, 0)
    sizes = {}
    for size in [s for s in SIZES if s < len(ranks)]:
        held, said = [], []
        for draw in range(draws):
            chosen = stratified(ranks, size, np.random.default_rng(1000 * size + draw))
            held.append(held_out_accuracy(features, ranks, chosen))
            said.append(embedded._cross_validate(features[chosen], ranks[chosen], L2, 5, 0))
        sizes[size] = {"held_out": held, "server_says": said}
    return {"pool": pool.source, "paintings": len(ranks), "baseline": baseline, "sizes": sizes}


def spread(values: list[float]) -> str:
    """median [min, max]."""
    return f"{statistics.median(values):.2f} [{min(values):.2f}, {max(values):.2f}]"


def table(result: dict) -> str:
    """The printed table."""
    baseline = result["baseline"]
    lines = [
        f"pool {result['pool']}: {result['paintings']} paintings; baseline (its own 5-fold accuracy) {baseline:.3f}",
        "",
        f"{'size':>5}  {'held-out accuracy':<20} {'ratio':>5}  {'server says (5-fold)':<20} {'warned':>6}",
    ]
    for size, got in result["sizes"].items():
        said = [a for a in got["server_says"] if a is not None]
        warned = sum(a is None or a < WEAK_ACCURACY for a in got["server_says"])
        lines.append(
            f"{size:>5}  {spread(got['held_out']):<20} {statistics.median(got['held_out']) / baseline:>5.2f}  "
            f"{spread(said) if said else '-':<20} {warned:>3}/{len(got['server_says'])}"
        )
    return "\n".join(lines)


def main() -> None:
    """Prints the table; writes the raw numbers as JSON when asked."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pool", default=str(STARTER_POOL))
    parser.add_argument("--draws", type=int, default=20)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    result = measure(Pool.load(args.pool), args.draws)
    print(table(result))
    if args.json:
        args.json.write_text(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
