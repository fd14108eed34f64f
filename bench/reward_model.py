"""Reward model benchmark: the learned embedded scorer against the witness (hand features), same pool, same probes.

    watercolour bench reward_model [--pool FOLDER] [--seeds 3] [--per-family 6] [--no-probes]

1. Held-out pairwise accuracy, 5 folds stratified by subject and tier, `--seeds` fold seeds:
   over every pair of different rank under each subject (another subject's painting ranks as
   `nope` for it), and love against okay within each subject. Both scorers are refitted on each
   fold's training paintings; the witness (issues 33-53's scorer) sees no subject.
2. Probes in no pool, rendered here (seed 0) and asked for the default subject: the audit's
   formless draws, its paintings of other subjects, the red team's sketches that beat the reward
   before (tests/fixtures/sketches/reward-attacks, copies left out: those are the copy guard's),
   the audit's radial non-flowers,
   and the audit's honest new paintings of the default subject. Per group, how many score above
   the default subject's okay median (each scorer against its own) and the best.
   2b. Each formless and radial family held out of the fit (the pool's paintings of it left out,
   the okay median taken again): its best score against the okay median.
3. Seconds to fit on the whole pool, and milliseconds per scored painting (features included).

Issue 54's targets: accuracy >= 0.92 overall and >= 0.85 love against okay.
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

import numpy as np

from watercolour_env.audit.probes import honest_sketches, other_subject_sketches, radial_sketches
from watercolour_env.families import family_sketches
from watercolour_env.pool import STARTER_POOL, Pool, Tier
from watercolour_env.server.reward.embedded import EmbeddedScorer
from watercolour_env.server.reward.preference import TIER_RANK, stratified_folds, tier_pairs
from watercolour_env.server.reward.vision.encoder import ImageEncoder
from watercolour_env.server.reward.witness import HandScorer, image_features

REPO = Path(__file__).resolve().parents[1]
ATTACKS = REPO / "tests" / "fixtures" / "sketches" / "reward-attacks"
COPIES = ("a02_", "a03_", "a04_", "a09_", "a19_", "a20_")
"""Red-team sketches that are copies of pool paintings re-coded: the copy guard's findings, not the scorer's."""
L2_WITNESS = 3.0  # HandScorer.fit's default


def accuracy(pool: Pool, encoder: ImageEncoder, seeds: int) -> dict[str, list[float]]:
    """Per scorer and measure, one value per fold seed (see the module docstring)."""
    refs = pool.references
    learned = encoder.features([r.png for r in refs])
    hand = np.stack([image_features(r.png) for r in refs])
    subjects = [r.subject for r in refs]
    ranks = np.array([TIER_RANK[r.tier] for r in refs])
    names = sorted(set(subjects))
    strata = np.array([names.index(s) * 3 for s in subjects]) + ranks
    out: dict[str, list[float]] = {}
    for seed in range(seeds):
        fold_of = stratified_folds(strata, 5, seed)
        counts: dict[str, np.ndarray] = {}
        for k in range(5):
            train, test = np.nonzero(fold_of != k)[0], np.nonzero(fold_of == k)[0]
            model = EmbeddedScorer(encoder, learned[train], [subjects[i] for i in train], ranks[train], pool.subject)
            witness = HandScorer._fit_arrays(hand[train], ranks[train], L2_WITNESS)
            for subject in model.models:
                own = np.array([subjects[i] == subject for i in test])
                here = np.where(own, ranks[test], 0)
                pairs = tier_pairs(here)
                love_okay = (here[pairs[:, 0]] == 2) & (here[pairs[:, 1]] == 1) & own[pairs[:, 1]]
                paid = {
                    "embedded": np.array([model.judge_features(learned[i], subject).score for i in test]),
                    "witness": np.array([witness.utility(hand[i]) for i in test]),
                }
                for scorer, value in paid.items():
                    won = (value[pairs[:, 0]] > value[pairs[:, 1]]) + 0.5 * (value[pairs[:, 0]] == value[pairs[:, 1]])
                    measures = (("all pairs", slice(None)), ("love-okay, every subject", love_okay))
                    for measure, keep in (*measures, (f"love-okay, {subject}", love_okay)):
                        c = counts.setdefault(f"{scorer}|{measure}", np.zeros(2))
                        c += [won[keep].sum(), len(won[keep])]
        for key, (won, n) in counts.items():
            out.setdefault(key, []).append(won / n if n else float("nan"))
    return out


def probes(per_family: int, subject: str) -> dict[str, dict[str, str]]:
    """Group -> name -> source of the probes (see the module docstring)."""
    words = subject.split()[-1]
    honest = honest_sketches("")
    attacks = {p.stem: p.read_text() for p in sorted(ATTACKS.glob("*.js")) if not p.name.startswith(COPIES)}
    return {
        "formless (audit draws)": family_sketches(per_family),
        "other subjects (audit)": {n: s for n, s in (honest | other_subject_sketches()).items() if words not in n},
        "red team, no copies": attacks,
        "radial non-flowers (audit)": radial_sketches(),
        f"honest {words} (audit)": {n: s for n, s in honest.items() if n.startswith(words)},
    }


def held_out_families(
    pool: Pool, encoder: ImageEncoder, rendered: dict[str, dict[str, bytes]], subject: str
) -> list[tuple[str, float, int, float]]:
    """Per probe family (formless and radial): (family, best score held out, pool paintings left out, okay median).

    The scorer is refitted without the pool's paintings of the family (the starter's nope
    `formless-<family>-*`; the radial ones are in no pool) and its okay median taken again.
    """
    by_family: dict[str, list[bytes]] = {}
    for group in ("formless (audit draws)", "radial non-flowers (audit)"):
        for name, png in rendered.get(group, {}).items():
            by_family.setdefault(name.split("-")[0], []).append(png)
    out = []
    for family, pngs in by_family.items():
        kept = [r for r in pool.references if not r.id.startswith(f"formless-{family}-")]
        features = encoder.features([r.png for r in kept])
        ranks = np.array([TIER_RANK[r.tier] for r in kept])
        model = EmbeddedScorer(encoder, features, [r.subject for r in kept], ranks, pool.subject)
        part = model.model_for(subject).subject
        okay = statistics.median(
            model.judge_features(f, subject).score
            for f, r in zip(features, kept, strict=True)
            if r.subject == part and r.tier is Tier.OKAY
        )
        best = max(model.judge_features(f, subject).score for f in encoder.features(pngs))
        out.append((family, best, len(pool.references) - len(kept), okay))
    return out


def main() -> None:
    """Prints the tables; see the module docstring."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pool", default=str(STARTER_POOL), help="a pool folder or Hub dataset")
    parser.add_argument("--seeds", type=int, default=3, help="fold seeds of the cross-validation")
    parser.add_argument("--per-family", type=int, default=6, help="formless probes per family")
    parser.add_argument("--no-probes", action="store_true", help="skip rendering the probes")
    args = parser.parse_args()
    pool = Pool.load(args.pool)
    encoder = ImageEncoder()
    print(f"pool {pool.source}: {pool.counts()}, subjects {', '.join(sorted({r.subject for r in pool.references}))}")

    print("\n1. held-out pairwise accuracy (5 folds; median and range over fold seeds)")
    print(f"{'measure':40} {'witness':>20} {'embedded':>20}")
    got = accuracy(pool, encoder, args.seeds)
    for measure in dict.fromkeys(k.split("|", 1)[1] for k in got):
        cells = []
        for scorer in ("witness", "embedded"):
            values = got[f"{scorer}|{measure}"]
            cells.append(f"{statistics.median(values):.3f} ({min(values):.3f}-{max(values):.3f})")
        print(f"{measure:40} {cells[0]:>20} {cells[1]:>20}")

    started = time.perf_counter()
    embedded = EmbeddedScorer.fit(pool, encoder, folds=0)
    fit_s = time.perf_counter() - started
    started = time.perf_counter()
    witness = HandScorer.fit(pool, folds=0)
    witness_fit_s = time.perf_counter() - started
    subject = pool.subject
    mine = [r for r in pool.tier(Tier.OKAY) if r.subject == embedded.model_for(subject).subject]
    okay = {
        "witness": statistics.median(witness.score(r.png) for r in mine),
        "embedded": statistics.median(embedded.score(r.png, subject) for r in mine),
    }
    score = {"witness": witness.score, "embedded": lambda png: embedded.score(png, subject)}
    timings: dict[str, list[float]] = {"witness": [], "embedded": []}
    if not args.no_probes:
        from watercolour_env.server.sandbox import Renderer

        print(
            f"\n2. probes asked for {subject!r}: above the okay median (witness {okay['witness']:.3f}, "
            f"embedded {okay['embedded']:.3f}) / scored, and the best"
        )
        print(f"{'group':28} {'witness':>18} {'embedded':>18}")
        rendered: dict[str, dict[str, bytes]] = {}
        with Renderer(workers=2) as renderer:
            for group, sketches in probes(args.per_family, subject).items():
                results = {n: renderer.render(s, seed=0) for n, s in sketches.items()}
                rendered[group] = {n: r.png for n, r in results.items() if r.png}
                pngs = list(rendered[group].values())
                cells = []
                for name, fn in score.items():
                    values = []
                    for png in pngs:
                        started = time.perf_counter()
                        values.append(fn(png))
                        timings[name].append(1000 * (time.perf_counter() - started))
                    above = sum(v > okay[name] for v in values)
                    cells.append(f"{above}/{len(values)} best {max(values):.2f}")
                print(f"{group:28} {cells[0]:>18} {cells[1]:>18}")
        print(f"\n2b. each family held out of the fit, asked for {subject!r}: its best against the okay median")
        print(f"{'family':12} {'pool paintings left out':>24} {'best':>6} {'okay median':>12}  verdict")
        for family, best, left_out, okay_here in held_out_families(pool, encoder, rendered, subject):
            verdict = "below" if best < okay_here else "AT OR ABOVE"
            print(f"{family:12} {left_out:24d} {best:6.3f} {okay_here:12.3f}  {verdict}")
    print(f"\n3. fit on the whole pool: witness {witness_fit_s:.1f} s, embedded {fit_s:.1f} s (features included)")
    for name, ms in timings.items():
        if ms:
            print(f"   {name}: {statistics.median(ms):.1f} ms per scored painting ({min(ms):.1f}-{max(ms):.1f})")


if __name__ == "__main__":
    main()
