"""The `paint` tool TRL's `environment_factory` drives: an episode with revisions, against a real server."""

import inspect

import pytest

from tests.conftest import example, serving
from watercolour_trainer.painter import PaintingEpisode

pytestmark = [pytest.mark.browser, pytest.mark.server]


@pytest.fixture(scope="module")
def server_url():
    from watercolour_env.server.app import build_app
    from watercolour_env.server.settings import load_settings

    app = build_app(load_settings(render_workers=1))
    try:
        with serving(app) as url:
            yield url
    finally:
        app.state.renderer.close()


def test_trl_sees_one_tool_paint_with_its_argument_described():
    from transformers.utils import get_json_schema

    public = [name for name, _ in inspect.getmembers(PaintingEpisode, predicate=inspect.isfunction) if name[0] != "_"]
    assert sorted(public) == ["get_reward", "paint", "reset"]  # TRL: every public function but these two is a tool
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
        assert first.endswith("You may revise it 2 more times.") and episode.get_reward() is None
        assert episode.paint(example("trivial.js")).endswith("You may revise it 1 more time.")
        last = episode.paint(example("hibiscus.js"))
        assert last.endswith("That was the last painting of this episode.")
        assert [t.status for t in episode.turns] == ["revise", "revise", "scored"]
        assert episode.get_reward() == episode.turns[-1].reward > 0.5
        with pytest.raises(ValueError, match="every revision is used"):
            episode.paint(example("hibiscus.js"))
        episode.reset(seed=5, subject="a peach hibiscus")  # TRL reuses an instance for the next rollout
        assert episode.turns == [] and episode.get_reward() is None
    finally:
        episode._close()
