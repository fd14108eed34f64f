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
