"""The pairwise judge against a local server speaking the OpenAI chat protocol, from a script:
a judge with a real preference, one with only position bias, malformed JSON, 5xx and timeouts."""

import functools
import os

import pytest
from openai import OpenAI

from tests.conftest import serving
from tests.watercolour_env.server.reward.conftest import candidate_png, passed_gate, scripted_judge, starter_pool
from watercolour_env.pool import Pool, Tier
from watercolour_env.server.reward.judge import draw_references
from watercolour_env.server.reward.pairwise import STRUCTURED_REFUSALS, ComparisonStatus, PairwiseJudge, parse_verdict


@pytest.fixture(scope="module")
def endpoint():
    calls: list[str] = []
    with serving(scripted_judge(calls)) as url:
        yield f"{url}/v1", calls


def judge(url: str, model: str, retries: int = 0, timeout_s: float = 10) -> PairwiseJudge:
    return PairwiseJudge(OpenAI(base_url=url, api_key="test", max_retries=retries, timeout=timeout_s), model)


@functools.cache
def references():
    return draw_references(starter_pool(), 4, seed=7)


def test_references_are_half_love_half_okay_and_the_same_for_the_same_seed():
    assert [r.tier for r in references()].count(Tier.LOVE) == 2
    assert [r.tier for r in references()].count(Tier.OKAY) == 2
    assert [r.id for r in draw_references(starter_pool(), 4, seed=7)] == [r.id for r in references()]
    assert [r.id for r in draw_references(starter_pool(), 4, seed=8)] != [r.id for r in references()]


def test_an_episodes_references_are_paintings_of_its_subject():
    for asked, part in [("a jellyfish", "a jellyfish"), ("a robin, a songbird on a branch", "a songbird on a branch")]:
        drawn = draw_references(starter_pool(), 6, seed=3, subject=asked)
        assert len(drawn) == 6 and {r.subject for r in drawn} == {part}
    # a subject the pool has no paintings of (one subjects.txt declares): the whole pool
    assert len(draw_references(starter_pool(), 40, seed=3, subject="an orchid")) == 40
    assert {r.subject for r in draw_references(starter_pool(), 40, seed=3)} == {
        "a hibiscus",
        "a jellyfish",
        "a songbird on a branch",
    }


def test_a_judge_that_prefers_the_candidate_in_both_orders_scores_one(endpoint):
    url, _ = endpoint
    score = judge(url, "prefers-candidate").score(candidate_png(), references())
    assert score.value == 1.0
    assert len(score.comparisons) == 8 and {c.candidate_first for c in score.comparisons} == {True, False}


def test_a_fenced_verdict_for_the_reference_scores_zero(endpoint):
    url, _ = endpoint
    assert judge(url, "prefers-reference").score(candidate_png(), references()).value == 0.0


def test_position_bias_alone_becomes_a_tie_worth_one_half(endpoint):
    url, _ = endpoint
    # "A" every time: the candidate wins when shown first and loses when shown second
    assert judge(url, "position-bias").score(candidate_png(), references()).value == 0.5


def test_a_judge_that_never_gives_a_verdict_is_unavailable_not_zero(endpoint):
    url, _ = endpoint
    score = judge(url, "malformed").score(candidate_png(), references()[:1])
    assert score.value is None and not score.available
    assert {c.status for c in score.comparisons} == {ComparisonStatus.MALFORMED}


def test_5xx_answers_are_retried_by_the_client(endpoint):
    url, calls = endpoint
    score = judge(url, "flaky", retries=2).score(candidate_png(), references()[:1])
    assert score.value == 1.0
    assert calls.count("flaky") == 4  # each of the two comparisons failed once, then resolved


def test_a_timeout_fails_the_comparison_and_leaves_the_judge_unavailable(endpoint):
    url, _ = endpoint
    score = judge(url, "slow", timeout_s=0.5).score(candidate_png(), references()[:1])
    assert score.value is None
    assert {c.status for c in score.comparisons} == {ComparisonStatus.FAILED}


def test_structured_output_is_asked_for_with_the_winner_first(endpoint):
    url, _ = endpoint
    assert judge(url, "needs-structured").score(candidate_png(), starter_pool().tier(Tier.LOVE)[:1]).value == 1.0
    unstructured = PairwiseJudge(
        OpenAI(base_url=url, api_key="t", max_retries=0), "needs-structured", structured_output=False
    )
    assert unstructured.score(candidate_png(), starter_pool().tier(Tier.LOVE)[:1]).value is None


def test_an_endpoint_that_refuses_structured_output_is_asked_again_without_it(endpoint):
    url, calls = endpoint
    before = calls.count("refused")
    j = PairwiseJudge(OpenAI(base_url=url, api_key="t", max_retries=0), "refuses-structured", max_concurrency=1)
    assert j.score(candidate_png(), starter_pool().tier(Tier.LOVE)[:2]).value == 0.5  # answers "A" always: a tie
    assert j.structured_output is False
    # refused three times in a row (each answered without the format), then never asked again
    assert calls.count("refused") - before == STRUCTURED_REFUSALS == 3


def test_a_request_that_is_bad_with_or_without_the_format_keeps_the_format_for_everyone(endpoint):
    url, _ = endpoint
    j = PairwiseJudge(OpenAI(base_url=url, api_key="t", max_retries=0), "rejects-everything", max_concurrency=1)
    verdict = j.score(candidate_png(), starter_pool().tier(Tier.LOVE)[:2])
    assert verdict.value is None and {c.status for c in verdict.comparisons} == {ComparisonStatus.FAILED}
    assert j.structured_output is True


def test_an_endpoint_that_answered_with_the_format_keeps_it_after_one_kind_of_request_is_refused(endpoint):
    url, calls = endpoint
    before = calls.count("refused")
    j = PairwiseJudge(OpenAI(base_url=url, api_key="t", max_retries=0), "refuses-candidate-first", max_concurrency=1)
    # 4 references x 2 orders, one at a time: candidate-first is refused with the format (then
    # answered without it), reference-first is answered with it
    assert j.score(candidate_png(), starter_pool().tier(Tier.LOVE)[:4]).value == 1.0
    assert j.structured_output is True
    assert calls.count("refused") - before == 4  # every candidate-first request still asked with it


def test_the_cap_on_comparisons_in_flight_holds_over_every_caller_of_the_judge(endpoint):
    from concurrent.futures import ThreadPoolExecutor

    url, calls = endpoint
    start = len(calls)
    j = PairwiseJudge(OpenAI(base_url=url, api_key="t", max_retries=0), "counts-in-flight", max_concurrency=2)
    # 4 sessions at once, each scoring against 2 references in both orders (4 comparisons):
    # up to 16 requests could be in flight; the judge lets 2 through at a time
    with ThreadPoolExecutor(max_workers=4) as sessions:
        values = list(
            sessions.map(lambda _: j.score(candidate_png(), starter_pool().tier(Tier.LOVE)[:2]).value, range(4))
        )
    assert values == [1.0] * 4
    seen = [int(c.split()[-1]) for c in calls[start:] if c.startswith("in-flight")]
    assert len(seen) == 16 and max(seen) == 2


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('{"winner": "B", "reason": "softer"}', ("B", "softer")),
        ('Sure! {"winner":"a"} is better', ("A", "")),
        ('{"reason": "no winner given"}', None),
        ('{"winner": "C"}', None),
        ("A is better", None),
    ],
)
def test_the_verdict_parser_is_strict(text, expected):
    assert parse_verdict(text) == expected


def rubric_with_judge(url: str, model: str):
    from tests.conftest import starter_terms
    from watercolour_env.server.reward.judge import JudgeTerm
    from watercolour_env.server.reward.rubric import Rubric, RubricWeights

    weights = RubricWeights(gate=0.05, length=0.05, embedded=0.3, judge=0.6)
    return Rubric(weights, [*starter_terms(), JudgeTerm(judge(url, model), starter_pool(), references=2)])


def test_the_rubric_adds_the_judges_share_of_wins_with_its_weight(endpoint):
    url, _ = endpoint
    score = rubric_with_judge(url, "prefers-candidate").score(passed_gate(), seed=3)
    by_name = {c.name: c for c in score.components}
    assert by_name["judge"].value == 1.0 and by_name["judge"].contribution == pytest.approx(0.6)
    assert score.reward == pytest.approx(sum(c.contribution for c in score.components))


def test_an_episodes_references_option_sets_how_many_the_judge_compares_with(endpoint):
    url, calls = endpoint
    rubric = rubric_with_judge(url, "prefers-candidate")  # the deployment's 2 references
    calls.clear()  # the endpoint serves the whole module
    rubric.score(passed_gate(), seed=3)
    assert len(calls) == 2 * 2  # each reference in both orders
    calls.clear()
    rubric.score(passed_gate(), seed=3, references=3)
    assert len(calls) == 3 * 2


def test_an_unavailable_judge_makes_the_reward_none_not_a_smaller_sum(endpoint):
    from watercolour_env.models import ScoreStatus

    url, _ = endpoint
    score = rubric_with_judge(url, "malformed").score(passed_gate(), seed=3)
    assert score.reward is None
    assert {c.name: c.status for c in score.components}["judge"] is ScoreStatus.UNAVAILABLE


def test_a_judge_weight_for_inference_providers_without_a_token_refuses_to_start():
    from watercolour_env.errors import ConfigError
    from watercolour_env.server.settings import load_settings

    with pytest.raises(ConfigError, match="WATERCOLOUR_JUDGE_TOKEN"):
        load_settings(weight_embedded=0.3, weight_judge=0.6)
    assert load_settings(weight_embedded=0.3, weight_judge=0.6, judge_token="hf_x").weight_judge == 0.6


def test_calibration_reports_each_references_win_rate_hardest_first(endpoint, tmp_path):
    from watercolour_env.curate.calibrate import calibrate, rollout_paintings, write_report

    (tmp_path / "paintings").mkdir()
    for i, ref in enumerate(starter_pool().tier(Tier.NOPE)[:2]):
        (tmp_path / "paintings" / f"step0001-g00-p{i:02d}.png").write_bytes(ref.png)
    paintings = rollout_paintings(tmp_path)
    small_pool = Pool(starter_pool().tier(Tier.LOVE)[:2] + starter_pool().tier(Tier.OKAY)[:1], source="test")
    url, _ = endpoint
    # "position-bias" always says A: every reference splits, 0.5 each
    results = calibrate(small_pool, paintings, judge(url, "position-bias"))
    assert [r.rollout_win_rate for r in results] == [0.5, 0.5, 0.5]
    assert all(r.resolved == r.comparisons == 4 for r in results)
    write_report(results, tmp_path / "calibration.json")
    assert (tmp_path / "calibration.json").read_text().count('"id"') == 3


def test_comparisons_the_episode_deadline_cuts_short_leave_the_judge_without_a_verdict(endpoint):
    import time

    url, _ = endpoint
    started = time.monotonic()
    verdict = judge(url, "slow", retries=3, timeout_s=30).score(candidate_png(), references()[:1], started + 1.0)
    elapsed_s = time.monotonic() - started
    assert verdict.value is None and not verdict.available
    assert {c.status for c in verdict.comparisons} == {ComparisonStatus.LATE}
    assert elapsed_s < 2.0, elapsed_s  # not the request's 30 s, nor 3 retries of it


def test_a_judge_that_answers_within_the_deadline_is_unchanged_by_it(endpoint):
    import time

    url, _ = endpoint
    verdict = judge(url, "prefers-candidate").score(candidate_png(), references(), time.monotonic() + 30)
    assert verdict.value == 1.0 and len(verdict.comparisons) == 8


@pytest.mark.cli
def test_pool_calibrate_refuses_without_a_token_and_exits_3_when_the_judge_resolves_nothing(endpoint, tmp_path):
    import subprocess

    from tests.conftest import WATERCOLOUR

    (tmp_path / "paintings").mkdir()
    (tmp_path / "paintings" / "step0001-g00-p00.png").write_bytes(starter_pool().tier(Tier.NOPE)[0].png)
    env = {k: v for k, v in os.environ.items() if k != "HF_TOKEN"}
    no_token = subprocess.run(
        [WATERCOLOUR, "pool", "calibrate", str(tmp_path)], capture_output=True, text=True, env=env, timeout=60
    )
    assert no_token.returncode == 2
    assert no_token.stderr.strip().splitlines() == [
        "error: the judge at https://router.huggingface.co/v1 needs a token: set HF_TOKEN (or name one with "
        "--api-key-env)"
    ]
    url, _ = endpoint
    small = tmp_path / "pool"
    from watercolour_env.curate.hub import write_folder

    write_folder(Pool(starter_pool().tier(Tier.LOVE)[:1] + starter_pool().tier(Tier.OKAY)[:1], source="t"), small)
    nothing = subprocess.run(
        [
            WATERCOLOUR,
            "pool",
            "calibrate",
            str(tmp_path),
            "--pool",
            str(small),
            "--base-url",
            url,
            "--judge-model",
            "rejects-everything",
        ],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert nothing.returncode == 3, nothing.stderr
    assert "resolved no comparison" in nothing.stderr
    assert (tmp_path / "calibration.json").exists()
