"""A finished run's paintings scored again by today's embedded scorer, by window beside its proxy and gold.

    watercolour bench rescore_run [--run docs/runs/h200-learn] [--cache FILE] [--workers 2]

Every scored rollout of the run's `rollouts.jsonl.gz` is rendered again at its own seed (a
(sketch, seed) pair once) and judged by the embedded scorer fitted on `--pool` (the starter by
default) for the rollout's subject. The run's own proxy and gold are read from its components. A
scorer's levels are not comparable with another's, so each is also read as a percentile among the
run's paintings (0 = the run's worst under that scorer, 1 = its best).

The question of issue 54: the paintings the gold marked down (gold more than `--margin` under the
proxy), does the new scorer see them as worse than the proxy did? Printed by 10-step window: mean
proxy, gold and new score; the share above the new scorer's okay median for the subject; and over
the marked-down rollouts, the mean percentile under each scorer. Rank correlations close it.

Scores are kept in `--cache` (JSON lines: sha, seed, score, status), so a cut run resumes.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import statistics
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np

from watercolour_env.pool import STARTER_POOL, Pool, Tier
from watercolour_env.server.reward.embedded import EmbeddedScorer
from watercolour_env.server.reward.vision.encoder import ImageEncoder

REPO = Path(__file__).resolve().parents[1]
WINDOW = 10
"""Steps to a window, as `watercolour analyze` reads the gold (trainer/record/gold.py)."""


def value(rollout: dict, name: str) -> float | None:
    """A component's value, None when absent or unscored."""
    for c in rollout.get("components") or []:
        if c.get("name") == name and isinstance(c.get("value"), int | float):
            return float(c["value"])
    return None


def key(rollout: dict) -> str:
    """The render's identity: the sketch's sha256 and the seed."""
    return f"{hashlib.sha256(rollout['sketch'].encode()).hexdigest()}:{rollout['seed']}"


def percentiles(values: np.ndarray) -> np.ndarray:
    """Each value's rank among all, scaled to [0, 1] (ties share their mean rank)."""
    order = values.argsort(kind="stable")
    ranks = np.empty(len(values))
    ranks[order] = np.arange(len(values))
    for v in np.unique(values):  # ties: mean rank
        same = values == v
        ranks[same] = ranks[same].mean()
    return ranks / max(1, len(values) - 1)


def spearman(a: np.ndarray, b: np.ndarray) -> float:
    """Spearman's rank correlation, in [-1, 1]."""
    return float(np.corrcoef(percentiles(a), percentiles(b))[0, 1])


def rescore(rollouts: list[dict], scorer: EmbeddedScorer, cache: Path, workers: int) -> dict[str, float | None]:
    """The new score of each (sketch, seed) key; renders only those missing from `cache`."""
    from watercolour_env.server.sandbox import Renderer

    done: dict[str, float | None] = {}
    if cache.exists():
        for line in cache.read_text().splitlines():
            row = json.loads(line)
            done[row["key"]] = row["score"]
    todo = {key(r): r for r in rollouts if key(r) not in done}
    print(f"{len(done)} scores cached, {len(todo)} to render with {workers} workers")
    started = time.perf_counter()
    with Renderer(workers=workers) as renderer, cache.open("a") as out:

        def one(item: tuple[str, dict]) -> tuple[str, float | None, str]:
            k, r = item
            result = renderer.render(r["sketch"], seed=r["seed"])
            if not result.png:
                return k, None, result.status.value
            return k, scorer.score(result.png, r["subject"]), result.status.value

        with ThreadPoolExecutor(workers) as pool:
            for n, (k, score, status) in enumerate(pool.map(one, todo.items()), 1):
                done[k] = score
                out.write(json.dumps({"key": k, "score": score, "status": status}) + "\n")
                if n % 200 == 0:
                    out.flush()
                    print(f"  {n}/{len(todo)} in {time.perf_counter() - started:.0f} s", flush=True)
    return done


def main() -> None:
    """Prints the tables; see the module docstring."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--run", default=str(REPO / "docs" / "runs" / "h200-learn"), help="a run folder")
    parser.add_argument("--pool", default=str(STARTER_POOL), help="the pool the new scorer is fitted on")
    parser.add_argument("--cache", default="rescore-cache.jsonl", help="scores kept between calls")
    parser.add_argument("--workers", type=int, default=2, help="render workers")
    parser.add_argument("--margin", type=float, default=0.1, help="gold this far under the proxy: marked down")
    args = parser.parse_args()

    with gzip.open(Path(args.run) / "rollouts.jsonl.gz", "rt") as f:
        rollouts = [json.loads(line) for line in f]
    rows = [r for r in rollouts if value(r, "embedded") is not None and value(r, "gold") is not None]
    pool = Pool.load(args.pool)
    scorer = EmbeddedScorer.fit(pool, ImageEncoder(), folds=0)
    print(f"run {args.run}: {len(rollouts)} rollouts, {len(rows)} with proxy and gold; pool {pool.source}")
    new = rescore(rows, scorer, Path(args.cache), args.workers)
    rows = [r for r in rows if new.get(key(r)) is not None]
    proxy = np.array([value(r, "embedded") for r in rows])
    gold = np.array([value(r, "gold") for r in rows])
    fresh = np.array([new[key(r)] for r in rows])
    steps = np.array([r["step"] for r in rows])
    subjects = sorted({r["subject"] for r in rows})
    okay = {  # the pool's rows may name a subject in other words ("a hibiscus"): the scorer's part for it
        s: statistics.median(
            scorer.score(ref.png, s) for ref in pool.tier(Tier.OKAY) if ref.subject == scorer.model_for(s).subject
        )
        for s in subjects
    }
    above = np.array([new[key(r)] > okay[r["subject"]] for r in rows])
    ranked = {"proxy": percentiles(proxy), "gold": percentiles(gold), "new": percentiles(fresh)}
    down = gold < proxy - args.margin
    print(f"{len(rows)} rescored; the new scorer's okay median: " + ", ".join(f"{s} {m:.3f}" for s, m in okay.items()))

    print(f"\nby window: means; share over the okay median; marked down (gold < proxy - {args.margin}): n, percentiles")
    head = f"{'steps':>8} {'n':>4} {'proxy':>6} {'gold':>6} {'new':>6} {'>okay':>6} {'down':>5}"
    print(head + f" {'pct proxy':>10} {'pct gold':>9} {'pct new':>8}")
    for start in range(1, int(steps.max()) + 1, WINDOW):
        here = (steps >= start) & (steps < start + WINDOW)
        if not here.any():
            continue
        d = here & down
        cells = [f"{ranked[s][d].mean():.2f}" if d.any() else "-" for s in ("proxy", "gold", "new")]
        print(
            f"{start:>3}-{start + WINDOW - 1:<4} {here.sum():4d} {proxy[here].mean():6.3f} {gold[here].mean():6.3f} "
            f"{fresh[here].mean():6.3f} {above[here].mean():6.2f} {d.sum():5d} "
            f"{cells[0]:>10} {cells[1]:>9} {cells[2]:>8}"
        )
    print(
        f"\nall marked down ({down.sum()}): percentile proxy {ranked['proxy'][down].mean():.2f}, "
        f"gold {ranked['gold'][down].mean():.2f}, new {ranked['new'][down].mean():.2f}"
    )
    print(
        f"rank correlation: new-gold {spearman(fresh, gold):.3f}, new-proxy {spearman(fresh, proxy):.3f}, "
        f"proxy-gold {spearman(proxy, gold):.3f}"
    )


if __name__ == "__main__":
    main()
