"""`watercolour analyze` on a run whose every number is worked out by hand below."""

import json
import subprocess

import pytest
from PIL import Image

from tests.conftest import WATERCOLOUR
from watercolour_trainer.record.analyze import alike, analyze, decompose, thirds


def rollout(step, position, reward, status="scored", paint=None, reply="x" * 100, violations=()):
    circles = None if reward is None else round(10 * reward) + 1  # painting calls = 10 x reward + 1
    return {
        "completion": reply,
        "violations": list(violations),
        "step": step,
        "group": 0,
        "position": position,
        "reward": reward,
        "status": status,
        "paint_fraction": paint,
        "sketch": None if circles is None else "function setup() {}\n" + "brush.circle(1, 1, 1);\n" * circles,
        "components": [] if reward is None else [{"name": "embedded", "value": reward}],
    }


RUN = [
    rollout(1, 0, 0.0, "rejected", reply="x" * 40, violations=["copied_reference"]),
    rollout(1, 1, 0.2, paint=0.2, reply="x" * 60),
    rollout(2, 0, 0.5, paint=0.4, violations=["syntax_error"]),
    rollout(2, 1, 0.5, paint=0.4),
    rollout(3, 0, 0.8, paint=0.6, reply="x" * 300),
    rollout(3, 1, None, "infra_error"),
]


def test_every_number_of_a_small_run():
    result = analyze(RUN)
    first, middle, last = result["thirds"]
    assert [first["reward_mean"], middle["reward_mean"], last["reward_mean"]] == pytest.approx([0.1, 0.5, 0.8])
    # per-step means 0.1, 0.5, 0.8 at steps 1, 2, 3: slope 0.7 / 2 = 0.35; residuals -1/60, 2/60, -1/60,
    # so s^2 = (6 / 3600) / 1 and se = sqrt(s^2 / 2) = 0.0288675: t = 12.124
    assert result["slope_per_step"] == pytest.approx(0.35)
    assert result["slope_t_iid"] == pytest.approx(12.124, abs=1e-3)
    assert result["slope_t"] is None  # three steps: too few for a t that allows for correlated steps
    assert (first["share_under_0_3"], last["share_under_0_3"]) == (1.0, 0.0)
    # every painting of the first third is bad (mean 0.1), every one of the last good (0.8): the
    # whole rise of 0.7 is composition: -1 x 0.1 (bad ones gone) + 1 x 0.8 (good ones came)
    assert result["rise"] == pytest.approx({"delta": 0.7, "composition": 0.7, "within": 0.0, "composition_share": 1.0})
    assert result["best_of_step_change"] == pytest.approx(0.6)  # best 0.2 -> 0.8
    assert result["median_of_step_change"] == pytest.approx(0.7)  # median 0.1 -> 0.8
    assert (first["paint_coverage"], last["paint_coverage"]) == pytest.approx((0.2, 0.6))
    # one copy of two in the first third, none later; a syntax error is not a copy
    assert [t["copy_share"] for t in (first, middle, last)] == [0.5, 0.0, 0.0]
    # median reply length: (40 + 60) / 2, then 100, then (300 + 100) / 2 (the unscored one counts)
    assert [t["reply_chars"] for t in (first, middle, last)] == [50, 100, 200]
    # one-line replies: step 1's two differ (0), step 2's are one reply (1), step 3's differ (0)
    assert [t["alike"] for t in (first, middle, last)] == [0.0, 1.0, 0.0]
    assert [t["entropy"] for t in (first, middle, last)] == [None, None, None]  # no trainer log
    assert result["gate_fail_share"] == pytest.approx(1 / 6) and result["unscored_share"] == pytest.approx(1 / 6)
    assert [s["frac_reward_zero_std"] for s in result["per_step"]] == [0.0, 1.0, 1.0]
    assert result["components"]["embedded"]["corr_with_reward"] == pytest.approx(1.0)
    assert result["shapes_corr_with_reward"] == pytest.approx(1.0)


def test_the_entropy_by_third_comes_from_the_trainer_log():
    log = [{"step": 1, "entropy": 0.5}, {"step": 2, "entropy": 0.3}, {"step": 3, "entropy": 0.1}, {"step": 3}]
    assert [t["entropy"] for t in analyze(RUN, log)["thirds"]] == pytest.approx([0.5, 0.3, 0.1])


def test_alike_is_the_mean_jaccard_of_the_replies_line_sets():
    # {a, b} and {b, c}: 1 shared of 3; the third reply is {a, b} again, blank line and spaces aside
    assert alike(["a\nb\n", "b\nc"]) == pytest.approx(1 / 3)
    assert alike(["a\nb\n", "b\nc", "a\n\n  b "]) == pytest.approx((1 / 3 + 1 + 1 / 3) / 3)
    assert alike(["only one"]) is None


def test_the_proxy_and_the_gold_are_compared_by_third_on_the_same_paintings():
    # the proxy (embedded) climbs 0.5 -> 0.9 while the gold falls 0.6 -> 0.3: hacking
    run = [rollout(step, 0, proxy) for step, proxy in ((1, 0.5), (2, 0.7), (3, 0.9))]
    for r, gold in zip(run, (0.6, 0.5, 0.3), strict=True):
        r["components"].append({"name": "gold", "value": gold})
    run.append(rollout(3, 1, 0.1))  # no gold value: left out of both means
    rows = analyze(run)["proxy_and_gold"]
    assert [row["proxy"] for row in rows] == pytest.approx([0.5, 0.7, 0.9])
    assert [row["gold"] for row in rows] == pytest.approx([0.6, 0.5, 0.3])
    assert [row["paintings"] for row in rows] == [1, 1, 1]
    assert analyze(RUN)["proxy_and_gold"] is None  # a run served without WATERCOLOUR_GOLD_POOL


def test_the_step_time_splits_into_generation_environment_and_optimisation():
    history = [
        {"step": 1, "time/generation_s": 10, "time/environment_s": 5, "time/step_s": 20},
        {"step": 2, "time/generation_s": 30, "time/environment_s": 15, "time/step_s": 50},
        {"step": 3, "time/generation_s": 20, "time/environment_s": 10, "time/step_s": 35},
        {"train_runtime": 105.0},
    ]
    split = analyze(RUN, history)["time_split"]
    # medians: generation 20, environment 10, optimisation 5 (20-15, 50-45, 35-30), step 35;
    # the environment's share of the summed steps: 30 / 105
    assert (split["generation_s"], split["environment_s"], split["optimisation_s"], split["step_s"]) == (20, 10, 5, 35)
    assert split["environment_share"] == pytest.approx(30 / 105)
    assert analyze(RUN)["time_split"] is None


def test_the_rise_splits_into_composition_and_within():
    # first: bad [0.1], good [0.5]; last: bad [0.2], good [0.5, 0.5, 0.5] -> p_bad 0.5 -> 0.25
    split = decompose([0.1, 0.5], [0.2, 0.5, 0.5, 0.5])
    # composition: -0.25 x 0.15 + 0.25 x 0.5 = 0.0875; within: 0.375 x 0.1 + 0.625 x 0 = 0.0375
    assert split["delta"] == pytest.approx(0.425 - 0.3)
    assert split["composition"] == pytest.approx(0.0875) and split["within"] == pytest.approx(0.0375)


def test_steps_split_into_thirds_with_the_extras_first_and_last():
    assert thirds([5, 1, 2, 3, 4]) == [[1, 2], [3], [4, 5]]
    assert thirds([4, 1, 2, 3]) == [[1, 2], [3], [4]]
    assert thirds([1, 2, 3]) == [[1], [2], [3]]
    assert thirds([2, 1]) == [[1], [], [2]]  # the demo's 2 steps: first against last
    assert thirds([1]) == [[1], [], []]


@pytest.mark.train
def test_the_command_writes_json_and_a_plot_and_names_a_missing_run(tmp_path):
    (tmp_path / "rollouts").mkdir()
    (tmp_path / "rollouts" / "rollouts.jsonl").write_text("".join(json.dumps(r) + "\n" for r in RUN))
    run = subprocess.run([WATERCOLOUR, "analyze", str(tmp_path)], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert "12.12 if steps were independent" in run.stdout and "composition share 100%" in run.stdout
    assert json.loads((tmp_path / "rollouts" / "analysis.json").read_text())["steps"] == 3
    assert Image.open(tmp_path / "rollouts" / "analysis.png").size == (800, 600)
    missing = subprocess.run([WATERCOLOUR, "analyze", str(tmp_path / "nothing")], capture_output=True, text=True)
    assert missing.returncode == 2 and "no rollouts.jsonl" in missing.stderr


def paired(step, proxy, gold):
    r = rollout(step, 0, proxy)
    r["components"].append({"name": "gold", "value": gold})
    return r


def by_steps(run):
    return {s: [r for r in run if r["step"] == s] for s in sorted({r["step"] for r in run})}


def test_the_gold_falling_from_its_peak_while_the_proxy_climbs_is_over_optimisation():
    from watercolour_trainer.record.gold import windows

    golds = [0.5, 0.5, 0.5, 0.8, 0.9, 0.7, 0.5, 0.4, 0.45]
    run = [paired(s, 0.5 + 0.05 * (s - 1), gold) for s, gold in enumerate(golds, start=1)]
    run += [rollout(5, 1, 0.1)]  # no gold: in no mean
    result = windows(by_steps(run), width=3)
    rows = result["windows"]
    assert [row["steps"] for row in rows] == ["1-3", "4-6", "7-9"]
    assert [row["paintings"] for row in rows] == [3, 3, 3]
    assert [row["proxy"] for row in rows] == pytest.approx([0.55, 0.7, 0.85])
    assert [row["gold"] for row in rows] == pytest.approx([0.5, 0.8, 0.45])
    assert [row["gap"] for row in rows] == pytest.approx([0.05, -0.1, 0.4])
    # Newey-West, 3 step means, 1 lag (weight 1/2): 4-6 deviations 0, 0.1, -0.1: g0 = 0.02 / 3,
    # g1 = -0.01 / 3, long-run 0.01 / 3, variance of the mean 0.01 / 9; 7-9 deviations 0.05, -0.05,
    # 0: g0 = 0.005 / 3, g1 = -0.0025 / 3, long-run 0.0025 / 3, variance 0.0025 / 9
    assert result["gold_peak"] == "4-6"
    assert result["gold_fall"] == pytest.approx(0.35)
    assert result["gold_fall_se"] == pytest.approx((0.0125 / 9) ** 0.5)  # 0.037: 2 s.e. 0.075 < 0.35
    assert result["proxy_rise"] == pytest.approx(0.15)
    assert result["over_optimisation"] is True
    assert result["proxy_above_from"] == 6  # step 6: proxy 0.75 over gold 0.7; step 5 not (0.7 < 0.9)


def test_a_gold_at_its_best_at_the_end_or_a_short_tail_is_no_over_optimisation():
    from watercolour_trainer.record.gold import windows

    rising = [paired(s, 0.5 + 0.1 * s, 0.1 * s) for s in (1, 2, 3, 4)]  # proxy above gold at every step
    result = windows(by_steps(rising), width=2)
    assert result["gold_peak"] == "3-4" and result["gold_fall"] == 0 and result["over_optimisation"] is False
    assert result["proxy_above_from"] == 1
    # a one-step tail of width 4 is not a peak candidate: the peak is 1-4 (gold 0.25), the tail 0.99
    tail = rising + [paired(5, 0.3, 0.99)]
    result = windows(by_steps(tail), width=4)
    assert [row["steps"] for row in result["windows"]] == ["1-4", "5-5"] and result["gold_peak"] == "1-4"
    assert result["gold_fall"] == pytest.approx(0.25 - 0.99) and result["over_optimisation"] is False
    assert result["proxy_above_from"] is None
    # the gold falling but within noise, or the proxy falling with it, is not over-optimisation
    noisy = [paired(s, 0.5 + 0.02 * s, g) for s, g in enumerate([0.2, 0.9, 0.5, 0.9, 0.2, 0.4], start=1)]
    result = windows(by_steps(noisy), width=3)  # fall 0.033, within 2 s.e.
    assert result["gold_fall"] == pytest.approx(0.1 / 3) and result["over_optimisation"] is False
    assert 2 * result["gold_fall_se"] > result["gold_fall"]
    falling = [paired(s, 0.9 if s <= 3 else 0.5, 0.9 if s <= 3 else 0.1) for s in range(1, 7)]
    result = windows(by_steps(falling), width=3)
    assert result["gold_fall_se"] == pytest.approx(0.0) and result["over_optimisation"] is False  # both fell
    # windows of fewer than 3 steps measure no standard error: no verdict, whatever the fall
    short = [paired(1, 0.5, 0.9), paired(2, 0.5, 0.9), paired(3, 0.9, 0.1), paired(4, 0.9, 0.1)]
    result = windows(by_steps(short), width=2)
    assert result["gold_fall"] == pytest.approx(0.8) and result["gold_fall_se"] is None
    assert result["over_optimisation"] is False


def test_windows_go_by_step_number_and_skip_what_is_not_a_finite_number():
    from watercolour_trainer.record.gold import component, windows

    run = [paired(1, 0.5, 0.5), paired(2, 0.5, 0.5), paired(95, 0.9, 0.6), paired(100, 0.9, 0.6)]
    assert [row["steps"] for row in windows(by_steps(run))["windows"]] == [
        "1-2",
        "95-100",
    ]  # labelled by the steps it holds
    for bad in (float("nan"), float("inf"), "0.5", True, None):
        assert component({"components": [{"name": "gold", "value": bad}]}, "gold") is None
    assert component({"components": "oops"}, "gold") is None and component({}, "gold") is None
    assert windows({1: [rollout(1, 0, 0.5)]}) is None  # a run served without gold
    assert analyze(run)["proxy_and_gold_windows"]["gold_peak"] == "95-100"


def test_newey_west_by_hand_and_as_statsmodels_computes_it():
    from watercolour_trainer.record.stats import hac_mean_se, hac_slope, newey_west_lags

    assert [newey_west_lags(n) for n in (4, 10, 33, 100, 150)] == [1, 2, 3, 4, 4]
    # x 1..4, y 0, 1, 1, 3: slope 4.5 / 5 = 0.9; residuals 0.1, 0.2, -0.7, 0.4; d e = -0.15, -0.1,
    # -0.35, 0.6: sum of squares 0.515, lag-1 products -0.16 at weight 1/2: long-run 0.355;
    # variance 0.355 / 25 * 4 / 2 = 0.0284, t = 0.9 / 0.16852 = 5.3405
    slope, t = hac_slope([1, 2, 3, 4], [0, 1, 1, 3])
    assert slope == pytest.approx(0.9) and t == pytest.approx(0.9 / 0.0284**0.5)
    # a series 0.5, 0.7, 0.6, 0.8: deviations -0.15, 0.05, -0.05, 0.15; g0 = 0.05 / 4, g1 = -0.0175 / 4
    assert hac_mean_se([0.5, 0.7, 0.6, 0.8]) == pytest.approx(((0.05 - 0.0175) / 4 / 4) ** 0.5)
    assert hac_mean_se([0.5, 0.7]) is None and hac_mean_se([0.3, 0.3, 0.3]) == 0.0
    # statsmodels 0.15.0, OLS(...).fit(cov_type="HAC", cov_kwds={"maxlags": L, "use_correction": True}),
    # computed apart from this code: 5.34052 for the series above (L = 1), 12.83160 for this one (L = 2)
    ys = [0.1, 0.3, 0.2, 0.5, 0.4, 0.6, 0.5, 0.9, 0.7, 0.8]
    assert hac_slope(list(range(1, 11)), ys) == pytest.approx((0.0775758, 12.831596))
