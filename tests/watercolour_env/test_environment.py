"""The environment class in-process: the infrastructure rule and the episode contract."""

import pytest

from tests.conftest import example, starter_terms
from watercolour_env import EpisodeStatus, WatercolourAction
from watercolour_env.errors import WatercolourError
from watercolour_env.server.reward.rubric import Rubric, RubricWeights
from watercolour_env.server.sandbox import Renderer
from watercolour_env.server.watercolour_environment import WatercolourEnvironment


@pytest.mark.browser
def test_a_dead_renderer_gives_reward_none_and_status_infra_error():
    renderer = Renderer(workers=1)
    renderer.start()
    renderer.close()
    env = WatercolourEnvironment(renderer, Rubric(RubricWeights(), starter_terms()))
    env.reset(seed=1)
    obs = env.step(WatercolourAction(reply=example("hibiscus.js")))
    assert obs.reward is None
    assert obs.status is EpisodeStatus.INFRA_ERROR
    assert obs.violations == []


def test_a_second_step_in_one_episode_is_an_error():
    env = WatercolourEnvironment(Renderer(workers=1), Rubric(RubricWeights(), starter_terms()))
    env.reset(seed=1)
    obs = env.step(WatercolourAction(reply=example("bare_primitives.js")))  # rejected before rendering
    assert obs.status is EpisodeStatus.REJECTED
    with pytest.raises(WatercolourError, match="reset"):
        env.step(WatercolourAction(reply=example("bare_primitives.js")))


def test_a_syntax_error_is_rejected_before_rendering_with_the_parsers_position():
    env = WatercolourEnvironment(Renderer(workers=1), Rubric(RubricWeights(), starter_terms()))
    env.reset(seed=1)
    obs = env.step(WatercolourAction(reply="```js\nfunction setup() {\n  brush.circle(1, 2\n```"))
    assert "syntax_error" in [v.value for v in obs.violations]
    assert obs.detail.startswith("syntax error at line ")
    assert obs.render_ms is None and obs.reward == 0.0


def test_weights_given_at_reset_apply_to_that_episode_only():
    env = WatercolourEnvironment(Renderer(workers=1), Rubric(RubricWeights(), starter_terms()))
    env.reset(seed=1, weights={"gate": 0.4, "length": 0.6})
    obs = env.step(WatercolourAction(reply=example("bare_primitives.js")))  # gated out, no render
    assert weighted(obs) == {"gate": 0.4, "length": 0.6}
    env.reset(seed=1)
    obs = env.step(WatercolourAction(reply=example("bare_primitives.js")))
    assert weighted(obs) == {"gate": 0.05, "length": 0.05, "embedded": 0.9}
    assert {c.name: c.status.value for c in obs.reward_components if c.weight == 0} == {
        "hpsv3": "not_configured",
        "judge": "not_configured",
        "gold": "not_configured",
        "witness": "not_configured",
    }


def weighted(obs) -> dict[str, float]:
    return {c.name: c.weight for c in obs.reward_components if c.status.value != "not_configured"}


@pytest.mark.parametrize(
    ("weights", "message"),
    [
        ({"gate": 0.5, "length": 0.4}, "sum to 1"),
        ({"gate": 0.5, "aesthetics": 0.5}, "unknown"),
        ({"gate": [1.0]}, "must be numbers"),
        ({"gate": 0.4, "judge": 0.6}, "no judge scorer"),
        ({"gate": 0.1, "hpsv3": 0.9}, "needs WATERCOLOUR_HPSV3_URL"),
        ("hps-led", "no hpsv3 scorer"),
        ("aesthetic", "unknown reward preset"),
    ],
)
def test_invalid_weights_at_reset_are_refused_with_a_reason(weights, message):
    from watercolour_env.errors import ConfigError

    env = WatercolourEnvironment(Renderer(workers=1), Rubric(RubricWeights(), starter_terms()))
    with pytest.raises(ConfigError, match=message):
        env.reset(seed=1, weights=weights)


def test_a_reply_holding_half_an_emoji_gets_an_observation_that_encodes():
    env = WatercolourEnvironment(Renderer(workers=1), Rubric(RubricWeights(), starter_terms()))
    env.reset(seed=1)
    # a JSON reply may carry "\ud83c"; the echoed sketch must still be sent (rejected before rendering)
    reply = "function setup() { createCanvas(600, 600, WEBGL); rect(0, 0, 9, 9); } // petal \ud83c"
    obs = env.step(WatercolourAction(reply=reply))
    assert obs.status is EpisodeStatus.REJECTED and obs.reward == 0.0
    assert "\ud83c" not in obs.model_dump_json()


def test_an_observation_the_server_cannot_encode_is_the_sketchs_failure_never_none():
    env = WatercolourEnvironment(Renderer(workers=1), Rubric(RubricWeights(), starter_terms()))
    env.reset(seed=1)
    unsendable = env._observation(reward=0.93, done=True, js_errors=["Error: \ud800"], detail="\udfff")
    obs = env._sendable(unsendable)
    assert obs.reward == 0.0 and obs.status is EpisodeStatus.REJECTED
    assert [v.value for v in obs.violations] == ["unencodable_observation"]
    obs.model_dump_json()


@pytest.mark.browser
def test_comments_padding_a_sketch_change_its_reward_by_nothing():
    with Renderer(workers=1) as renderer:
        env = WatercolourEnvironment(renderer, Rubric(RubricWeights(), starter_terms()))
        sketch = example("hibiscus.js")
        rewards = []
        for reply in (sketch, sketch + "\n// " + "a comment that pays nothing " * 450 + "\n" * 300):
            env.reset(seed=7)
            rewards.append(env.step(WatercolourAction(reply=reply)).reward)
    assert rewards[0] is not None and rewards[0] == rewards[1]


@pytest.mark.browser
def test_a_pool_sketch_sent_back_fails_the_gate_as_a_copy_unless_the_guard_is_off(renderer):
    from watercolour_env.pool import STARTER_POOL, Pool
    from watercolour_env.server.copies import CopyGuard

    pool = Pool.load(str(STARTER_POOL))
    love = pool.tier(pool.references[0].tier)[0]  # bloom-01, a love painting
    reply = f"Here is my painting.\n```js\n// my own\n{love.sketch}\n```"
    guarded = WatercolourEnvironment(renderer, Rubric(RubricWeights(), starter_terms()), copy_guard=CopyGuard(pool))
    guarded.reset(seed=0)
    obs = guarded.step(WatercolourAction(reply=reply))
    assert [v.value for v in obs.violations] == ["copied_reference"]
    assert obs.status is EpisodeStatus.REJECTED and obs.reward == 0.0
    assert obs.detail == f"copied_reference: {love.id} (source 1.00)"
    assert obs.paint_fraction > 0.05  # it was rendered: the picture is there to see
    unguarded = WatercolourEnvironment(renderer, Rubric(RubricWeights(), starter_terms()))
    unguarded.reset(seed=0)
    obs = unguarded.step(WatercolourAction(reply=reply))
    assert obs.status is EpisodeStatus.SCORED and obs.reward > 0.5
