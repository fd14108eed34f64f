"""The rollout record: what a step's observation puts in a run's rollouts.jsonl."""

from watercolour_env.rollout import Rollout


def test_a_rollout_takes_every_field_it_shares_with_the_observation_but_the_picture():
    from watercolour_env.models import WatercolourObservation
    from watercolour_env.terms import EpisodeStatus, RewardComponent, ScoreStatus, Violation

    observation = WatercolourObservation(
        reward=0.0,
        done=True,
        status=EpisodeStatus.REJECTED,
        subject="a blue iris",
        seed=41,
        prompt="Paint a blue iris.",
        sketch="function setup() {}",
        violations=[Violation.BLANK_CANVAS],
        js_errors=["ReferenceError: x"],
        reward_components=[RewardComponent(name="gate", weight=0.05, status=ScoreStatus.SKIPPED_BY_GATE)],
        paint_fraction=0.004,
        render_ms=812.5,
        queue_ms=12.0,
        renderer="SwiftShader",
        image_png_b64="iVBOR",
        detail="almost nothing was painted",
    )
    rollout = Rollout.from_observation(3, 1, 6, "```js\nfunction setup() {}\n```", observation)
    assert (rollout.step, rollout.group, rollout.position) == (3, 1, 6)
    assert rollout.completion == "```js\nfunction setup() {}\n```"
    assert (rollout.subject, rollout.seed, rollout.prompt) == ("a blue iris", 41, "Paint a blue iris.")
    assert (rollout.reward, rollout.status, rollout.sketch) == (0.0, "rejected", "function setup() {}")
    assert rollout.violations == ["blank_canvas"] and rollout.js_errors == ["ReferenceError: x"]
    assert (rollout.paint_fraction, rollout.render_ms, rollout.queue_ms) == (0.004, 812.5, 12.0)
    assert rollout.detail == "almost nothing was painted" and rollout.image is None
    assert rollout.components == [
        {"name": "gate", "value": None, "weight": 0.05, "contribution": 0.0, "status": "skipped_by_gate", "detail": ""}
    ]
