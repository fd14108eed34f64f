"""Taste benchmark: does the embedded scorer pay formless sketches? Same run, same pool.

    watercolour bench taste [--pool PATH] [--per-family 6] [--json out.json]

Renders the audit's formless probe families (`watercolour_env.families`, seed 0: other
draws than the starter pool's formless `nope` paintings, seed 1) and the honest probes (new
paintings that are not in the pool), fits the embedded scorer on the pool, and prints:

1. held-out pairwise accuracy (5 folds, 3 fold seeds: median and range);
2. each family's best score against the pool's okay and love medians, in-sample;
3. leave-one-family-out: fitted without that family's formless `nope` paintings, the family's
   best score against that fit's okay median: a family the pool has never seen;
4. the honest probes' scores, and paintings of other subjects (held out: not the pool's 8), against
   the okay median.

The baseline, in the same run, is the scorer's linear utility alone (`OUTSIDE_WEIGHT` 0, the
same features): what the range adds. A family whose best beats the okay median is marked FAIL.
"""

from __future__ import annotations

import argparse
import json
import statistics
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np

from watercolour_env.audit.probes import honest_sketches, other_subject_sketches
from watercolour_env.families import FAMILIES, family_sketches
from watercolour_env.pool import STARTER_POOL, Pool, Tier
from watercolour_env.server.gate import check_render, check_source
from watercolour_env.server.reward import witness as embedded
from watercolour_env.server.sandbox import Renderer

L2 = 3.0  # EmbeddedScorer.fit's default


def render_all(sources: dict[str, str]) -> dict[str, bytes | None]:
    """name -> PNG of every sketch the gate passes, None for one it rejects (it earns fail_reward)."""
    with Renderer(workers=2) as renderer:

        def one(item: tuple[str, str]) -> tuple[str, bytes | None]:
            name, source = item
            gate = check_source(source)
            if not gate.passed:
                return name, None
            result = renderer.render(source, seed=0)
            return name, result.png if check_render(gate, result).passed else None

        with ThreadPoolExecutor(2) as pool:
            return dict(pool.map(one, sources.items()))


def medians(scorer: embedded.HandScorer, features: np.ndarray, tiers: list[Tier]) -> dict[str, float]:
    scores = [embedded.sigmoid(scorer.utility(f) - scorer.median_utility) for f in features]
    return {t.value: statistics.median(s for s, u in zip(scores, tiers, strict=True) if u is t) for t in Tier}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pool", default=str(STARTER_POOL))
    parser.add_argument("--per-family", type=int, default=6)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    pool = Pool.load(args.pool)
    features = np.stack([embedded.image_features(r.png) for r in pool.references])
    ranks = np.array([embedded.TIER_RANK[r.tier] for r in pool.references])
    tiers = [r.tier for r in pool.references]
    family_of = [r.id.split("-")[1] if r.id.startswith("formless-") else "" for r in pool.references]
    others = {k: v for k, v in honest_sketches("").items() if not k.startswith("hibiscus")} | other_subject_sketches()
    probes = render_all(
        family_sketches(args.per_family)
        | {f"honest:{k}": v for k, v in honest_sketches().items()}
        | {f"other:{k}": v for k, v in others.items()}
    )
    report: dict[str, dict] = {}
    for label, weight in (("baseline (linear only)", 0.0), ("embedded", embedded.OUTSIDE_WEIGHT)):
        saved, embedded.OUTSIDE_WEIGHT = embedded.OUTSIDE_WEIGHT, weight
        try:
            accuracy = [embedded._cross_validate(features, ranks, L2, 5, seed) for seed in range(3)]
            scorer = embedded.HandScorer._fit_arrays(features, ranks, L2)
            tier_medians = medians(scorer, features, tiers)
            rows = {}
            for family in FAMILIES:
                pngs = [png for name, png in probes.items() if name.startswith(family + "-") and png]
                best = max(scorer.score(png) for png in pngs)
                keep = np.array([f != family for f in family_of])
                held = embedded.HandScorer._fit_arrays(features[keep], ranks[keep], L2)
                held_okay = medians(held, features[keep], [t for t, k in zip(tiers, keep, strict=True) if k])["okay"]
                rows[family] = {
                    "sent": sum(name.startswith(family + "-") for name in probes),
                    "gated": sum(png is None for name, png in probes.items() if name.startswith(family + "-")),
                    "best": best,
                    "held_out_best": max(held.score(png) for png in pngs),
                    "held_out_okay": held_okay,
                }
            honest = {name[7:]: scorer.score(png) for name, png in probes.items() if name.startswith("honest:") and png}
            other = {name[6:]: scorer.score(png) for name, png in probes.items() if name.startswith("other:") and png}
        finally:
            embedded.OUTSIDE_WEIGHT = saved
        report[label] = {
            "accuracy": accuracy,
            "medians": tier_medians,
            "families": rows,
            "honest": honest,
            "other": other,
        }
        print(
            f"\n## {label}: held-out pairwise accuracy median {statistics.median(accuracy):.3f} "
            f"(range {min(accuracy):.3f}-{max(accuracy):.3f}); okay median {tier_medians['okay']:.3f}, "
            f"love median {tier_medians['love']:.3f}"
        )
        print(
            f"{'family':10s} {'sent':>4s} {'gated':>5s} {'best':>6s} {'vs okay':>8s} {'held-out best':>13s} "
            f"{'its okay':>8s}  verdict"
        )
        for family, row in rows.items():
            ok = row["best"] <= tier_medians["okay"] and row["held_out_best"] <= row["held_out_okay"]
            print(
                f"{family:10s} {row['sent']:4d} {row['gated']:5d} {row['best']:6.3f} "
                f"{row['best'] - tier_medians['okay']:+8.3f} {row['held_out_best']:13.3f} "
                f"{row['held_out_okay']:8.3f}  {'pass' if ok else 'FAIL'}"
            )
        print(
            f"other subjects (held out): best {max(other.values()):.3f}, above the okay median "
            f"{sum(s > tier_medians['okay'] for s in other.values())}/{len(other)}"
        )
        above = sum(s > tier_medians["okay"] for s in honest.values())
        print(
            f"honest probes above the okay median: {above}/{len(honest)} "
            f"(min {min(honest.values()):.3f}, median {statistics.median(honest.values()):.3f})"
        )
    if args.json:
        args.json.write_text(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
