"""The embedded scorer: a small preference model fitted on the pool's tiers, no network, no weights.

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
of the pool, so a painting like the pool's middle scores 0.5. Fitted at start-up from the
configured pool: change the pool and the reward changes, without touching code.

What it cannot see: whether the shape is a hibiscus (or any flower), the subject of the prompt,
or anything finer than a 150x150 thumbnail. A formless sketch whose every statistic lies inside
the pool's range is judged on those statistics alone; formless `nope` paintings in the pool (the
starter pool has 23) teach it more, and `watercolour audit` measures what is left.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

import numpy as np

from watercolour_env.pool import Pool, Tier
from watercolour_env.server.reward.features import (
    FEATURES,
    PREFERENCE_FEATURES,
    RANGE_FEATURES,
    image_features,
)
from watercolour_env.server.reward.term import Painting, Term, Verdict

log = logging.getLogger(__name__)

TIER_RANK = {Tier.LOVE: 2, Tier.OKAY: 1, Tier.NOPE: 0}
OUTSIDE_WEIGHT = 2.0
"""Utility lost per standard deviation a range feature lies outside the pool's love and okay range
(of 1, 2 and 3, 2 gave the best held-out accuracy with every formless family below the okay
median, also when left out of the fit; docs/LOG.md, issue 33)."""
TEETH_SCALE = 6.0
"""How many times `OUTSIDE_WEIGHT` a painting loses per standard deviation of `teeth` past the
pool's range. At 1 four of six starbursts stayed above the okay median; at 3 one (0.946); at 6
none (best 0.309), with the honest hibiscus probes unchanged (8 of 12 above the okay median) and
held-out accuracy 0.847 against 0.870 (docs/LOG.md, 2026-12-04 third session)."""


def _sigmoid(x: np.ndarray | float) -> np.ndarray | float:
    return 1.0 / (1.0 + np.exp(-x))


def fit_bradley_terry(
    diffs: np.ndarray, l2: float = 1.0, steps: int = 50, pair_weights: np.ndarray | None = None
) -> np.ndarray:
    """Weights w maximising sum_i c_i log sigmoid(w . d_i) - l2 / 2 |w|^2 over rows d_i of `diffs`.

    Args:
        diffs: [pairs, features] standardised feature differences, winner minus loser.
        l2: ridge strength.
        steps: Newton iterations (the problem is small and strictly convex).
        pair_weights: [pairs] c_i, each pair's weight; 1 for every pair when None.
    """
    w = np.zeros(diffs.shape[1])
    c = np.ones(len(diffs)) if pair_weights is None else pair_weights
    for _ in range(steps):
        p = _sigmoid(diffs @ w)
        gradient = diffs.T @ (c * (1 - p)) - l2 * w
        hessian = -(diffs.T * (c * p * (1 - p))) @ diffs - l2 * np.eye(len(w))
        step = np.linalg.solve(hessian, gradient)
        w -= step
        if np.abs(step).max() < 1e-8:
            break
    return w


def balanced(ranks: np.ndarray, pairs: np.ndarray) -> np.ndarray:
    """[pairs] weights under which each kind of pair weighs the same in all, mean weight 1.

    The kinds are love-okay, okay-nope and love-nope, whatever the tiers' sizes: many `nope`
    paintings do not drown the difference between `love` and `okay` (docs/LOG.md, issue 33).
    """
    kinds = ranks[pairs[:, 0]] * 3 + ranks[pairs[:, 1]]
    counts = np.bincount(kinds, minlength=9)
    weights = 1.0 / counts[kinds]
    return weights * len(pairs) / weights.sum()


def tier_pairs(ranks: np.ndarray) -> np.ndarray:
    """Indices [pairs, 2] (winner, loser) of every pair of different tiers."""
    winners, losers = np.nonzero(ranks[:, None] > ranks[None, :])
    return np.stack([winners, losers], axis=1)


RANGE_INDEX = np.array([FEATURES.index(name) for name in RANGE_FEATURES])
PREFERENCE_INDEX = np.array([FEATURES.index(name) for name in PREFERENCE_FEATURES])
UPPER_ONLY = np.array([RANGE_FEATURES.index("teeth")])
"""Positions in `RANGE_FEATURES` bounded from above only: a profile with fewer rays than the pool's
is a smooth bloom, not a fault."""
RANGE_SCALE = np.array([TEETH_SCALE if name == "teeth" else 1.0 for name in RANGE_FEATURES])
"""Each range feature's multiple of `OUTSIDE_WEIGHT`: 1, and `TEETH_SCALE` for `teeth`."""
MIN_SPREAD = 0.02
"""Floor of a feature's spread in `EmbeddedScorer.outside`, for a pool whose love and okay
paintings agree on a feature (or are only two)."""


@dataclass
class EmbeddedScorer:
    """A fitted preference model: standardisation, weights, the pool's range and median utility.

    Attributes:
        mean, std: [17] standardisation of `PREFERENCE_FEATURES` on the pool.
        weights: [17] Bradley-Terry weights on the standardised features.
        low, high, spread: [12] the range of each of `RANGE_FEATURES` over the pool's love and
            okay paintings, and their standard deviation (at least `MIN_SPREAD`).
        median_utility: the median utility of the pool's paintings.
        holdout_accuracy: pairwise accuracy on held-out paintings, None when not measured.

    Example:
        >>> scorer = EmbeddedScorer.fit(Pool.load(str(STARTER_POOL)))  # doctest: +SKIP
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
    def fit(cls, pool: Pool, l2: float = 3.0, folds: int = 5, seed: int = 0) -> EmbeddedScorer:
        """Fits on every painting of the pool; measures pairwise accuracy on held-out paintings.

        Args:
            pool: a validated pool.
            l2: ridge strength of the Bradley-Terry fit (3.0: of 1, 3 and 5, the one that kept
                formless sketches and other subjects under the okay median and 8 of 12 honest
                new paintings over it, docs/LOG.md).
            folds: folds of the cross-validation over paintings (0 skips it).
            seed: seed of the fold assignment.
        """
        features = np.stack([image_features(r.png) for r in pool.references])
        ranks = np.array([TIER_RANK[r.tier] for r in pool.references])
        accuracy = _cross_validate(features, ranks, l2, folds, seed) if folds else None
        scorer = cls._fit_arrays(features, ranks, l2)
        scorer.holdout_accuracy = accuracy
        measured = "not measured" if accuracy is None else f"{accuracy:.3f}"
        log.info(
            "embedded scorer on %s: fitted on %d paintings, held-out pairwise accuracy %s",
            pool.source or "a pool",
            len(ranks),
            measured,
        )
        return scorer

    @classmethod
    def _fit_arrays(cls, features: np.ndarray, ranks: np.ndarray, l2: float) -> EmbeddedScorer:
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
        return float(_sigmoid(self.utility(image_features(png)) - self.median_utility))


WEAK_ACCURACY = 0.65
"""Held-out pairwise accuracy under which the scorer is warned about: the starter pool's is 0.85
and an 8-painting pool's was 0.57 (docs/LOG.md); 0.5 is chance. Subsamples of the starter pool
reach a median of 0.79 at 20 paintings and 0.81 at 30 (bench/pool_size.py, docs/LOG.md)."""


class EmbeddedTerm(Term):
    """The embedded scorer as a reward term: the default's 0.90, fitted on the deployment's pool.

    Args:
        scorer: the fitted scorer.
    """

    name = "embedded"
    default_weight = 0.90
    needs = "a fitted embedded scorer"

    def __init__(self, scorer: EmbeddedScorer) -> None:
        self.scorer = scorer

    @classmethod
    def build(cls, options: object, pool: Pool, weight: float) -> EmbeddedTerm:
        """Fits on the pool (0.6 s), even at weight 0, so that an episode may ask for it.

        A weighted scorer whose held-out pairwise accuracy is under `WEAK_ACCURACY`, or cannot be
        measured on so few paintings, is logged as a warning (shown without -v): its reward is
        close to noise.
        """
        scorer = EmbeddedScorer.fit(pool)
        accuracy = scorer.holdout_accuracy
        if weight > 0 and accuracy is None:
            counts = ", ".join(f"{tier} {n}" for tier, n in pool.counts().items())
            log.warning(
                "embedded scorer: %s is too few paintings to measure its held-out accuracy; its reward at "
                "weight %.2f may be noise; rate at least 20 paintings, 30 to be safe (docs/pool.md)",
                counts,
                weight,
            )
        if weight > 0 and accuracy is not None and accuracy < WEAK_ACCURACY:
            log.warning(
                "embedded scorer: held-out pairwise accuracy %.2f on this pool (chance is 0.50; the starter "
                "pool's is 0.85): its reward at weight %.2f is close to noise; rate more paintings (30 to be "
                "safe, docs/pool.md), with tiers that differ",
                accuracy,
                weight,
            )
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
    rng = np.random.default_rng(seed)
    fold_of = np.empty(len(ranks), dtype=np.int64)
    for rank in np.unique(ranks):
        members = rng.permutation(np.nonzero(ranks == rank)[0])
        fold_of[members] = np.arange(len(members)) % folds
    correct = total = 0
    for k in range(folds):
        train, test = fold_of != k, fold_of == k
        pairs = tier_pairs(ranks[test])
        if len(np.unique(ranks[train])) < 2 or len(pairs) == 0:
            continue
        model = EmbeddedScorer._fit_arrays(features[train], ranks[train], l2)
        utilities = np.array([model.utility(f) for f in features[test]])
        correct += int((utilities[pairs[:, 0]] > utilities[pairs[:, 1]]).sum())
        total += len(pairs)
    return correct / total if total else None
