import pytest

from tests.conftest import example, starter_terms
from watercolour_env.models import ScoreStatus
from watercolour_env.server.gate import GateResult, check_source
from watercolour_env.server.reward.length import LengthTerm, length_score
from watercolour_env.server.reward.rubric import Rubric, RubricWeights
from watercolour_env.server.sandbox import RenderResult, RenderStatus


@pytest.mark.parametrize(
    ("tokens", "expected"),
    [
        (0, 0.0),
        (149, 0.0),
        (150, 0.0),
        # (1575 - 150) / (3000 - 150) = 0.5
        (1575, 0.5),
        (3000, 1.0),
        (6000, 1.0),
        (6001, 0.0),
    ],
)
def test_the_length_ramp_rises_from_150_to_3000_tokens_and_drops_past_6000(tokens, expected):
    assert length_score(tokens) == pytest.approx(expected)


def test_an_infrastructure_failure_scores_none_not_zero():
    score = Rubric(RubricWeights(), starter_terms()).score(GateResult(False, infra_failure=True))
    assert score.reward is None
    assert {c.status for c in score.components if c.weight > 0} == {ScoreStatus.UNAVAILABLE}
    assert {c.name: c.status for c in score.components if c.weight == 0} == {
        "hpsv3": ScoreStatus.NOT_CONFIGURED,
        "judge": ScoreStatus.NOT_CONFIGURED,
        "gold": ScoreStatus.NOT_CONFIGURED,
        "witness": ScoreStatus.NOT_CONFIGURED,
    }


def test_a_gate_failure_scores_the_fail_reward_and_skips_the_scorers():
    score = Rubric(RubricWeights(), starter_terms(), fail_reward=0.0).score(GateResult(False))
    assert score.reward == 0.0
    assert [c.status for c in score.components[1:3]] == [ScoreStatus.SKIPPED_BY_GATE] * 2


def test_a_passed_reply_scores_the_weighted_sum_of_its_terms():
    from tests.conftest import png_of

    source = check_source(example("hibiscus.js"))
    render = RenderResult(RenderStatus.OK, png=png_of("stripes"), paint_fraction=0.5, finished=True)
    gate = GateResult(True, [], source.sketch, source.inventory, render)
    rubric = Rubric(RubricWeights(gate=0.4, length=0.6, embedded=0.0), [LengthTerm()])
    # gate 1.0 (passed); 1,575 tokens sit halfway up the length ramp: (1575 - 150) / (3000 - 150) = 0.5
    score = rubric.score(gate, sketch_tokens=1575)
    assert {c.name: (c.value, c.contribution) for c in score.components if c.weight > 0} == {
        "gate": (1.0, pytest.approx(0.4)),
        "length": (pytest.approx(0.5), pytest.approx(0.3)),
    }
    assert score.reward == pytest.approx(0.4 * 1.0 + 0.6 * 0.5)  # 0.7


def test_a_weighted_scorer_that_was_not_fitted_refuses_to_build_the_rubric():
    from watercolour_env.errors import ConfigError

    with pytest.raises(ConfigError, match="WATERCOLOUR_WEIGHT_EMBEDDED"):
        Rubric(RubricWeights(), [LengthTerm()])
    assert "embedded" not in Rubric(RubricWeights(gate=0.5, length=0.5, embedded=0.0), [LengthTerm()]).terms


def test_a_term_that_raises_gives_no_verdict_with_its_cause_and_one_traceback_in_the_log(caplog, monkeypatch):
    import logging

    from watercolour_env.server.reward import rubric as rubric_module

    monkeypatch.setattr(rubric_module, "_reported", set())  # what earlier tests logged does not count

    class BrokenLength(LengthTerm):
        def score(self, painting):
            raise RuntimeError("disk on fire")

    source = check_source(example("hibiscus.js"))
    render = RenderResult(RenderStatus.OK, png=b"png", paint_fraction=0.5, finished=True)
    gate = GateResult(True, [], source.sketch, source.inventory, render)
    rubric = Rubric(RubricWeights.exactly({"gate": 0.5, "length": 0.5}), [BrokenLength()])
    with caplog.at_level(logging.DEBUG, logger="watercolour_env.server.reward.rubric"):
        scores = [rubric.score(gate) for _ in range(3)]
    for score in scores:
        length = next(c for c in score.components if c.name == "length")
        assert length.value is None and "RuntimeError: disk on fire" in length.detail
        assert score.reward is None  # a weighted term without a verdict: unscored, not a smaller sum
    errors = [r for r in caplog.records if r.levelno == logging.ERROR]
    assert len(errors) == 1 and errors[0].exc_info is not None
    assert sum(r.levelno == logging.DEBUG and "failed again" in r.getMessage() for r in caplog.records) == 2
