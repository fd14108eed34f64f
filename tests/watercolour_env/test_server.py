"""The real server over its real websocket: the example sketches, options, the contract."""

import base64
import hashlib
from concurrent.futures import ThreadPoolExecutor

import pytest

from tests.conftest import example, expected_outcomes, slow_sketch
from watercolour_env import EpisodeStatus, WatercolourAction, WatercolourEnv
from watercolour_env.prompt import SYSTEM_PROMPT
from watercolour_env.sketch import ALLOWED_BRUSH_METHODS

pytestmark = [pytest.mark.server, pytest.mark.browser]


def run_episode(url: str, reply: str, seed: int = 5, **options):
    with WatercolourEnv(base_url=url, message_timeout_s=60).sync() as env:
        env.reset(seed=seed, **options)
        return env.step(WatercolourAction(reply=reply))


@pytest.mark.parametrize(("name", "expected"), sorted(expected_outcomes().items()))
def test_each_example_sketch_gives_its_expected_outcome_through_the_server(server_url, name, expected):
    result = run_episode(server_url, example(name))
    obs = result.observation
    assert [v.value for v in obs.violations] == expected["violations"]
    assert (obs.status is EpisodeStatus.SCORED) == expected["passed"]
    assert result.done
    if expected["passed"]:
        assert 0.0 < result.reward <= 1.0
        assert obs.paint_fraction > 0 and obs.render_ms > 0
        assert {c.name: c.status.value for c in obs.reward_components} == {
            "gate": "ok",
            "length": "ok",
            "embedded": "ok",
            "witness": "ok",
            "gold": "not_configured",
            "hpsv3": "not_configured",
            "judge": "not_configured",
        }
    else:
        assert result.reward == 0.0


def test_reset_hands_the_system_prompt_subject_and_seed(server_url):
    with WatercolourEnv(base_url=server_url).sync() as env:
        obs = env.reset(seed=11, subject="a white hibiscus").observation
    assert obs.status is EpisodeStatus.READY and obs.reward is None
    assert obs.seed == 11 and obs.subject == "a white hibiscus"
    assert obs.system_prompt == SYSTEM_PROMPT
    assert all(f"brush.{m}" in obs.system_prompt for m in ALLOWED_BRUSH_METHODS)
    assert "a white hibiscus" in obs.prompt


def test_the_png_comes_back_only_when_asked_and_is_the_same_for_the_same_seed(server_url):
    without = run_episode(server_url, example("hibiscus.js"), seed=9)
    first = run_episode(server_url, example("hibiscus.js"), seed=9, return_image=True)
    second = run_episode(server_url, example("hibiscus.js"), seed=9, return_image=True)
    assert without.observation.image_png_b64 is None
    png = base64.b64decode(first.observation.image_png_b64)
    assert png[1:4] == b"PNG"
    assert hashlib.sha256(png).digest() == hashlib.sha256(base64.b64decode(second.observation.image_png_b64)).digest()


def test_step_before_reset_is_an_error(server_url):
    with WatercolourEnv(base_url=server_url).sync() as env, pytest.raises(Exception, match="reset"):
        env.step(WatercolourAction(reply=example("trivial.js")))


def test_concurrent_sessions_each_get_their_own_episode(server_url):
    names = ["trivial.js", "hibiscus.js", "bare_primitives.js", "throws_in_draw.js"]
    with ThreadPoolExecutor(max_workers=4) as pool:
        results = list(pool.map(lambda n: run_episode(server_url, example(n)), names))
    assert [r.observation.status for r in results] == [
        EpisodeStatus.SCORED,
        EpisodeStatus.SCORED,
        EpisodeStatus.REJECTED,
        EpisodeStatus.REJECTED,
    ]


def test_weights_at_reset_travel_over_the_websocket(server_url):
    with WatercolourEnv(base_url=server_url, message_timeout_s=60).sync() as env:
        env.reset(seed=2, weights={"gate": 0.5, "length": 0.0, "embedded": 0.5})
        result = env.step(WatercolourAction(reply=example("hibiscus.js")))
    by_name = {c.name: c for c in result.observation.reward_components}
    assert by_name["gate"].weight == 0.5 and by_name["embedded"].weight == 0.5
    assert result.reward == pytest.approx(0.5 + 0.5 * by_name["embedded"].value)


@pytest.mark.parametrize(
    ("body", "violation"),
    [("if (false) createCanvas(1e999, 600, WEBGL);", "canvas_size"), ("const s = '\ud800';", "unparseable")],
    ids=["overflowing literal", "lone surrogate"],
)
def test_a_reply_that_broke_the_source_check_is_rejected_with_the_fail_reward(server_url, body, violation):
    # before, both came back as the server's own execution error: reward None, advantage 0,
    # a way for a policy to dodge the penalty its other violations earned
    reply = "function setup() { createCanvas(600, 600, WEBGL); " + body + " brush.circle(300, 300, 60); }"
    result = run_episode(server_url, reply)
    assert result.observation.status is EpisodeStatus.REJECTED
    assert [v.value for v in result.observation.violations] == [violation]
    assert result.reward == 0.0


def test_metadata_names_the_environment_its_version_and_its_card(server_url):
    import tomllib

    import httpx
    import yaml

    from tests.conftest import REPO

    about = httpx.get(f"{server_url}/metadata", timeout=30).json()
    manifest = yaml.safe_load((REPO / "envs" / "watercolour_env" / "openenv.yaml").read_text())
    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    assert about["name"] == manifest["name"] == "watercolour_env"
    assert about["version"] == manifest["version"] == project["version"]
    assert about["readme_content"].startswith("Env card.") and "Episode end" in about["readme_content"]


def test_every_field_of_the_servers_observation_schema_is_one_the_client_parses(server_url):
    import httpx

    from watercolour_env.models import WatercolourObservation

    schema = httpx.get(f"{server_url}/schema", timeout=30).json()
    assert set(schema["observation"]["properties"]) == set(WatercolourObservation.model_fields)
    with WatercolourEnv(base_url=server_url, message_timeout_s=60).sync() as env:
        env.reset(seed=2, return_image=True)
        observation = env.step(WatercolourAction(reply=example("hibiscus.js"))).observation
    assert observation.image_png_b64 and observation.reward_components and observation.renderer  # all parsed


def test_after_a_receive_timeout_the_client_drops_the_socket_instead_of_reading_the_late_reply(server_url):
    import time

    # OpenEnv 0.10's client closes the socket on a timeout (checked here, not assumed): the late
    # step observation must never come back as the answer to the next reset on the same client.
    # The step is slow on purpose (a sketch that waits 1.5 s), whatever the machine's speed.
    with WatercolourEnv(base_url=server_url, message_timeout_s=0.5).sync() as env:
        env.reset(seed=11)
        with pytest.raises(TimeoutError):
            env.step(WatercolourAction(reply=slow_sketch(1500)))
        time.sleep(3.0)  # the late reply has been written by now
        again = env.reset(seed=12)
    assert again.observation.status is EpisodeStatus.READY and again.observation.seed == 12
    assert again.observation.sketch is None and again.reward is None
