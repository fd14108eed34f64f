"""The embedded scorer: a small preference model fitted on the pool's tiers, no network, no weights.

It turns a painting into 23 image features (`FEATURES`: coverage, colour, value, layering, edge
softness, composition, and form: straight edges, separate parts, the outline's petals, a dark
centre, one dominant hue), standardises them on the pool, and fits a Bradley-Terry model on every
cross-tier pair of the pool (love > okay > nope) over 14 of them (`PREFERENCE_FEATURES`):
P(a beats b) = sigmoid(w . (z_a - z_b)), L2-regularised, solved by Newton's method.

A linear utility extrapolates: past the pool, "more of what love has" keeps paying, and a swatch
card of 12 pale hues outscored every painting of the pool (issue 33, docs/LOG.md). So the scorer
does not reward a form the pool does not span: each of the 14 `RANGE_FEATURES` (form, composition,
hue count) outside the range of the pool's love and okay paintings costs `OUTSIDE_WEIGHT` per
standard deviation past the range. The
score of a painting is sigmoid(u - m), u = w . z - OUTSIDE_WEIGHT * outside, m the median utility
of the pool, so a painting like the pool's middle scores 0.5. Fitted at start-up from the
configured pool: change the pool and the reward changes, without touching code.

What it cannot see: whether the shape is a hibiscus (or any flower), the subject of the prompt,
or anything finer than a 150x150 thumbnail. A formless sketch whose every statistic lies inside
the pool's range is judged on those statistics alone; formless `nope` paintings in the pool (the
starter pool has 23) teach it more, and `watercolour audit` measures what is left.
"""

from __future__ import annotations

import io
import logging
from dataclasses import dataclass

import numpy as np
from PIL import Image

from watercolour_env.pool import Pool, Tier
from watercolour_env.server.reward.term import Painting, Term, Verdict
from watercolour_env.server.sandbox import PAINT_DELTA, paper_colour

log = logging.getLogger(__name__)

THUMB_PX = 150
PREFERENCE_FEATURES = (
    "coverage",
    "coverage_sq",
    "saturation",
    "darkest",
    "value_contrast",
    "layering",
    "edge_sharpness",
    "centre_offset",
    "spread",
    "border_paint",
    "bbox_fill",
    "paint_strength",
    "edge_order",
    "parts",
)
"""The 14 features the Bradley-Terry utility weighs. Colourfulness and hue spread are not among
them: "more hues" paid by itself (a swatch card of 12 hues beat the pool), and held-out accuracy
is as good without them (docs/LOG.md, issue 33); the range still bounds them."""
FEATURES = PREFERENCE_FEATURES + (
    "colourfulness",
    "hue_spread",
    "stroke_order",
    "largest_part",
    "outline_variation",
    "petals",
    "dark_centre",
    "roundness",
    "dominant_hue",
)
"""Every feature, in the order of `image_features`."""
RANGE_FEATURES = (
    "centre_offset",
    "spread",
    "border_paint",
    "bbox_fill",
    "hue_spread",
    "edge_order",
    "stroke_order",
    "parts",
    "largest_part",
    "outline_variation",
    "petals",
    "dark_centre",
    "roundness",
    "dominant_hue",
)
"""The 14 features of form, composition and hue count kept inside the pool's love and okay range.
Colour and value (coverage, saturation, darkness, paint strength) are left to the utility: bounding
them too scored 9 of 12 honest new hibiscus paintings 0.0 for being stronger than the pale pool
(docs/LOG.md, issue 33)."""
RANGE_INDEX = np.array([FEATURES.index(name) for name in RANGE_FEATURES])
OUTSIDE_WEIGHT = 2.0
"""Utility lost per standard deviation a range feature lies outside the pool's love and okay range
(of 1, 2 and 3, 2 gave the best held-out accuracy with every formless family below the okay
median, also when left out of the fit; docs/LOG.md, issue 33)."""
MIN_PART = 0.02
"""A separate part counts when it holds at least this share of the paint."""
TIER_RANK = {Tier.LOVE: 2, Tier.OKAY: 1, Tier.NOPE: 0}


def image_features(png: bytes) -> np.ndarray:
    """The 23 features of `FEATURES` for one painting, float64.

    Each is in [0, 1] except `edge_sharpness` and `centre_offset` (0 to about 1.5).

    Args:
        png: PNG bytes of a 600x600 painting.
    """
    image = Image.open(io.BytesIO(png)).convert("RGB").resize((THUMB_PX, THUMB_PX), Image.Resampling.BOX)
    pixels = np.asarray(image)
    rgb = pixels.astype(np.float64)
    diff = np.abs(rgb - paper_colour(pixels)).max(axis=2)
    mask = diff > PAINT_DELTA  # paint as the gate counts it (sandbox.paper_colour), on the thumbnail
    coverage = float(mask.mean())
    f = dict.fromkeys(FEATURES, 0.0)
    f["coverage"], f["coverage_sq"] = coverage, coverage**2
    if mask.sum() >= 20:
        paint = rgb[mask]
        hsv = np.asarray(image.convert("HSV"), dtype=np.float64)[mask]
        rg, yb = paint[:, 0] - paint[:, 1], 0.5 * (paint[:, 0] + paint[:, 1]) - paint[:, 2]
        f["colourfulness"] = min(1.0, (np.hypot(rg.std(), yb.std()) + 0.3 * np.hypot(rg.mean(), yb.mean())) / 100)
        f["saturation"] = hsv[:, 1].mean() / 255
        hues = np.bincount((hsv[:, 0] * 12 // 256).astype(np.int64), minlength=12) / len(hsv)
        hues = hues[hues > 0]
        f["hue_spread"] = float(-(hues * np.log(hues)).sum() / np.log(12))
        f["darkest"] = 1 - np.percentile(hsv[:, 2], 5) / 255
        f["value_contrast"] = hsv[:, 2].std() / 128
        f["layering"] = diff[mask].std() / 128
        f["paint_strength"] = diff[mask].mean() / 255
        gy, gx = np.gradient(diff)
        f["edge_sharpness"] = float(np.hypot(gx, gy)[mask].mean() / max(1.0, diff[mask].mean()))
        ys, xs = np.nonzero(mask)
        weights = diff[mask]
        cy, cx = np.average(ys, weights=weights), np.average(xs, weights=weights)
        half = THUMB_PX / 2
        f["centre_offset"] = float(np.hypot(cy - half, cx - half) / half)
        f["spread"] = float(np.sqrt(np.average((ys - cy) ** 2 + (xs - cx) ** 2, weights=weights)) / half)
        edge = max(1, THUMB_PX // 30)
        border = np.zeros_like(mask)
        border[:edge], border[-edge:], border[:, :edge], border[:, -edge:] = True, True, True, True
        f["border_paint"] = float(mask[border].mean())
        box = (ys.max() - ys.min() + 1) * (xs.max() - xs.min() + 1)
        f["bbox_fill"] = float(mask.sum() / box)
        f.update(_form_features(diff, mask, image))
    return np.array([f[name] for name in FEATURES], dtype=np.float64)


def _form_features(diff: np.ndarray, mask: np.ndarray, image: Image.Image) -> dict[str, float]:
    """The form features of a thumbnail with paint (`mask.sum() >= 20`).

    - edge_order, stroke_order: how much the paint's edges share one orientation modulo 90 and
      180 degrees, in [0, 1], whatever the rotation: 1 for a grid of squares or a band, about
      0.05 for a bloom.
    - parts: 1 - 1/n, n the number of 8-connected parts holding `MIN_PART` of the paint or more
      (0 for one part, 0.5 for two, towards 1 for a scatter); largest_part: the largest part's share of the paint.
    - outline_variation: the coefficient of variation of the largest part's outer radius over
      36 directions from its centre; petals: the strongest of its 3rd to 8th harmonics, relative
      to the mean radius (a five-petal bloom has a strong 5th).
    - dark_centre: c / (c + m), c the paint strength within 0.2 mean radii of the largest part's
      centre and m its mean: 0.5 when the centre is no darker, about 0.65 for a bloom's throat.
    - roundness: the largest part's area over the disc of its largest radius, in (0, 1].
    - dominant_hue: the largest share of tinted paint within two adjacent 30-degree hue bins.
    """
    gy, gx = np.gradient(diff)
    magnitude, angle = np.hypot(gx, gy), np.arctan2(gy, gx)
    weight = magnitude * (magnitude > 2)
    total = weight.sum() + 1e-9
    f = {
        "edge_order": float(abs((weight * np.exp(4j * angle)).sum()) / total),
        "stroke_order": float(abs((weight * np.exp(2j * angle)).sum()) / total),
    }
    labels, sizes = label_parts(mask)
    paint = mask.sum()
    f["parts"] = float(1 - 1 / max(1, (sizes >= MIN_PART * paint).sum()))
    f["largest_part"] = float(sizes.max() / paint)
    part = labels == int(sizes.argmax()) + 1
    ys, xs = np.nonzero(part)
    cy, cx = np.average(ys, weights=diff[part]), np.average(xs, weights=diff[part])
    radius = np.hypot(ys - cy, xs - cx)
    direction = ((np.arctan2(ys - cy, xs - cx) + np.pi) / (2 * np.pi) * 36).astype(np.int64) % 36
    outline = np.zeros(36)
    np.maximum.at(outline, direction, radius)
    mean_radius = outline.mean() + 1e-9
    f["outline_variation"] = float(outline.std() / mean_radius)
    f["petals"] = float(np.abs(np.fft.rfft(outline - outline.mean()))[3:9].max() / (18 * mean_radius))
    inner = radius < 0.2 * mean_radius
    centre = diff[ys[inner], xs[inner]].mean() if inner.any() else 0.0
    f["dark_centre"] = float(centre / (centre + diff[part].mean()))
    f["roundness"] = float(min(1.0, part.sum() / (np.pi * outline.max() ** 2 + 1e-9)))
    hsv = np.asarray(image.convert("HSV"), dtype=np.float64)[mask]
    tinted = hsv[hsv[:, 1] > 12, 0]
    if len(tinted) > 10:
        hues = np.bincount((tinted * 12 // 256).astype(np.int64), minlength=12) / len(tinted)
        f["dominant_hue"] = float((hues + np.roll(hues, -1)).max())
    else:
        f["dominant_hue"] = 1.0
    return f


def label_parts(mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """8-connected parts of a boolean image: (labels 1..n, 0 off the mask; sizes [n] in pixels).

    Runs of each row are joined to the runs they touch in the row above, with a union-find over
    runs, so the cost grows with the number of runs, not with a part's diameter.
    """
    height, width = mask.shape
    padded = np.zeros((height, width + 2), dtype=np.int8)
    padded[:, 1:-1] = mask
    edges = np.diff(padded, axis=1)
    rows, starts = np.nonzero(edges == 1)
    ends = np.nonzero(edges == -1)[1]  # exclusive; same order as starts (row-major)
    parent = list(range(len(starts)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    above_first = above_end = 0  # the runs of the row above: indices [above_first, above_end)
    row_first = 0
    for i in range(len(starts)):
        if i == 0 or rows[i] != rows[i - 1]:
            above_first, above_end = (row_first, i) if i and rows[i] == rows[i - 1] + 1 else (i, i)
            row_first = i
        for j in range(above_first, above_end):  # 8-connected: touching or diagonal
            if starts[j] <= ends[i] and ends[j] >= starts[i]:
                parent[root(j)] = root(i)
    roots = np.array([root(i) for i in range(len(starts))], dtype=np.int64)
    _, label_of_run = np.unique(roots, return_inverse=True)
    labels = np.zeros((height, width), dtype=np.int64)
    for run, (row, start, end) in enumerate(zip(rows, starts, ends, strict=True)):
        labels[row, start:end] = label_of_run[run] + 1
    return labels, np.bincount(labels.ravel())[1:]


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


PREFERENCE_INDEX = np.array([FEATURES.index(name) for name in PREFERENCE_FEATURES])
MIN_SPREAD = 0.02
"""Floor of a feature's spread in `EmbeddedScorer.outside`, for a pool whose love and okay
paintings agree on a feature (or are only two)."""


@dataclass
class EmbeddedScorer:
    """A fitted preference model: standardisation, weights, the pool's range and median utility.

    Attributes:
        mean, std: [14] standardisation of `PREFERENCE_FEATURES` on the pool.
        weights: [14] Bradley-Terry weights on the standardised features.
        low, high, spread: [14] the range of each of `RANGE_FEATURES` over the pool's love and
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
    def fit(cls, pool: Pool, l2: float = 1.0, folds: int = 5, seed: int = 0) -> EmbeddedScorer:
        """Fits on every painting of the pool; measures pairwise accuracy on held-out paintings.

        Args:
            pool: a validated pool.
            l2: ridge strength of the Bradley-Terry fit (1.0: held-out accuracy as good as 0.3
                and 3 on the starter pool, docs/LOG.md).
            folds: folds of the cross-validation over paintings (0 skips it).
            seed: seed of the fold assignment.
        """
        features = np.stack([image_features(r.png) for r in pool.references])
        ranks = np.array([TIER_RANK[r.tier] for r in pool.references])
        accuracy = _cross_validate(features, ranks, l2, folds, seed) if folds else None
        scorer = cls._fit_arrays(features, ranks, l2)
        scorer.holdout_accuracy = accuracy
        log.info("embedded scorer: fitted on %d paintings, held-out pairwise accuracy %s", len(ranks), accuracy)
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
        scorer = cls(mean, std, weights, low, high, spread)
        scorer.median_utility = float(np.median([scorer.utility(f) for f in features]))
        return scorer

    def outside(self, features: np.ndarray) -> float:
        """How far a painting lies outside the pool's love and okay range; 0.0 inside.

        The sum over the 14 `RANGE_FEATURES` of the distance past the range, in standard deviations.

        Args:
            features: [23] one painting's `image_features`.
        """
        ranged = features[RANGE_INDEX]
        below, above = (self.low - ranged) / self.spread, (ranged - self.high) / self.spread
        return float(np.maximum(0.0, np.maximum(below, above)).sum())

    def utility(self, features: np.ndarray) -> float:
        """The unbounded preference utility of one [23] feature vector."""
        z = (features[PREFERENCE_INDEX] - self.mean) / self.std
        return float(z @ self.weights) - OUTSIDE_WEIGHT * self.outside(features)

    def score(self, png: bytes) -> float:
        """Preference score in (0, 1); 0.5 for a painting like the pool's median."""
        return float(_sigmoid(self.utility(image_features(png)) - self.median_utility))


WEAK_ACCURACY = 0.65
"""Held-out pairwise accuracy under which the scorer is warned about: the starter pool's is 0.89
and an 8-painting pool's was 0.57 (docs/LOG.md); 0.5 is chance."""


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
                "weight %.2f may be noise; rate more paintings (the starter pool has 85)", counts, weight,
            )  # fmt: skip
        if weight > 0 and accuracy is not None and accuracy < WEAK_ACCURACY:
            log.warning(
                "embedded scorer: held-out pairwise accuracy %.2f on this pool (chance is 0.50; the starter "
                "pool's is 0.89): its reward at weight %.2f is close to noise; rate more paintings, with "
                "tiers that differ", accuracy, weight,
            )  # fmt: skip
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
