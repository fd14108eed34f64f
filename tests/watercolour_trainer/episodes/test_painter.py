"""The `paint` tool TRL's `environment_factory` drives, and the reward that finishes its episodes.

Against a real server: episodes with revisions, painted through the tool and finished by
`RevisionReward` as TRL calls it (completions as message lists, one environment each).
"""

import inspect
import json

import pytest

from tests.conftest import example, serving
from watercolour_trainer.episodes.painter import PaintingEpisode
from watercolour_trainer.episodes.revisions import RevisionReward
from watercolour_trainer.record.rollouts import RolloutLog

pytestmark = [pytest.mark.browser, pytest.mark.server]


@pytest.fixture(scope="module")
def server_url():
    from watercolour_env.server.app import build_app
    from watercolour_env.server.settings import load_settings

    app = build_app(load_settings(render_workers=2))
    try:
        with serving(app) as url:
            yield url
    finally:
        app.state.renderer.close()


def fenced(name: str) -> str:
    return f"Here it is.\n```js\n{example(name)}\n```"


def test_trl_sees_one_tool_paint_with_its_argument_described():
    from transformers.utils import get_json_schema

    public = [name for name, _ in inspect.getmembers(PaintingEpisode, predicate=inspect.isfunction) if name[0] != "_"]
    assert sorted(public) == ["paint", "reset"]  # TRL: every public function but reset is a tool; no get_reward
    schema = get_json_schema(PaintingEpisode.paint)["function"]
    assert schema["name"] == "paint" and schema["parameters"]["required"] == ["sketch"]
    assert "ten allowed brush methods" in schema["parameters"]["properties"]["sketch"]["description"]


def test_an_episode_of_three_paintings_through_the_tool(server_url):
    make = PaintingEpisode.factory(server_url, revisions=2, token="")
    episode = make()
    try:
        assert episode.reset(seed=5, subject="a peach hibiscus", prompt="ignored column") is None
        first = episode.paint(example("bare_primitives.js"))
        assert first.startswith("The gate refused this reply: it draws with p5's own shapes")
        assert first.endswith("You may revise it 2 more times.") and episode.reward is None
        assert episode.paint(example("trivial.js")).endswith("You may revise it 1 more time.")
        last = episode.paint(example("hibiscus.js"))
        assert last.endswith("That was the last painting of this episode.")
        assert [t.observation.status.value for t in episode.turns] == ["revise", "revise", "scored"]
        assert episode.done and episode.reward == episode.turns[-1].observation.reward > 0.5
        assert episode._finish("Done.") is episode.turns[-1].observation  # nothing more is painted
        with pytest.raises(ValueError, match="every revision is used"):
            episode.paint(example("hibiscus.js"))
        episode.reset(seed=5, subject="a peach hibiscus")  # TRL reuses an instance for the next rollout
        assert episode.turns == [] and episode.reward is None and not episode.done
    finally:
        episode._close()


def test_an_episode_left_open_is_finished_by_the_last_words_or_the_last_sketch(server_url):
    episode = PaintingEpisode(server_url, revisions=2, token="")
    try:
        episode.reset(seed=5, subject="a peach hibiscus")
        episode.paint(example("hibiscus.js"))
        judged = episode._finish("I am happy with it.")  # no sketch in the last words: the last painting again
        assert [t.observation.turn for t in episode.turns] == [1, 2] and episode.done
        assert episode.turns[1].reply == example("hibiscus.js") and judged.status.value == "scored"
        assert episode.reward == judged.reward > 0.5

        episode.reset(seed=5, subject="a peach hibiscus")
        episode.paint(example("hibiscus.js"))
        judged = episode._finish(fenced("bare_primitives.js"))  # a sketch in the last words is painted, final
        assert judged.status.value == "rejected" and judged.reward == 0.0 and len(episode.turns) == 2

        episode.reset(seed=5, subject="a peach hibiscus")
        judged = episode._finish("I would rather not paint.")  # nothing painted, nothing to paint: the gate's 0.0
        assert judged.status.value == "rejected" and judged.reward == 0.0
        assert "no_sketch" in [v.value for v in judged.violations]
    finally:
        episode._close()


def test_a_server_that_does_not_answer_leaves_the_episode_unscored_not_the_run_stopped():
    episode = PaintingEpisode("http://127.0.0.1:9", revisions=1, token="", timeout_s=5)
    assert episode.reset(seed=1, subject="a peach hibiscus") is None
    with pytest.raises(ValueError, match="unavailable"):
        episode.paint(example("hibiscus.js"))
    with pytest.raises(ConnectionError, match="cannot go on"):
        episode._finish("Done.")


def test_the_reward_finishes_each_episode_and_logs_its_turns(server_url, tmp_path):
    log = RolloutLog(tmp_path / "rollouts")
    reward = RevisionReward(server_url, num_generations=3, log=log, revisions=1)
    reward.check_configuration("a peach hibiscus")
    episodes = [reward.episode() for _ in range(3)]
    try:
        for episode in episodes:
            episode.reset(seed=11, subject="a peach hibiscus")
        episodes[0].paint(example("trivial.js"))
        episodes[0].paint(example("hibiscus.js"))  # both paintings through the tool
        episodes[1].paint(example("hibiscus.js"))  # one, then words
        call = {"type": "function", "function": {"name": "paint", "arguments": {"sketch": example("trivial.js")}}}
        completions = [
            [{"role": "assistant", "tool_calls": [call]}, {"role": "tool"}, {"role": "assistant", "content": "Done."}],
            [{"role": "assistant", "content": "", "tool_calls": [call]}, {"role": "assistant", "content": "Done."}],
            [{"role": "assistant", "content": fenced("hibiscus.js")}],  # no tool: its reply is its painting
        ]
        rewards = reward([], completions, episodes, seed=[11] * 3, subject=["a peach hibiscus"] * 3)
    finally:
        for episode in episodes:
            episode._close()
    assert rewards[0] == rewards[1] == rewards[2] > 0.5  # the same hibiscus judged last, on the same seed
    assert [len(e.turns) for e in episodes] == [2, 2, 1]
    assert reward.seconds > 0  # the tool's calls and the finishing count as the environment's time
    rows = [json.loads(line) for line in (tmp_path / "rollouts" / "rollouts.jsonl").read_text().splitlines()]
    assert [len(r["turns"]) for r in rows] == [2, 2, 1]
    assert [t["status"] for t in rows[0]["turns"]] == ["revise", "scored"]
    assert rows[0]["turns"][0]["critique"] and rows[0]["turns"][0]["sketch"] == example("trivial.js").strip()
    assert rows[2]["turns"][0]["status"] == "scored" and rows[2]["reward"] == rewards[2]
    assert rows[0]["completion"].startswith("[paint]\n// Trivial") and "[critique] " in rows[0]["completion"]


def test_a_tool_call_cut_short_is_judged_as_it_stands_and_a_repeat_is_marked(server_url):
    episode = PaintingEpisode(server_url, revisions=2, token="")
    try:
        episode.reset(seed=5, subject="a peach hibiscus")
        episode.paint(example("hibiscus.js"))
        cut = '<tool_call>\n{"name": "paint", "arguments": {"sketch": "function setup() {\\n  createCan'
        judged = episode._finish(cut)  # running out of tokens mid-revision is not the last painting again
        assert judged.status.value == "rejected" and judged.reward == 0.0
        assert [t.repeated for t in episode.turns] == [False, False]
        episode.reset(seed=5, subject="a peach hibiscus")
        episode.paint(example("hibiscus.js"))
        episode._finish("Done.")
        assert [t.record["repeated"] for t in episode.turns] == [False, True]
    finally:
        episode._close()


def test_an_episode_whose_replica_is_down_starts_on_another_and_stays_there(server_url):
    episode = PaintingEpisode("http://127.0.0.1:9", revisions=1, token="", timeout_s=5, others=(server_url,))
    try:
        episode.reset(seed=5, subject="a peach hibiscus")
        assert episode.base_url == server_url and episode.others == ("http://127.0.0.1:9",)
        assert episode.paint(example("hibiscus.js")).endswith("You may revise it 1 more time.")
    finally:
        episode._close()


def test_the_best_paintings_sketch_is_logged_with_its_reward_and_lone_surrogates_do_not_break_the_log(
    server_url, tmp_path
):
    log = RolloutLog(tmp_path / "rollouts")
    reward = RevisionReward(server_url, num_generations=1, log=log, revisions=1, revision_reward="best")
    reward.check_configuration("a peach hibiscus")
    episode = reward.episode()
    try:
        episode.reset(seed=11, subject="a peach hibiscus")
        episode.paint(example("hibiscus.js"))
        episode.paint(example("bare_primitives.js"))
        completion = [{"role": "assistant", "content": "Done \ud83c"}]  # a lone surrogate, as JSON can carry
        [paid] = reward([], [completion], [episode], seed=[11], subject=["a peach hibiscus"])
    finally:
        episode._close()
    row = json.loads((tmp_path / "rollouts" / "rollouts.jsonl").read_text())
    assert paid == row["reward"] > 0.5 and row["status"] == "scored"
    assert row["sketch"] == example("hibiscus.js").strip() and row["violations"] == []  # the painting paid
    assert row["image"] == "paintings/step0000-g00-p00.png"
    assert "Done ?" in row["completion"] and (tmp_path / "rollouts" / "gallery.html").is_file()


def test_a_vision_language_policy_sees_its_painting_with_the_critique(server_url):
    episode = PaintingEpisode(server_url, revisions=1, token="", images=True)
    try:
        episode.reset(seed=5, subject="a peach hibiscus")
        picture, words = episode.paint(example("hibiscus.js"))
        assert picture["type"] == "image" and picture["image"].size == (600, 600)
        assert words["type"] == "text" and words["text"].endswith("You may revise it 1 more time.")
        refused = episode.paint(example("bare_primitives.js"))  # refused before it rendered: words alone
        assert isinstance(refused, str) and refused.startswith("The gate refused this reply")
    finally:
        episode._close()
