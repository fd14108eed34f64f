"""HPSv3 in the reward: the client and the rubric against the real scorer Space (tiny random model
of the real architecture, in the Space's own venv) and the judge against its scripted server."""

import asyncio
import math
import socket

import httpx
import pytest
from fastapi import FastAPI, Request

from tests.conftest import example, expected_outcomes, serving
from tests.watercolour_env.server.reward.conftest import candidate_png, passed_gate, reply, scripted_judge, starter_pool
from watercolour_env import EpisodeStatus, WatercolourAction, WatercolourEnv
from watercolour_env.models import ScoreStatus
from watercolour_env.server.reward.hpsv3 import HPSv3Client, HPSv3Term
from watercolour_env.server.reward.judge import JudgeTerm
from watercolour_env.server.reward.length import LengthTerm
from watercolour_env.server.reward.pairwise import PairwiseJudge
from watercolour_env.server.reward.rubric import Rubric, preset

pytestmark = pytest.mark.server


def dead_url() -> str:
    """A loopback URL where nothing listens (connections are refused at once)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return f"http://127.0.0.1:{s.getsockname()[1]}"


def test_the_client_gets_mu_sigma_and_the_bounded_score(hpsv3_space):
    url, token = hpsv3_space
    verdict = HPSv3Client(url, token).score(candidate_png())
    assert verdict.available and 0.0 < verdict.value < 1.0 and verdict.sigma > 0
    assert verdict.value == pytest.approx(1 / (1 + math.exp(-verdict.mu / 4)))
    assert HPSv3Client(url, token).score(candidate_png()).mu == pytest.approx(verdict.mu, abs=1e-6)


def test_a_wrong_token_is_unavailable_at_once_not_retried(hpsv3_space):
    url, _ = hpsv3_space
    verdict = HPSv3Client(url, "wrong", retries=5).score(candidate_png())
    assert verdict.value is None and verdict.detail.startswith("HTTP 401")


def test_an_unreachable_space_is_unavailable_after_its_retries():
    verdict = HPSv3Client(dead_url(), retries=1).score(candidate_png())
    assert verdict.value is None and "ConnectError" in verdict.detail


def test_a_space_still_loading_is_retried_then_unavailable():
    """The Space app itself (no model needed to stay in "loading"), served from the main venv."""
    import threading

    from hpsv3_space.app import Settings, create_app

    release = threading.Event()

    def never_loads(settings):
        release.wait(30)
        raise RuntimeError("released")

    try:
        with serving(create_app(Settings(), loader=never_loads)) as url:
            assert httpx.get(f"{url}/health").json()["status"] == "loading"
            verdict = HPSv3Client(url, retries=1).score(candidate_png())
    finally:
        release.set()
    assert verdict.value is None and verdict.detail.startswith("HTTP 503") and "still loading" in verdict.detail


def test_the_rubric_weighs_hpsv3_and_reports_mu_and_sigma(hpsv3_space):
    url, token = hpsv3_space
    score = Rubric(preset("hps-only"), [LengthTerm(), HPSv3Term(HPSv3Client(url, token))]).score(passed_gate(), seed=3)
    by_name = {c.name: c for c in score.components}
    assert by_name["hpsv3"].status is ScoreStatus.OK and by_name["hpsv3"].weight == 0.9
    assert by_name["hpsv3"].detail.startswith("mu ")
    assert by_name["judge"].status is ScoreStatus.NOT_CONFIGURED
    assert score.reward == pytest.approx(sum(c.contribution for c in score.components))


def test_a_space_that_does_not_answer_makes_the_reward_none_not_a_smaller_sum():
    score = Rubric(preset("hps-only"), [LengthTerm(), HPSv3Term(HPSv3Client(dead_url(), retries=0))]).score(
        passed_gate(), seed=3
    )
    by_name = {c.name: c for c in score.components}
    assert score.reward is None
    assert by_name["hpsv3"].status is ScoreStatus.UNAVAILABLE and "ConnectError" in by_name["hpsv3"].detail
    assert by_name["gate"].status is ScoreStatus.OK


def test_hpsv3_and_the_judge_score_the_same_render_concurrently(hpsv3_space):
    """The rubric asks the judge first; this judge answers only once HPSv3 has been asked too, so
    a rubric that waited for the judge before asking HPSv3 would get no verdict (reward None)."""
    url, token = hpsv3_space
    headers = {"Authorization": f"Bearer {token}"}

    def hpsv3_requests() -> int:
        return httpx.get(f"{url}/info", headers=headers).json()["counters"]["requests"]

    before = hpsv3_requests()
    app = FastAPI()

    @app.post("/v1/chat/completions")
    async def chat(request: Request):
        body = await request.json()
        for _ in range(100):
            if await asyncio.to_thread(hpsv3_requests) > before:
                return reply('{"winner": "A", "reason": "first"}', body["model"])
            await asyncio.sleep(0.05)
        return reply("I gave up waiting", body["model"])

    with serving(app) as judge_url:
        from openai import OpenAI

        judge = PairwiseJudge(
            OpenAI(base_url=f"{judge_url}/v1", api_key="t", max_retries=0), "waits", malformed_retries=0
        )
        terms = [LengthTerm(), JudgeTerm(judge, starter_pool(), references=1), HPSv3Term(HPSv3Client(url, token))]
        rubric = Rubric(preset("judge-led"), terms)
        score = rubric.score(passed_gate(), seed=3)
    assert score.reward is not None, score.components
    assert {c.name: c.value for c in score.components}["judge"] == 0.5


@pytest.mark.browser
def test_a_real_server_with_judge_and_hpsv3_scores_the_examples(hpsv3_space):
    from watercolour_env.server.app import build_app
    from watercolour_env.server.settings import load_settings

    url, token = hpsv3_space
    with serving(scripted_judge([])) as judge_url:
        settings = load_settings(
            preset="judge-led",
            judge_base_url=f"{judge_url}/v1",
            judge_model="prefers-candidate",
            judge_token="x",
            hpsv3_url=url,
            hpsv3_token=token,
            render_workers=2,
            references_per_episode=2,
        )
        app = build_app(settings)
        try:
            with serving(app) as env_url, WatercolourEnv(base_url=env_url, message_timeout_s=120).sync() as env:
                for name, expected in sorted(expected_outcomes().items()):
                    env.reset(seed=4)
                    result = env.step(WatercolourAction(reply=example(name)))
                    obs = result.observation
                    by_name = {c.name: c for c in obs.reward_components}
                    assert [v.value for v in obs.violations] == expected["violations"], name
                    if not expected["passed"]:
                        assert obs.status is EpisodeStatus.REJECTED and result.reward == 0.0, name
                        assert by_name["hpsv3"].status.value == by_name["judge"].status.value == "skipped_by_gate"
                        continue
                    assert obs.status is EpisodeStatus.SCORED, name
                    assert {n: c.status.value for n, c in by_name.items()} == {
                        "gate": "ok",
                        "length": "ok",
                        "hpsv3": "ok",
                        "judge": "ok",
                        "gold": "not_configured",
                        "witness": "ok",
                    }
                    assert (by_name["hpsv3"].weight, by_name["judge"].weight) == (0.3, 0.6)
                    assert 0 < by_name["hpsv3"].value < 1 and by_name["hpsv3"].detail.startswith("mu ")
                    assert by_name["judge"].value == 0.5 and by_name["judge"].detail == "4 ok"  # position bias
                    assert result.reward == pytest.approx(sum(c.contribution for c in obs.reward_components))

                env.reset(seed=4)
                obs = env.step(WatercolourAction(reply=example("bare_primitives.js"))).observation
                assert obs.reward == 0.0
                assert {c.name: c.status.value for c in obs.reward_components}["hpsv3"] == "skipped_by_gate"

                env.reset(seed=4, weights="hps-only")
                obs = env.step(WatercolourAction(reply=example("hibiscus.js"))).observation
                assert [c.name for c in obs.reward_components if c.weight > 0] == ["gate", "length", "hpsv3"]
        finally:
            app.state.renderer.close()


@pytest.mark.browser
def test_a_server_whose_space_is_down_reports_infra_error_with_reward_none():
    from watercolour_env.server.app import build_app
    from watercolour_env.server.settings import load_settings

    app = build_app(load_settings(preset="hps-only", hpsv3_url=dead_url(), hpsv3_retries=0, render_workers=1))
    try:
        with serving(app) as env_url:
            with WatercolourEnv(base_url=env_url, message_timeout_s=60).sync() as env:
                env.reset(seed=4)
                result = env.step(WatercolourAction(reply=example("hibiscus.js")))
            from tests.conftest import episode

            unscored = episode(env_url)  # the command line says so in its exit code
            assert unscored.returncode == 3 and '"status": "infra_error"' in unscored.stdout
            assert unscored.stderr.strip().splitlines()[-1].endswith("; try again")  # one line saying what to do
    finally:
        app.state.renderer.close()
    assert result.reward is None and result.observation.status is EpisodeStatus.INFRA_ERROR
    hpsv3 = {c.name: c for c in result.observation.reward_components}["hpsv3"]
    assert hpsv3.status is ScoreStatus.UNAVAILABLE and "ConnectError" in hpsv3.detail


@pytest.mark.browser
def test_a_wrong_token_or_a_url_that_is_no_scorer_refuses_to_start(hpsv3_space):
    from watercolour_env.errors import ConfigError
    from watercolour_env.server.app import build_app
    from watercolour_env.server.settings import load_settings

    url, _ = hpsv3_space
    with pytest.raises(ConfigError, match="refuses the token; set WATERCOLOUR_HPSV3_TOKEN"):
        build_app(load_settings(preset="hps-only", hpsv3_url=url, hpsv3_token="wrong"))
    with serving(scripted_judge([])) as other, pytest.raises(ConfigError, match="is not an HPSv3 scorer"):
        build_app(load_settings(preset="hps-only", hpsv3_url=other))


def test_the_space_wants_json():

    from hpsv3_space.app import Settings, create_app

    with serving(create_app(Settings(), loader=lambda s: (_ for _ in ()).throw(RuntimeError("no model")))) as url:
        response = httpx.post(f"{url}/score", files={"file": ("a.png", candidate_png(), "image/png")})
    assert response.status_code == 415 and "application/json" in response.text
