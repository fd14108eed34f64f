"""A new reward term is one class and one `register` line: its settings, weight and status follow."""

import pytest
from pydantic import BaseModel, Field

from tests.conftest import example, serving
from watercolour_env.errors import ConfigError
from watercolour_env.server.reward import Term, Verdict, register, unregister
from watercolour_env.server.reward.rubric import PRESETS, preset
from watercolour_env.server.settings import load_settings, settings_class


class Sparkle(Term):
    """A throwaway term: every painting gets the configured level, when one is configured."""

    name = "sparkle"
    needs = "WATERCOLOUR_SPARKLE_LEVEL"

    class Options(BaseModel):
        level: float | None = Field(None, ge=0, le=1)

    def __init__(self, level: float) -> None:
        self.level = level

    @classmethod
    def build(cls, options, pool, weight):
        return None if options.level is None else cls(options.level)

    def score(self, painting):
        return Verdict(self.level, f"level {self.level}, seed {painting.seed}")


@pytest.fixture
def sparkle():
    register(Sparkle)
    yield
    unregister("sparkle")


def test_the_terms_weight_and_options_become_settings(sparkle, monkeypatch):
    monkeypatch.setenv("WATERCOLOUR_WEIGHT_EMBEDDED", "0.8")
    monkeypatch.setenv("WATERCOLOUR_WEIGHT_SPARKLE", "0.1")
    monkeypatch.setenv("WATERCOLOUR_SPARKLE_LEVEL", "0.7")
    settings = load_settings()
    assert settings.weight_sparkle == 0.1 and settings.sparkle_level == 0.7
    assert settings.term_options()["sparkle"].level == 0.7
    assert dict(settings.weights()) == {
        "gate": 0.05,
        "length": 0.05,
        "hpsv3": 0.0,
        "judge": 0.0,
        "embedded": 0.8,
        "gold": 0.0,
        "witness": 0.0,
        "sparkle": 0.1,
    }
    monkeypatch.setenv("WATERCOLOUR_SPARKLE_LEVEL", "7")
    with pytest.raises(ConfigError, match="WATERCOLOUR_SPARKLE_LEVEL: Input should be less than or equal to 1"):
        load_settings()
    monkeypatch.setenv("WATERCOLOUR_SPARKLE_LEVL", "0.7")
    with pytest.raises(ConfigError, match="did you mean WATERCOLOUR_SPARKLE_LEVEL"):
        load_settings()


def test_a_preset_that_does_not_name_the_term_gives_it_zero(sparkle):
    assert preset("hps-only")["sparkle"] == 0.0
    assert dict(preset("hps-only")) == {
        **dict.fromkeys(("hpsv3", "judge", "embedded", "gold", "witness", "sparkle"), 0.0),
        **PRESETS["hps-only"],
    }


def test_the_settings_class_drops_the_term_with_its_registration():
    register(Sparkle)
    assert "sparkle_level" in settings_class().model_fields
    unregister("sparkle")
    assert "sparkle_level" not in settings_class().model_fields
    assert "weight_sparkle" not in settings_class().model_fields


@pytest.mark.server
@pytest.mark.browser
def test_the_server_serves_the_term_with_its_weight_and_status(sparkle):
    from watercolour_env import EpisodeStatus, WatercolourAction, WatercolourEnv
    from watercolour_env.server.app import build_app

    app = build_app(load_settings(weight_embedded=0.8, weight_sparkle=0.1, sparkle_level=0.7, render_workers=1))
    try:
        with serving(app) as url, WatercolourEnv(base_url=url, message_timeout_s=60).sync() as env:
            env.reset(seed=5)
            deployed = env.step(WatercolourAction(reply=example("hibiscus.js"))).observation
            env.reset(seed=5, weights={"gate": 0.5, "sparkle": 0.5})
            asked = env.step(WatercolourAction(reply=example("hibiscus.js")))
    finally:
        app.state.renderer.close()
    by_name = {c.name: c for c in deployed.reward_components}
    assert deployed.status is EpisodeStatus.SCORED
    assert by_name["sparkle"].value == 0.7 and by_name["sparkle"].weight == 0.1
    assert by_name["sparkle"].contribution == pytest.approx(0.07)
    assert by_name["sparkle"].status.value == "ok" and by_name["sparkle"].detail == "level 0.7, seed 5"
    assert deployed.reward == pytest.approx(sum(c.contribution for c in deployed.reward_components))
    # gate 0.5 x 1 + sparkle 0.5 x 0.7, nothing else weighed
    assert asked.reward == pytest.approx(0.85)


@pytest.mark.server
@pytest.mark.browser
def test_a_term_the_deployment_did_not_set_up_is_not_configured_and_cannot_be_weighed(sparkle):
    from watercolour_env import WatercolourAction, WatercolourEnv
    from watercolour_env.server.app import build_app

    with pytest.raises(ConfigError, match=r"no sparkle scorer \(it needs WATERCOLOUR_SPARKLE_LEVEL\)"):
        build_app(load_settings(weight_embedded=0.8, weight_sparkle=0.1, render_workers=1))
    app = build_app(load_settings(render_workers=1))
    try:
        with serving(app) as url, WatercolourEnv(base_url=url, message_timeout_s=60).sync() as env:
            env.reset(seed=5)
            obs = env.step(WatercolourAction(reply=example("hibiscus.js"))).observation
            with pytest.raises(Exception, match="no sparkle scorer"):
                env.reset(seed=5, weights={"gate": 0.5, "sparkle": 0.5})
    finally:
        app.state.renderer.close()
    assert {c.name: c.status.value for c in obs.reward_components}["sparkle"] == "not_configured"
