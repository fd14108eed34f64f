import asyncio

import pytest

from tests.conftest import example
from watercolour_trainer.demo import free_port
from watercolour_trainer.episodes.rewards import ConfigurationRefused, EnvironmentReward, completion_text
from watercolour_trainer.record.rollouts import RolloutLog


def test_chat_completions_and_plain_strings_give_the_same_text():
    assert completion_text([{"role": "assistant", "content": "abc"}]) == completion_text("abc") == "abc"


@pytest.mark.server
@pytest.mark.browser
def test_a_group_is_scored_through_the_server_and_every_rollout_is_kept(server_url, tmp_path):
    log = RolloutLog(tmp_path)
    reward = EnvironmentReward(server_url, num_generations=3, log=log)
    completions = [example("hibiscus.js"), example("bare_primitives.js"), example("trivial.js")]
    rewards = asyncio.run(
        reward(prompts=["p"] * 3, completions=completions, seed=[7, 7, 7], subject=["a peach hibiscus"] * 3)
    )
    assert rewards[1] == 0.0
    assert 0 < rewards[0] <= 1 and 0 < rewards[2] <= 1
    kept = log.rollouts
    assert [(r.group, r.position) for r in kept] == [(0, 0), (0, 1), (0, 2)]
    assert {r.seed for r in kept} == {7}
    assert all(r.prompt.startswith("Paint a peach hibiscus") for r in kept)  # the prompt the policy saw
    assert kept[0].image and (tmp_path / kept[0].image).is_file()
    assert kept[1].violations == ["bare_primitive", "no_brush_paint"] and kept[1].image is None
    assert (tmp_path / "gallery.html").is_file() and (tmp_path / "curve.csv").is_file()


@pytest.mark.server
@pytest.mark.browser
def test_comments_padding_a_completion_change_its_reward_by_nothing(server_url):
    # the trainer counts the sketch's code in the policy's tokens (here: characters), comments left out
    reward = EnvironmentReward(server_url, num_generations=2, count_tokens=len)
    sketch = example("hibiscus.js")
    padded = "// a watercolour of a hibiscus, " + "petal " * 2000 + "\n" + sketch.replace("\n", "\n\n// more\n")
    rewards = asyncio.run(reward(prompts=["p"] * 2, completions=[sketch, padded], seed=[7, 7]))
    assert rewards[0] is not None and rewards[0] == rewards[1]


def test_a_server_that_does_not_answer_gives_none_not_zero(tmp_path):
    reward = EnvironmentReward(
        f"http://127.0.0.1:{free_port()}", num_generations=2, log=RolloutLog(tmp_path), timeout_s=5
    )
    rewards = asyncio.run(reward(prompts=["p"] * 2, completions=[example("trivial.js")] * 2, seed=[1, 1]))
    assert rewards == [None, None]
    assert [r.status for r in reward.log.rollouts] == ["infra_error", "infra_error"]


@pytest.mark.server
@pytest.mark.browser
def test_a_refused_configuration_stops_the_run_with_the_servers_message(server_url):
    # the test server has no HPSv3 Space, so weighing it is a configuration the server refuses
    reward = EnvironmentReward(server_url, num_generations=2, weights="hps-only")
    with pytest.raises(ConfigurationRefused, match="hpsv3"):
        reward.check_configuration("a peach hibiscus")
    with pytest.raises(ConfigurationRefused, match="hpsv3"):
        asyncio.run(reward(prompts=["p"] * 2, completions=[example("trivial.js")] * 2, seed=[1, 1]))


def test_a_step_with_too_many_unscored_rollouts_logs_an_error_with_the_reasons_counted(tmp_path, caplog):
    url = f"http://127.0.0.1:{free_port()}"
    reward = EnvironmentReward(url, num_generations=4, timeout_s=5, max_unscored_share=0.25)
    with caplog.at_level("ERROR", logger="watercolour_trainer.episodes.rewards"):
        assert (
            asyncio.run(reward(prompts=["p"] * 4, completions=[example("trivial.js")] * 4, seed=[1] * 4)) == [None] * 4
        )
    errors = [r.getMessage() for r in caplog.records if r.levelname == "ERROR"]
    assert len(errors) == 1
    assert "4 of 4 rollouts unscored (over 25%)" in errors[0] and "4 x ConnectionError" in errors[0]


@pytest.fixture(scope="module")
def one_session_server():
    """A real server that holds one session at a time."""
    from tests.conftest import app_server

    with app_server(render_workers=1, render_deadline_s=10, max_concurrent_envs=1) as url:
        yield url


@pytest.mark.server
@pytest.mark.browser
def test_a_server_at_its_session_limit_is_asked_again_until_a_session_frees(one_session_server, tmp_path):
    import threading

    from watercolour_env import WatercolourEnv

    held = WatercolourEnv(base_url=one_session_server).sync()
    held.connect()
    held.reset(seed=1)  # the only session
    threading.Timer(2.0, held.close).start()  # frees it 2 s into the rollout's tries
    reward = EnvironmentReward(one_session_server, num_generations=1, log=RolloutLog(tmp_path), timeout_s=30)
    [value] = asyncio.run(reward(prompts=["p"], completions=[example("trivial.js")], seed=[3]))
    assert value is not None and 0 < value <= 1
    assert reward.log.rollouts[0].status == "scored"


@pytest.mark.server
@pytest.mark.browser
def test_a_server_that_stays_at_its_limit_past_the_deadline_leaves_the_rollout_unscored(one_session_server, tmp_path):
    import time

    from watercolour_env import WatercolourEnv

    with WatercolourEnv(base_url=one_session_server).sync() as held:
        held.reset(seed=1)
        reward = EnvironmentReward(one_session_server, num_generations=1, log=RolloutLog(tmp_path), timeout_s=3)
        started = time.monotonic()
        [value] = asyncio.run(reward(prompts=["p"], completions=[example("trivial.js")], seed=[3]))
        waited = time.monotonic() - started
    assert value is None and 2.5 <= waited < 10  # tried for its 3 s, then gave up
    rollout = reward.log.rollouts[0]
    assert rollout.status == "infra_error" and "CAPACITY_REACHED" in rollout.detail


@pytest.mark.server
@pytest.mark.browser
def test_trls_completion_table_gets_each_rollouts_status_violations_errors_and_components(server_url):
    columns: dict[str, list] = {}
    metrics: dict[str, float] = {}
    reward = EnvironmentReward(server_url, num_generations=3)
    completions = [example("hibiscus.js"), example("bare_primitives.js"), example("throws_in_draw.js")]
    asyncio.run(
        reward(
            prompts=["p"] * 3,
            completions=completions,
            seed=[7] * 3,
            log_extra=columns.__setitem__,
            log_metric=metrics.__setitem__,
        )
    )
    assert columns["status"] == ["scored", "rejected", "rejected"]
    assert columns["violations"][1] == "bare_primitive,no_brush_paint"
    assert columns["js_errors"][0] == "" and columns["js_errors"][2] != ""  # the sketch that throws
    assert columns["embedded"][0] is not None and columns["embedded"][1] is None  # the gate stopped it
    assert metrics["env/gate_fail_share"] == pytest.approx(2 / 3) and metrics["env/unscored_share"] == 0
