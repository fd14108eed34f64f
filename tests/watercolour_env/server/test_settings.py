import pytest

from watercolour_env.errors import ConfigError
from watercolour_env.server.settings import load_settings


def test_weights_that_do_not_sum_to_one_refuse_to_start_and_name_the_variables(monkeypatch):
    monkeypatch.setenv("WATERCOLOUR_WEIGHT_EMBEDDED", "0.5")
    with pytest.raises(ConfigError, match="WATERCOLOUR_WEIGHT_EMBEDDED"):
        load_settings()


def test_settings_are_read_from_watercolour_variables(monkeypatch):
    monkeypatch.setenv("WATERCOLOUR_RENDER_WORKERS", "3")
    monkeypatch.setenv("WATERCOLOUR_DEFAULT_SUBJECT", "a white hibiscus")
    settings = load_settings()
    assert settings.render_workers == 3
    assert settings.default_subject == "a white hibiscus"
