import csv

from tests.conftest import png_of
from watercolour_env.rollout import Rollout
from watercolour_trainer.record.rollouts import RolloutLog, curve_rows


def rollout(step: int, reward: float | None, status: str, position: int = 0) -> Rollout:
    return Rollout(step, 0, position, "a peach hibiscus", 3, "reply", "sketch", reward, status)


def test_the_curve_averages_scored_rollouts_and_counts_failures_apart():
    rows = curve_rows(
        [
            rollout(1, 0.6, "scored"),
            rollout(1, 0.2, "scored"),
            rollout(1, 0.0, "rejected"),
            rollout(1, None, "infra_error"),
            rollout(2, None, "infra_error"),
        ]
    )
    # step 1: rewards (0.6, 0.2, 0.0) -> mean 0.266667; squared deviations 0.111111 + 0.004444 +
    # 0.071111 = 0.186667, over n - 1 = 2 (TRL's reward_std) -> 0.093333, std 0.305505
    assert rows[0]["reward_mean"] == round(0.8 / 3, 6)
    assert rows[0]["reward_std"] == 0.305505
    assert rows[0]["gate_fail_fraction"] == 0.25 and rows[0]["infra_fail_fraction"] == 0.25
    # step 2 has no scored rollout: no mean, not a zero
    assert rows[1]["reward_mean"] == "" and rows[1]["infra_fail_fraction"] == 1.0


def test_the_log_writes_jsonl_paintings_curve_and_a_gallery_sorted_by_reward(tmp_path):
    import base64

    log = RolloutLog(tmp_path)
    log.add(rollout(1, 0.2, "scored", position=0), base64.b64encode(png_of("grey")).decode())
    log.add(rollout(1, 0.7, "scored", position=1), base64.b64encode(png_of("stripes")).decode())
    log.add(rollout(1, 0.0, "rejected", position=2), None)
    log.flush()
    assert len((tmp_path / "rollouts.jsonl").read_text().splitlines()) == 3
    assert sorted(p.name for p in (tmp_path / "paintings").iterdir()) == [
        "step0001-g00-p00.png",
        "step0001-g00-p01.png",
    ]
    with open(tmp_path / "curve.csv") as f:
        assert next(csv.DictReader(f))["rollouts"] == "3"
    page = (tmp_path / "gallery.html").read_text()
    assert page.index("step0001-g00-p01.png") < page.index("step0001-g00-p00.png")


def test_a_second_run_into_the_same_folder_moves_the_first_aside(tmp_path):
    first = RolloutLog(tmp_path / "rollouts")
    first.add(rollout(1, 0.5, "scored"), None)
    second = RolloutLog(tmp_path / "rollouts")
    assert second.rollouts == []
    assert not (tmp_path / "rollouts" / "rollouts.jsonl").exists()
    kept = [p for p in tmp_path.iterdir() if p.name.startswith("rollouts-")]
    assert len(kept) == 1 and (kept[0] / "rollouts.jsonl").is_file()


def test_a_resumed_run_keeps_the_rollouts_up_to_its_checkpoint_and_their_paintings(tmp_path):
    import base64

    first = RolloutLog(tmp_path / "rollouts")
    for step in (1, 2, 3):
        first.add(rollout(step, 0.1 * step, "scored"), base64.b64encode(png_of("grey")).decode())
    # the checkpoint was saved after step 2: step 3 is made again by the resumed run
    resumed = RolloutLog(tmp_path / "rollouts", resume_after=2)
    assert [r.step for r in resumed.rollouts] == [1, 2]
    lines = (tmp_path / "rollouts" / "rollouts.jsonl").read_text().splitlines()
    assert len(lines) == 2
    assert sorted(p.name for p in (tmp_path / "rollouts" / "paintings").iterdir()) == [
        "step0001-g00-p00.png",
        "step0002-g00-p00.png",
    ]
    assert (tmp_path / "rollouts" / "paintings" / "step0002-g00-p00.png").read_bytes() == png_of("grey")
    resumed.add(rollout(3, 0.9, "scored"), None)
    assert [r.step for r in resumed.rollouts] == [1, 2, 3]
    kept = [p for p in tmp_path.iterdir() if p.name.startswith("rollouts-")]
    assert len(kept) == 1 and len((kept[0] / "rollouts.jsonl").read_text().splitlines()) == 3
