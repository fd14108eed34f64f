"""Bradley-Terry on a pool's tiers: the fit both embedded scorers share (`embedded`, `witness`).

Every pair of paintings of different tiers (love > okay > nope) is a comparison the winner
should win: P(a beats b) = sigmoid(w . (x_a - x_b)), fitted L2-regularised by Newton's method.
"""

from __future__ import annotations

import logging

import numpy as np

from watercolour_env.pool import Pool
from watercolour_env.terms import Tier

log = logging.getLogger(__name__)

TIER_RANK = {Tier.LOVE: 2, Tier.OKAY: 1, Tier.NOPE: 0}


def sigmoid(x: np.ndarray | float) -> np.ndarray | float:
    """1 / (1 + e^-x), elementwise."""
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
        p = sigmoid(diffs @ w)
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


WEAK_ACCURACY = 0.65
"""Held-out pairwise accuracy under which a weighted scorer is warned about: 0.5 is chance, an
8-painting pool's was 0.57 under the hand features, and subsamples of the starter pool reached a
median of 0.79 at 20 paintings and 0.81 at 30 (bench/pool_size.py, docs/LOG.md)."""


def warn_if_weak(name: str, accuracy: float | None, weight: float, pool: Pool) -> None:
    """Logs a warning (shown without -v) when a weighted scorer's reward is close to noise.

    That is when its held-out pairwise accuracy is under `WEAK_ACCURACY`, or cannot be measured on
    so few paintings (None). Nothing is said at weight 0.
    """
    if weight <= 0:
        return
    if accuracy is None:
        counts = ", ".join(f"{tier} {n}" for tier, n in pool.counts().items())
        log.warning(
            "%s scorer: %s is too few paintings to measure its held-out accuracy; its reward at "
            "weight %.2f may be noise; rate at least 20 paintings, 30 to be safe (docs/pool.md)",
            name,
            counts,
            weight,
        )
    elif accuracy < WEAK_ACCURACY:
        log.warning(
            "%s scorer: held-out pairwise accuracy %.2f on this pool (chance is 0.50): its reward at "
            "weight %.2f is close to noise; rate more paintings (30 to be safe, docs/pool.md), with tiers that differ",
            name,
            accuracy,
            weight,
        )


def stratified_folds(ranks: np.ndarray, folds: int, seed: int) -> np.ndarray:
    """[paintings] each painting's fold in [0, folds), dealt round-robin within each tier, shuffled."""
    rng = np.random.default_rng(seed)
    fold_of = np.empty(len(ranks), dtype=np.int64)
    for rank in np.unique(ranks):
        members = rng.permutation(np.nonzero(ranks == rank)[0])
        fold_of[members] = np.arange(len(members)) % folds
    return fold_of
