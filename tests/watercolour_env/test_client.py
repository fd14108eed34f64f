"""The client's helpers that need no server."""

import json

import pytest

from watercolour_env.client import parse_reward_weights


def test_reward_weights_are_json_or_a_preset_name_passed_as_is():
    assert parse_reward_weights('{"gate": 0.1, "embedded": 0.9}') == {"gate": 0.1, "embedded": 0.9}
    assert parse_reward_weights("  hps-led \n") == "hps-led"
    assert [parse_reward_weights(text) for text in ("", "  ", None)] == [None, None, None]
    with pytest.raises(json.JSONDecodeError):
        parse_reward_weights('{"gate": }')
