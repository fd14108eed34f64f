"""The embedded scorer: a small reward model on learned image features, fitted on the pool's tiers.

No network and no torch: each painting becomes EfficientNet-Lite0's 1280 ImageNet features
(`vision.encoder`, onnxruntime), which see form, texture and subject where the hand-made
statistics of issues 33-53 saw coverage and hue (those live on as the `witness` term). On the
pool's paintings they are centred, projected on their first `COMPONENTS` principal components and
whitened. Per subject of the pool, a Bradley-Terry model is fitted there on every cross-tier pair
(love > okay > nope, each kind of pair weighing the same: `preference.balanced`), with every
painting of another subject counted as `nope` for this one: a jellyfish is not a good hibiscus.

A linear utility extrapolates, so two guards stand between it and the reward (issue 54):

- Far from the pool: `distance`, the cosine distance from the painting to the nearest `love` or
  `okay` painting of the subject, is compared with `radius`, the `RADIUS_QUANTILE` quantile of such
  distances among those paintings themselves (each to its nearest other). Up to the radius the utility is paid as it
  is; from `FAR` radii on, anything above the subject's median (under its okay median) is cut to
  it; linear between.
- Off subject: among the `NEIGHBOURS` nearest `love` and `okay` paintings of any subject, the
  share of the asked subject's. Utility above the subject's `nope` median is paid in that share.
  A pool of one subject has no other to be near: its share is 1 and the first guard and the
  `nope` paintings of other subjects (the starter's `other-*`) do that work.

The score is sigmoid((u - m) / s), m the median utility of the subject's own paintings, so a
painting like the middle of its subject's pool scores 0.5, and s such that its love median scores
`LOVE_SCORE` (unscaled, Bradley-Terry's utilities put the okay median at 0.975: scores crowd
at 1). Fitted at start-up from the configured pool (about 2 s for 94 paintings, most of it the
encoder): change the pool and the reward changes.

What it cannot see: anything finer than 224 px, and what ImageNet never taught the network.
Measured in docs/LOG.md (issue 54): held-out accuracy, each radial or other family held out,
and the attacks tried against it.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from pydantic import BaseModel, ConfigDict, Field

from watercolour_env.pool import Pool, Tier
from watercolour_env.pool.subjects import SubjectCoverage
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
from watercolour_env.server.reward.vision.encoder import ImageEncoder, shared_encoder

log = logging.getLogger(__name__)

COMPONENTS = 20
"""Principal components the preference is fitted on (fewer when the pool has fewer paintings). Of
20, 30 and 40 on the three-subject starter, 20 paid none of 30 red-team and other-subject probes
above the okay median (40 paid one, 0.80) and held-out accuracy 0.984 / 0.904 love against okay
(40: 0.985 / 0.917; docs/LOG.md, issue 54)."""
L2 = 3.0
"""Ridge strength of each subject's Bradley-Terry fit, on whitened components."""
FAR = 2.0
"""Distance, in radii, from which a painting is paid at most its subject's median (0.5)."""
RADIUS_QUANTILE = 0.9
"""The quantile of the liked paintings' distances to their nearest other that makes the radius. The
largest (1.0) let one liked painting unlike the rest widen the span for all: with the hand-made
hibiscus-12 among the references, a pinwheel scored above the hibiscus okay median; at 0.9 none of
22 red-team sketches does and 20 of 33 renders of new honest hibiscus do; at 0.75, 11 of 33
(docs/LOG.md, issue 54, second session)."""
LOVE_SCORE = 0.9
"""The score of a painting at the utility of its subject's love median: sets the utility's scale."""
LOVE_LOGIT = float(np.log(LOVE_SCORE / (1 - LOVE_SCORE)))
MAX_LOGIT = 20.0
"""Scores stay inside (0, 1): within about 2e-9 of either end (a float sigmoid rounds past 37 to 1)."""
NEIGHBOURS = 5
"""Nearest `love` and `okay` paintings the subject share is read from."""


def unit_rows(features: np.ndarray) -> np.ndarray:
    """[n, d] rows scaled to length 1 (a row of zeros stays zeros)."""
    norms = np.linalg.norm(features, axis=1, keepdims=True)
    return features / np.maximum(norms, 1e-12)


@dataclass
class SubjectModel:
    """One subject's preference and the span of its liked paintings.

    Attributes:
        subject: the paintings' `subject`, as the pool writes it (e.g. "a hibiscus").
        weights: [components] Bradley-Terry weights on the whitened components.
        median: median utility of the subject's own paintings (it scores 0.5): the most a
            painting far from them is paid, under the okay median.
        scale: utility per unit of logit, so that the love median scores `LOVE_SCORE` (at least a
            tenth of the subject's range of utility: a pool whose love and okay paintings look
            alike would otherwise scale float noise to the whole unit interval).
        nope: median utility of its `nope` paintings (its lowest when it has none): the most an
            off-subject painting is paid.
        liked: indices of its `love` and `okay` paintings among the pool's.
        radius: the `RADIUS_QUANTILE` quantile of the cosine distances from each of those to its
            nearest other (at least 0.02).
    """

    subject: str
    weights: np.ndarray
    median: float = 0.0
    scale: float = 1.0
    nope: float = 0.0
    liked: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))
    radius: float = 0.0


@dataclass(frozen=True)
class Judgement:
    """How the scorer saw one painting: its score and the numbers behind it."""

    subject: str
    score: float
    utility: float
    distance: float
    radius: float
    share: float

    def detail(self) -> str:
        """One line for the observation: utility, distance in radii, subject share."""
        return (
            f"{self.subject}: utility {self.utility:.2f}, nearest liked at {self.distance / self.radius:.2f} "
            f"radii, subject share {self.share:.2f}"
        )


class EmbeddedScorer:
    """A fitted reward model: the projection, the pool's features, one `SubjectModel` per subject.

    Built by `fit`. `holdout_accuracy` is the pairwise accuracy on held-out paintings (None when not
    measured) and `love_okay_accuracy` that on pairs of a subject's love and okay paintings.

    Example:
        >>> scorer = EmbeddedScorer.fit(Pool.load(str(STARTER_POOL)))  # doctest: +SKIP
        >>> 0.0 <= scorer.score(png, "a peach hibiscus") <= 1.0  # doctest: +SKIP
        True
    """

    def __init__(
        self,
        encoder: ImageEncoder,
        features: np.ndarray,
        subjects: list[str],
        ranks: np.ndarray,
        default_subject: str,
        components: int = COMPONENTS,
        l2: float = L2,
    ) -> None:
        self.encoder = encoder
        self.mean = features.mean(axis=0)
        _, singular, vt = np.linalg.svd(features - self.mean, full_matrices=False)
        k = max(1, min(components, len(features) - 1))
        self.basis = vt[:k].T / np.maximum(singular[:k] / np.sqrt(len(features)), 1e-9)  # [1280, k], whitening
        self.unit = unit_rows(features)
        self.subjects = list(subjects)
        self.liked = ranks >= TIER_RANK[Tier.OKAY]
        z = self.project(features)
        self.models = {s: self._fit_subject(s, z, ranks, l2) for s in dict.fromkeys(subjects) if self._has_liked(s)}
        self.default_subject = self._match(default_subject) or next(iter(self.models))
        self.holdout_accuracy: float | None = None
        self.love_okay_accuracy: float | None = None

    def _has_liked(self, subject: str) -> bool:
        return any(s == subject and liked for s, liked in zip(self.subjects, self.liked, strict=True))

    def project(self, features: np.ndarray) -> np.ndarray:
        """[n, components] whitened principal components of [n, 1280] features."""
        return (features - self.mean) @ self.basis

    def _fit_subject(self, subject: str, z: np.ndarray, ranks: np.ndarray, l2: float) -> SubjectModel:
        own = np.array([s == subject for s in self.subjects])
        ranks_here = np.where(own, ranks, TIER_RANK[Tier.NOPE])
        pairs = tier_pairs(ranks_here)
        weights = fit_bradley_terry(z[pairs[:, 0]] - z[pairs[:, 1]], l2, pair_weights=balanced(ranks_here, pairs))
        utility = z @ weights
        liked = np.nonzero(own & self.liked)[0]
        nope = utility[own & (ranks == TIER_RANK[Tier.NOPE])]
        love = utility[own & (ranks == TIER_RANK[Tier.LOVE])]
        median = float(np.median(utility[own]))
        top = float(np.median(love)) if len(love) else float(utility[own].max())
        distances = 1.0 - self.unit[liked] @ self.unit[liked].T
        np.fill_diagonal(distances, np.inf)
        radius = float(np.quantile(distances.min(axis=1), RADIUS_QUANTILE)) if len(liked) > 1 else 0.0
        return SubjectModel(
            subject,
            weights,
            median=median,
            scale=max(top - median, 0.1 * float(np.ptp(utility[own])), 1e-3) / LOVE_LOGIT,
            nope=float(np.median(nope)) if len(nope) else float(utility[own].min()),
            liked=liked,
            radius=max(radius, 0.02),
        )

    def _match(self, subject: str) -> str | None:
        """The pool's subject an asked one is of (`SubjectCoverage.match` over the fitted subjects)."""
        return SubjectCoverage(self.models).match(subject)

    def model_for(self, subject: str | None) -> SubjectModel:
        """The model of an asked subject; the pool's default subject's for None or one it lacks.

        The server refuses a reset whose subject the pool does not cover (pool/subjects.py); a
        subject it covers only by `subjects.txt` is judged as the default subject.
        """
        return self.models[(subject and self._match(subject)) or self.default_subject]

    def judge_features(self, features: np.ndarray, subject: str | None = None) -> Judgement:
        """The judgement on one painting's [1280] features, for an asked subject."""
        model = self.model_for(subject)
        utility = float(self.project(features[None])[0] @ model.weights)
        unit = unit_rows(features[None])[0]
        distances = 1.0 - self.unit @ unit
        distance = float(distances[model.liked].min())
        trust = float(np.clip((FAR * model.radius - distance) / ((FAR - 1.0) * model.radius), 0.0, 1.0))
        if utility > model.median:
            utility = model.median + trust * (utility - model.median)
        liked = np.nonzero(self.liked)[0]
        nearest = liked[np.argsort(distances[liked], kind="stable")[:NEIGHBOURS]]
        share = float(np.mean([self.subjects[i] == model.subject for i in nearest]))
        if utility > model.nope:
            utility = model.nope + share * (utility - model.nope)
        score = float(sigmoid(np.clip((utility - model.median) / model.scale, -MAX_LOGIT, MAX_LOGIT)))
        return Judgement(model.subject, score, utility, distance, model.radius, share)

    def judge(self, png: bytes, subject: str | None = None) -> Judgement:
        """The judgement on one painting (a 600x600 PNG) for an asked subject."""
        return self.judge_features(self.encoder.feature(png), subject)

    def score(self, png: bytes, subject: str | None = None) -> float:
        """Preference score in (0, 1); 0.5 for a painting like the middle of its subject's pool."""
        return self.judge(png, subject).score

    @classmethod
    def fit(
        cls,
        pool: Pool,
        encoder: ImageEncoder | None = None,
        folds: int = 5,
        seed: int = 0,
        components: int = COMPONENTS,
        l2: float = L2,
    ) -> EmbeddedScorer:
        """Fits on every painting of the pool; measures pairwise accuracy on held-out paintings.

        Args:
            pool: a validated pool.
            encoder: the image encoder; the process's shared one of the installed file when None.
            folds: folds of the cross-validation over paintings (0 skips it).
            seed: seed of the fold assignment.
            components: principal components (see `COMPONENTS`).
            l2: ridge strength (see `L2`).

        Raises:
            ConfigError: the encoder is missing (its message says how to make it).
        """
        encoder = encoder or shared_encoder()
        features = encoder.pool_features([r.png for r in pool.references])
        subjects = [r.subject for r in pool.references]
        ranks = np.array([TIER_RANK[r.tier] for r in pool.references])
        scorer = cls(encoder, features, subjects, ranks, pool.subject, components, l2)
        if folds:
            scorer.holdout_accuracy, scorer.love_okay_accuracy = cross_validate(
                encoder, features, subjects, ranks, pool.subject, folds, seed, components, l2
            )
        measured = "not measured" if scorer.holdout_accuracy is None else f"{scorer.holdout_accuracy:.3f}"
        log.info(
            "embedded scorer on %s: %d paintings, subjects %s, held-out pairwise accuracy %s",
            pool.source or "a pool",
            len(ranks),
            ", ".join(scorer.models),
            measured,
        )
        return scorer


def cross_validate(
    encoder: ImageEncoder,
    features: np.ndarray,
    subjects: list[str],
    ranks: np.ndarray,
    default_subject: str,
    folds: int = 5,
    seed: int = 0,
    components: int = COMPONENTS,
    l2: float = L2,
) -> tuple[float | None, float | None]:
    """Pairwise accuracy of the paid score on held-out paintings: over all pairs, and love against okay.

    Folds are stratified by subject and tier. For each subject, the held-out pairs are those of
    different rank under that subject (another subject's painting ranks as `nope`), judged as
    asked for that subject; "love against okay" keeps the pairs of the subject's own love and okay
    paintings. A tie counts half. None where no pair could be tested.
    """
    names = sorted(set(subjects))
    strata = np.array([names.index(s) * 3 for s in subjects]) + ranks
    fold_of = stratified_folds(strata, folds, seed)
    counts = np.zeros((2, 2))  # [all, love-okay] x [won, tested]
    for k in range(folds):
        train, test = np.nonzero(fold_of != k)[0], np.nonzero(fold_of == k)[0]
        train_subjects = [subjects[i] for i in train]
        if len(set(ranks[train])) < 2 or not any(ranks[train] >= 1):
            continue
        model = EmbeddedScorer(encoder, features[train], train_subjects, ranks[train], default_subject, components, l2)
        for subject in model.models:
            own = np.array([subjects[i] == subject for i in test])
            ranks_here = np.where(own, ranks[test], 0)
            pairs = tier_pairs(ranks_here)
            if not len(pairs):
                continue
            paid = np.array([model.judge_features(features[i], subject).score for i in test])
            won = (paid[pairs[:, 0]] > paid[pairs[:, 1]]) + 0.5 * (paid[pairs[:, 0]] == paid[pairs[:, 1]])
            love_okay = (ranks_here[pairs[:, 0]] == 2) & (ranks_here[pairs[:, 1]] == 1) & own[pairs[:, 1]]
            counts += [[won.sum(), len(pairs)], [won[love_okay].sum(), love_okay.sum()]]
    return tuple(float(w / n) if n else None for w, n in counts)  # type: ignore[return-value]


class EmbeddedOptions(BaseModel):
    """The embedded term's setting."""

    model_config = ConfigDict(extra="forbid")

    encoder: Path | None = Field(
        None,
        description="The image encoder's ONNX file (WATERCOLOUR_EMBEDDED_ENCODER); make install's when unset.",
    )


class EmbeddedTerm(Term):
    """The embedded scorer as a reward term: the default's 0.90, fitted on the deployment's pool.

    Args:
        scorer: the fitted scorer.
    """

    name = "embedded"
    default_weight = 0.90
    needs = "the image encoder (make install, or WATERCOLOUR_EMBEDDED_ENCODER)"
    Options = EmbeddedOptions

    def __init__(self, scorer: EmbeddedScorer) -> None:
        self.scorer = scorer

    @classmethod
    def build(cls, options: EmbeddedOptions, pool: Pool, weight: float) -> EmbeddedTerm | None:
        """Fits on the pool (about 2 s), even at weight 0, so that an episode may ask for it.

        At weight 0 without an encoder it is not built (`not_configured`); weighted, a missing
        encoder refuses to start. A weighted scorer whose held-out accuracy is weak is warned about.

        Raises:
            ConfigError: weighted, and the encoder is missing or not one.
        """
        try:
            encoder = shared_encoder(options.encoder)
        except Exception:
            if weight > 0:
                raise
            log.info("embedded scorer: no image encoder, not built at weight 0", exc_info=True)
            return None
        scorer = EmbeddedScorer.fit(pool, encoder)
        warn_if_weak("embedded", scorer.holdout_accuracy, weight, pool)
        return cls(scorer)

    def score(self, painting: Painting) -> Verdict:
        """The scorer's value for the episode's subject, and the numbers behind it."""
        judgement = self.scorer.judge(painting.png, painting.subject)
        return Verdict(judgement.score, judgement.detail())
