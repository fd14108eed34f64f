"""The embedded scorer: learned features, a preference per subject, and the two guards."""

import numpy as np
import pytest

from tests.conftest import starter_scorer
from watercolour_env.errors import ConfigError
from watercolour_env.pool import STARTER_POOL, Pool, Tier
from watercolour_env.server.reward.embedded import (
    FAR,
    LOVE_SCORE,
    EmbeddedOptions,
    EmbeddedScorer,
    EmbeddedTerm,
    unit_rows,
)
from watercolour_env.server.reward.term import Painting


def direction(degrees: float, length: float = 1.0, dims: int = 6) -> np.ndarray:
    """A feature vector in the plane of the first two axes, at an angle, with a small floor elsewhere."""
    v = np.full(dims, 0.0)
    v[0], v[1] = length * np.cos(np.radians(degrees)), length * np.sin(np.radians(degrees))
    return v


def two_subjects() -> EmbeddedScorer:
    """Subject "a fern": liked at 0-60 degrees, nope at 100-120; "a moth": liked on axis 3; no encoder needed."""
    features, subjects, ranks = [], [], []
    for deg, rank in [(0, 2), (20, 2), (40, 1), (60, 1), (100, 0), (120, 0)]:
        features.append(direction(deg, 1.0 + rank))  # love paintings are also "more" of the direction
        subjects.append("a fern")
        ranks.append(rank)
    for k, rank in enumerate([2, 2, 1, 1, 0]):
        v = np.zeros(6)
        v[3], v[4] = 2.0 + rank, 0.2 * k
        features.append(v)
        subjects.append("a moth")
        ranks.append(rank)
    return EmbeddedScorer(None, np.array(features), subjects, np.array(ranks), "a fern", components=5)


def test_rows_are_scaled_to_length_one_and_zeros_stay_zeros():
    rows = unit_rows(np.array([[3.0, 4.0], [0.0, 0.0]]))
    assert rows.tolist() == [[0.6, 0.8], [0.0, 0.0]]


def test_the_radius_is_the_largest_distance_from_a_liked_painting_to_its_nearest_liked_neighbour():
    scorer = two_subjects()
    # the fern's love and okay at 0, 20, 40, 60 degrees: each is 20 degrees from its nearest
    assert scorer.models["a fern"].radius == pytest.approx(1 - np.cos(np.radians(20)))
    assert list(scorer.models["a fern"].liked) == [0, 1, 2, 3]


def test_each_subject_ranks_its_own_tiers_and_another_subjects_paintings_as_nope():
    scorer = two_subjects()
    features = np.array([direction(d, 1.0 + r) for d, r in [(0, 2), (60, 1), (120, 0)]])
    love, okay, nope = (scorer.judge_features(f, "a fern").score for f in features)
    assert love > okay > nope
    moth = np.zeros(6)
    moth[3] = 4.0
    as_fern, as_moth = scorer.judge_features(moth, "a fern"), scorer.judge_features(moth, "a moth")
    # its 5 nearest liked paintings: the moth's 4 and a fern
    assert as_fern.share == pytest.approx(0.2) and as_moth.share == pytest.approx(0.8)
    assert as_fern.score < 0.5 < as_moth.score


def test_a_painting_far_from_the_liked_ones_is_paid_at_most_the_subjects_median():
    scorer = two_subjects()
    model = scorer.models["a fern"]
    near, far = direction(10, 30.0), direction(10, 30.0)
    far[5] = 30.0  # the same utility direction, but 45 degrees out of the liked plane
    assert scorer.judge_features(near, "a fern").score > LOVE_SCORE
    judged = scorer.judge_features(far, "a fern")
    assert judged.distance > FAR * model.radius
    assert judged.score <= 0.5 + 1e-9


def test_an_asked_subject_finds_its_model_by_words_and_the_default_otherwise():
    scorer = two_subjects()
    assert scorer.model_for("three green ferns").subject == "a fern"
    assert scorer.model_for("a moth at night").subject == "a moth"
    assert scorer.model_for(None).subject == scorer.model_for("a whale").subject == "a fern"


def test_the_starter_scores_each_subjects_love_median_at_love_score_and_the_tiers_in_order():
    scorer = starter_scorer()
    pool = Pool.load(str(STARTER_POOL))
    for subject in ("a hibiscus", "a jellyfish", "a songbird on a branch"):
        mine = [r for r in pool.references if r.subject == subject]
        medians = {t: np.median([scorer.score(r.png, subject) for r in mine if r.tier is t]) for t in Tier}
        assert medians[Tier.LOVE] == pytest.approx(LOVE_SCORE, abs=0.01), subject
        assert medians[Tier.LOVE] > medians[Tier.OKAY] > medians[Tier.NOPE], subject


def test_the_starters_paintings_asked_as_another_subject_stay_under_its_okay_median():
    scorer = starter_scorer()
    pool = Pool.load(str(STARTER_POOL))
    subjects = ("a hibiscus", "a jellyfish", "a songbird on a branch")
    for asked in subjects:
        okay = np.median([scorer.score(r.png, asked) for r in pool.tier(Tier.OKAY) if r.subject == asked])
        for other in set(subjects) - {asked}:
            loved = [scorer.score(r.png, asked) for r in pool.tier(Tier.LOVE) if r.subject == other]
            assert max(loved) < okay, (asked, other)


@pytest.mark.slow
def test_held_out_accuracy_meets_issue_54s_targets_on_the_starter():
    scorer = EmbeddedScorer.fit(Pool.load(str(STARTER_POOL)), folds=5)
    # measured 0.985 and 0.917 (docs/LOG.md); the targets are 0.92 and 0.85
    assert scorer.holdout_accuracy >= 0.92 and scorer.love_okay_accuracy >= 0.85


def test_without_an_encoder_it_is_not_built_at_weight_zero_and_refuses_when_weighed(tmp_path):
    pool = Pool.load(str(STARTER_POOL))
    options = EmbeddedOptions(encoder=tmp_path / "none.onnx")
    assert EmbeddedTerm.build(options, pool, 0.0) is None
    with pytest.raises(ConfigError, match="none.onnx is missing: make it with"):
        EmbeddedTerm.build(options, pool, 0.9)


def test_the_verdict_carries_the_numbers_behind_the_score():
    term = EmbeddedTerm(starter_scorer())
    png = (STARTER_POOL / "images" / "jellyfish-07.png").read_bytes()
    verdict = term.score(Painting(png, tokens=100, seed=0, subject="two jellyfish"))
    assert verdict.value == pytest.approx(starter_scorer().score(png, "a jellyfish"))
    assert verdict.detail.startswith("a jellyfish: utility ")
    assert "subject share 1.00" in verdict.detail
