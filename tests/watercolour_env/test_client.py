"""The client's helpers that need no server."""

import pytest

from watercolour_env.client import parse_reward_weights
from watercolour_env.errors import ConfigError


def test_reward_weights_are_json_or_a_preset_name_passed_as_is():
    assert parse_reward_weights('{"gate": 0.1, "embedded": 0.9}') == {"gate": 0.1, "embedded": 0.9}
    assert parse_reward_weights("  hps-led \n") == "hps-led"
    assert [parse_reward_weights(text) for text in ("", "  ", None)] == [None, None, None]
    with pytest.raises(ConfigError, match=r"""weights '\{"gate": \}' are not JSON \(Expecting value at column 10\)"""):
        parse_reward_weights('{"gate": }')


def test_the_client_waits_out_the_servers_default_episode_deadline_and_more():
    from watercolour_env import WatercolourEnv
    from watercolour_env.limits import DEFAULT_EPISODE_DEADLINE_S

    # OpenEnv's own default is 60 s, half the server's 120 s deadline: a slow step that the
    # server would still answer (an infra_error at worst) was a client-side timeout
    waits = WatercolourEnv(base_url="http://127.0.0.1:9")._message_timeout
    assert waits == 150.0 and waits > DEFAULT_EPISODE_DEADLINE_S == 120.0
    assert WatercolourEnv(base_url="http://127.0.0.1:9", message_timeout_s=400)._message_timeout == 400


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"seed": -1}, r"seed must be an integer in \[0, 4294967295\] or null, not '-1'"),
        ({"seed": True}, "seed must be an integer"),
        ({"subject": "x" * 201}, r"at most 200 printable characters \(201 given\)"),
        ({"references": 33}, r"references must be an integer in \[1, 32\]"),
        ({"seeds": 3}, r"unknown reset option\(s\) seeds; reset takes seed, episode_id, subject"),
        ({"seed": 10**5000}, r"seed must be an integer in \[0, 4294967295\] or null, not 'a int too long to show'"),
        ({"subject": "rose\u200b"}, r"character 4 \('\\u200b'\) is a control or invisible one"),
    ],
)
def test_the_client_refuses_a_bad_reset_option_before_any_round_trip(options, message):
    from watercolour_env import WatercolourEnv
    from watercolour_env.errors import InvalidOption

    env = WatercolourEnv(base_url="http://127.0.0.1:9")  # nothing listens there: no connection is tried
    with pytest.raises(InvalidOption, match=message):
        env.reset(**options)


def test_the_reset_options_take_the_deployments_choice_when_none():
    from watercolour_env.models import ResetOptions

    assert ResetOptions.check().model_dump() == {
        "seed": None,
        "episode_id": None,
        "subject": None,
        "return_image": False,
        "weights": None,
        "references": None,
        "revisions": 0,
        "revision_reward": "last",
        "oracle": False,
    }
    given = ResetOptions.check(seed=4294967295, subject="a peach hibiscus", weights="hps-led", references=32)
    assert (given.seed, given.subject, given.weights, given.references) == (
        4294967295,
        "a peach hibiscus",
        "hps-led",
        32,
    )
