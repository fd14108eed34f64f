"""The witness: the embedded scorer of issues 33-53, on 24 hand-made picture statistics, at weight 0.

Before issue 54 this was the embedded scorer. It stays as a reported term (`witness`, weight 0,
in every observation), so a run shows two independent views of its paintings beside the gold:
the learned scorer that pays (`embedded`) and this one, which sees only statistics.

It turns a painting into 24 image features (`FEATURES`: coverage, colour, value, layering, edge
softness, composition, and form: straight edges, separate parts, the outline's petals, a dark
centre, one dominant hue, rays rather than petals), standardises them on the pool, and fits a
Bradley-Terry model on every cross-tier pair of the pool (love > okay > nope) over 17 of them
(`PREFERENCE_FEATURES`): P(a beats b) = sigmoid(w . (z_a - z_b)), L2-regularised, solved by Newton's method.

A linear utility extrapolates: past the pool, "more of what love has" keeps paying, and a swatch
card of 12 pale hues outscored every painting of the pool (issue 33, docs/LOG.md). So the scorer
does not reward a form the pool does not span: each of the 12 `RANGE_FEATURES` (form, composition,
hue count) outside the range of the pool's love and okay paintings costs `OUTSIDE_WEIGHT` per
standard deviation past the range (`TEETH_SCALE` times that for `teeth`, rays). The
score of a painting is sigmoid(u - m), u = w . z - OUTSIDE_WEIGHT * outside, m the median utility
of the pool, so a painting like the pool's middle scores 0.5.

What it cannot see: the subject, or anything finer than a 150x150 thumbnail (issue 54 measured
its limits: docs/LOG.md). It is fitted on the whole pool, every subject together.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

import numpy as np

from watercolour_env.pool import Pool, Tier
from watercolour_env.server import derived
from watercolour_env.server.reward.features import (
    FEATURES,
    PREFERENCE_FEATURES,
    RANGE_FEATURES,
    image_features,
)
from watercolour_env.server.reward.preference import (
    TIER_RANK,
    balanced,
    fit_bradley_terry,
    sigmoid,
    stratified_folds,
    tier_pairs,
    warn_if_weak,
)
from watercolour_env.server.reward.term import Painting, Term, Verdict

log = logging.getLogger(__name__)

OUTSIDE_WEIGHT = 2.0
"""Utility lost per standard deviation a range feature lies outside the pool's love and okay range
(of 1, 2 and 3, 2 gave the best held-out accuracy with every formless family below the okay
median, also when left out of the fit; docs/LOG.md, issue 33)."""
TEETH_SCALE = 6.0
"""How many times `OUTSIDE_WEIGHT` a painting loses per standard deviation of `teeth` past the
pool's range. At 1 four of six starbursts stayed above the okay median; at 3 one (0.946); at 6
none (best 0.309), with the honest hibiscus probes unchanged (8 of 12 above the okay median) and
held-out accuracy 0.847 against 0.870 (docs/LOG.md, 2026-12-04 third session)."""


RANGE_INDEX = np.array([FEATURES.index(name) for name in RANGE_FEATURES])
PREFERENCE_INDEX = np.array([FEATURES.index(name) for name in PREFERENCE_FEATURES])
UPPER_ONLY = np.array([RANGE_FEATURES.index("teeth")])
"""Positions in `RANGE_FEATURES` bounded from above only: a profile with fewer rays than the pool's
is a smooth bloom, not a fault."""
RANGE_SCALE = np.array([TEETH_SCALE if name == "teeth" else 1.0 for name in RANGE_FEATURES])
"""Each range feature's multiple of `OUTSIDE_WEIGHT`: 1, and `TEETH_SCALE` for `teeth`."""
MIN_SPREAD = 0.02
"""Floor of a feature's spread in `HandScorer.outside`, for a pool whose love and okay
paintings agree on a feature (or are only two)."""


def _image_features(pngs: list[bytes]) -> list[np.ndarray]:
    return [image_features(png) for png in pngs]


@dataclass
class HandScorer:
    """A fitted preference model: standardisation, weights, the pool's range and median utility.

    Attributes:
        mean, std: [17] standardisation of `PREFERENCE_FEATURES` on the pool.
        weights: [17] Bradley-Terry weights on the standardised features.
        low, high, spread: [12] the range of each of `RANGE_FEATURES` over the pool's love and
            okay paintings, and their standard deviation (at least `MIN_SPREAD`).
        median_utility: the median utility of the pool's paintings.
        holdout_accuracy: pairwise accuracy on held-out paintings, None when not measured.

    Example:
        >>> scorer = HandScorer.fit(Pool.load(str(STARTER_POOL)))  # doctest: +SKIP
        >>> 0.0 <= scorer.score(png) <= 1.0  # doctest: +SKIP
        True
    """

    mean: np.ndarray
    std: np.ndarray
    weights: np.ndarray
    low: np.ndarray
    high: np.ndarray
    spread: np.ndarray
    median_utility: float = 0.0
    holdout_accuracy: float | None = None

    @classmethod
    def fit(cls, pool: Pool, l2: float = 3.0, folds: int = 5, seed: int = 0) -> HandScorer:
        """Fits on every painting of the pool; measures pairwise accuracy on held-out paintings.

        Args:
            pool: a validated pool.
            l2: ridge strength of the Bradley-Terry fit (3.0: of 1, 3 and 5, the one that kept
                formless sketches and other subjects under the okay median and 8 of 12 honest
                new paintings over it, docs/LOG.md).
            folds: folds of the cross-validation over paintings (0 skips it).
            seed: seed of the fold assignment.
        """
        features = np.stack(derived.rows("hand-features", [r.png for r in pool.references], _image_features))
        ranks = np.array([TIER_RANK[r.tier] for r in pool.references])
        accuracy = _cross_validate(features, ranks, l2, folds, seed) if folds else None
        scorer = cls._fit_arrays(features, ranks, l2)
        scorer.holdout_accuracy = accuracy
        measured = "not measured" if accuracy is None else f"{accuracy:.3f}"
        log.info(
            "witness scorer on %s: fitted on %d paintings, held-out pairwise accuracy %s",
            pool.source or "a pool",
            len(ranks),
            measured,
        )
        return scorer

    @classmethod
    def _fit_arrays(cls, features: np.ndarray, ranks: np.ndarray, l2: float) -> HandScorer:
        preference = features[:, PREFERENCE_INDEX]
        mean, std = preference.mean(axis=0), preference.std(axis=0) + 1e-6
        z = (preference - mean) / std
        pairs = tier_pairs(ranks)
        weights = fit_bradley_terry(z[pairs[:, 0]] - z[pairs[:, 1]], l2, pair_weights=balanced(ranks, pairs))
        liked = features[ranks >= TIER_RANK[Tier.OKAY]][:, RANGE_INDEX]
        if len(liked) == 0:  # a fold without love or okay: nothing bounds the range
            liked = features[:, RANGE_INDEX]
        low, high, spread = liked.min(axis=0), liked.max(axis=0), np.maximum(liked.std(axis=0), MIN_SPREAD)
        low[UPPER_ONLY] = -np.inf
        scorer = cls(mean, std, weights, low, high, spread)
        scorer.median_utility = float(np.median([scorer.utility(f) for f in features]))
        return scorer

    def outside(self, features: np.ndarray) -> float:
        """How far a painting lies outside the pool's love and okay range; 0.0 inside.

        The sum over the 12 `RANGE_FEATURES` of the distance past the range, in standard deviations,
        each times its `RANGE_SCALE`.

        Args:
            features: [24] one painting's `image_features`.
        """
        ranged = features[RANGE_INDEX]
        below, above = (self.low - ranged) / self.spread, (ranged - self.high) / self.spread
        return float((np.maximum(0.0, np.maximum(below, above)) * RANGE_SCALE).sum())

    def utility(self, features: np.ndarray) -> float:
        """The unbounded preference utility of one [24] feature vector."""
        z = (features[PREFERENCE_INDEX] - self.mean) / self.std
        return float(z @ self.weights) - OUTSIDE_WEIGHT * self.outside(features)

    def score(self, png: bytes) -> float:
        """Preference score in (0, 1); 0.5 for a painting like the pool's median."""
        return float(sigmoid(self.utility(image_features(png)) - self.median_utility))


class WitnessTerm(Term):
    """The hand-feature scorer as a reported term: weight 0, in every observation, fitted on the pool.

    Args:
        scorer: the fitted scorer.
    """

    name = "witness"
    default_weight = 0.0
    needs = "nothing"
    always_scored = True

    def __init__(self, scorer: HandScorer) -> None:
        self.scorer = scorer

    @classmethod
    def build(cls, options: object, pool: Pool, weight: float) -> WitnessTerm:
        """Fits on the pool (0.6 s); a weighted one whose held-out accuracy is weak is warned about."""
        scorer = HandScorer.fit(pool)
        warn_if_weak("witness", scorer.holdout_accuracy, weight, pool)
        return cls(scorer)

    def score(self, painting: Painting) -> Verdict:
        """The scorer's value; no detail."""
        return Verdict(self.scorer.score(painting.png))


def _cross_validate(features: np.ndarray, ranks: np.ndarray, l2: float, folds: int, seed: int) -> float | None:
    """Pairwise accuracy on cross-tier pairs of held-out paintings, folds stratified by tier.

    A fold whose training paintings are all of one tier (or none) has nothing to learn from and
    is left out. None when no fold is left with a cross-tier pair to test: a pool of one or
    two paintings per tier is too small to measure.
    """
    fold_of = stratified_folds(ranks, folds, seed)
    correct = total = 0
    for k in range(folds):
        train, test = fold_of != k, fold_of == k
        pairs = tier_pairs(ranks[test])
        if len(np.unique(ranks[train])) < 2 or len(pairs) == 0:
            continue
        model = HandScorer._fit_arrays(features[train], ranks[train], l2)
        utilities = np.array([model.utility(f) for f in features[test]])
        correct += int((utilities[pairs[:, 0]] > utilities[pairs[:, 1]]).sum())
        total += len(pairs)
    return correct / total if total else None
