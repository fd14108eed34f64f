"""The red-team corpus through the real server: every hack is rejected, scored 0.0, and named.

The gate's first pass catches many of them from the source; the rest the sandbox blocks while the
sketch runs. The ones that have no effect at all (a frozen built-in, a forged report) are scored
like the same sketch without the attempt.
"""

import base64
import json

import pytest

from tests.conftest import REPO
from watercolour_env import EpisodeStatus, WatercolourAction, WatercolourEnv

pytestmark = [pytest.mark.server, pytest.mark.browser]

HACKS = REPO / "spaces" / "env" / "validation" / "canaries"  # the Space validates with them too
EXPECTED = json.loads((HACKS / "expected.json").read_text())


def episode(url: str, reply: str):
    with WatercolourEnv(base_url=url, message_timeout_s=60).sync() as env:
        # seed 0 paints with the stream seed 1 had before issue 32, where a 60 px circle clears the paint floor
        env.reset(seed=0, return_image=True)
        return env.step(WatercolourAction(reply=reply))


@pytest.mark.parametrize(("name", "expected"), sorted(EXPECTED.items()))
def test_each_hack_gets_its_violation_through_the_server(server_url, name, expected):
    source = (HACKS / name).read_text()
    result = episode(server_url, source)
    obs = result.observation
    if expected["server"] == "scored_like_twin":
        # the attempt replaced by a comment as long, so the length term is the same
        attempt = expected["same_as_without"]
        twin = episode(server_url, source.replace(attempt, "//" + "." * (len(attempt) - 3) + "\n")).observation
        assert obs.status is EpisodeStatus.SCORED and obs.violations == twin.violations == []
        assert base64.b64decode(obs.image_png_b64) == base64.b64decode(twin.image_png_b64)
        assert result.reward == twin.reward
        return
    assert obs.status is EpisodeStatus.REJECTED, (obs.violations, obs.detail)
    assert result.reward == 0.0
    assert expected["server"] in [v.value for v in obs.violations], (obs.violations, obs.detail)


def test_a_reply_that_made_the_fence_pattern_backtrack_gets_its_verdict_through_the_server(server_url):
    # one fence and a letter repeated to the reply limit: 11 s of extraction under the old pattern
    result = episode(server_url, "```" + "a" * (262_144 - 3))
    assert result.observation.status is EpisodeStatus.REJECTED and result.reward == 0.0
    assert [v.value for v in result.observation.violations] == ["no_sketch"]


def test_error_text_comes_back_cut_and_encodable_through_the_server(server_url):
    obs = episode(server_url, (HACKS / "redteam8_huge_error.js").read_text()).observation
    assert [len(e) for e in obs.js_errors] == [2000]  # "Error: " and 1,993 of 30,000,000 x's
    assert obs.js_errors[0] == "Error: " + "x" * 1993
    obs = episode(server_url, (HACKS / "redteam8_lone_surrogate_error.js").read_text()).observation
    assert obs.js_errors == ["Error: petal \ufffd done"]
