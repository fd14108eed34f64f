import os

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


@pytest.mark.parametrize(
    ("preset", "hpsv3", "judge"), [("hps-only", 0.9, 0.0), ("judge-led", 0.3, 0.6), ("hps-led", 0.6, 0.3)]
)
def test_the_seeds_three_runs_are_presets(monkeypatch, preset, hpsv3, judge):
    monkeypatch.setenv("WATERCOLOUR_PRESET", preset)
    monkeypatch.setenv("WATERCOLOUR_HPSV3_URL", "http://127.0.0.1:7860")
    monkeypatch.setenv("WATERCOLOUR_JUDGE_TOKEN", "hf_x")
    w = load_settings().weights()
    assert (w.gate, w.length, w.hpsv3, w.judge, w.embedded) == (0.05, 0.05, hpsv3, judge, 0.0)


def test_a_weighted_hpsv3_without_its_url_refuses_to_start_naming_the_variable(monkeypatch):
    monkeypatch.setenv("WATERCOLOUR_PRESET", "hps-only")
    with pytest.raises(ConfigError, match="WATERCOLOUR_HPSV3_URL"):
        load_settings()
    with pytest.raises(ConfigError, match="WATERCOLOUR_HPSV3_URL"):
        load_settings(preset=None, weight_embedded=0.4, weight_hpsv3=0.5)


def test_a_preset_and_explicit_weights_together_are_refused(monkeypatch):
    monkeypatch.setenv("WATERCOLOUR_PRESET", "hps-only")
    monkeypatch.setenv("WATERCOLOUR_HPSV3_URL", "http://127.0.0.1:7860")
    monkeypatch.setenv("WATERCOLOUR_WEIGHT_GATE", "0.1")
    with pytest.raises(ConfigError, match="unset WATERCOLOUR_WEIGHT_GATE"):
        load_settings()


def test_an_unknown_preset_names_the_known_ones():
    with pytest.raises(ConfigError, match="hps-only, judge-led, hps-led"):
        load_settings(preset="aesthetic")


def test_the_reference_mix_is_read_as_json_and_must_be_a_distribution(monkeypatch):
    monkeypatch.setenv("WATERCOLOUR_REFERENCE_MIX", '{"love": 0.75, "okay": 0.25}')
    assert {t.value: v for t, v in load_settings().reference_mix.items()} == {"love": 0.75, "okay": 0.25}
    monkeypatch.setenv("WATERCOLOUR_REFERENCE_MIX", '{"love": 0.75, "okay": 0.75}')
    with pytest.raises(ConfigError, match="WATERCOLOUR_REFERENCE_MIX"):
        load_settings()
    monkeypatch.setenv("WATERCOLOUR_REFERENCE_MIX", '{"adore": 1.0}')
    with pytest.raises(ConfigError, match="WATERCOLOUR_REFERENCE_MIX: Input should be .love., .okay. or .nope."):
        load_settings()


def test_the_judge_criteria_come_from_the_settings(monkeypatch):
    from watercolour_env.server.reward.judge import judge_from

    monkeypatch.setenv("WATERCOLOUR_JUDGE_CRITERIA", "a botanical watercolour of a rose")
    judge = judge_from(load_settings(judge_base_url="http://127.0.0.1:9/v1").term_options()["judge"])
    assert judge.criteria == "a botanical watercolour of a rose"


def test_an_unknown_watercolour_variable_refuses_to_start_with_a_suggestion(monkeypatch):
    monkeypatch.setenv("WATERCOLOUR_PRESETS", "hps-only")
    with pytest.raises(ConfigError, match="unknown setting WATERCOLOUR_PRESETS; did you mean WATERCOLOUR_PRESET"):
        load_settings()


def test_the_american_spelling_refuses_to_start_instead_of_being_ignored(monkeypatch):
    monkeypatch.setenv("WATERCOLOR_PRESET", "hps-only")
    with pytest.raises(ConfigError) as refused:
        load_settings()
    assert str(refused.value) == (
        "unknown setting WATERCOLOR_PRESET: the settings are spelt WATERCOLOUR_*; did you mean WATERCOLOUR_PRESET?"
    )


def test_the_errors_name_the_variable_and_show_the_weights_in_effect(monkeypatch):
    with pytest.raises(ConfigError, match="WATERCOLOUR_HPSV3_URL='127.0.0.1:7860' needs http"):
        load_settings(preset="hps-only", hpsv3_url="127.0.0.1:7860")
    with pytest.raises(ConfigError, match=r"WATERCOLOUR_WEIGHT_EMBEDDED=0.9 \(default\)"):
        load_settings(weight_hpsv3=0.9, hpsv3_url="http://127.0.0.1:7860")
    with pytest.raises(ConfigError, match="WATERCOLOUR_RENDER_WORKERS: Input should be a valid integer"):
        load_settings(render_workers="many")


def documented_settings(page: str = "docs/environment.md") -> dict[str, str]:
    """A settings table (docs/environment.md's, every setting): WATERCOLOUR_ name -> the default it documents."""
    from tests.conftest import REPO
    from watercolour_env.server.settings import Settings

    fields = {f"WATERCOLOUR_{name.upper()}" for name in Settings.model_fields}
    documented = {}
    for line in (REPO / page).read_text().splitlines():
        if not line.startswith("| `WATERCOLOUR_"):
            continue
        names_cell, default_cell = [c.strip() for c in line.strip("|").split("|")][:2]
        names = [n.strip(" `") for n in names_cell.replace(",", "/").split("/")]
        defaults = [d.strip() for d in default_cell.replace(",", "/").split("/")]
        full = names[0]
        for i, name in enumerate(names):
            if name.startswith("_"):  # `_MODEL` after `WATERCOLOUR_JUDGE_BASE_URL`: a shared prefix
                cuts = [full[:j] for j in range(len(full)) if full[j] == "_"]
                name = next((c + name for c in reversed(cuts) if c + name in fields), full[: full.index("_")] + name)
            documented[name] = defaults[i] if len(defaults) == len(names) else default_cell
    return documented


def test_the_env_card_documents_every_setting_and_nothing_else():
    from watercolour_env.server.settings import Settings

    fields = {f"WATERCOLOUR_{name.upper()}" for name in Settings.model_fields}
    assert set(documented_settings()) == fields


def test_the_numbers_and_switches_the_env_card_gives_as_defaults_are_the_defaults():
    from watercolour_env.server.settings import Settings

    checked = 0
    for name, documented in documented_settings().items():
        field = Settings.model_fields[name.removeprefix("WATERCOLOUR_").lower()]
        if field.default_factory is not None:
            continue  # "CPU count"
        if documented in ("true", "false"):
            assert field.default is (documented == "true"), name
        elif documented.replace(".", "", 1).isdigit():
            assert float(field.default) == float(documented), name
        else:
            continue
        checked += 1
    assert checked >= 12


def test_the_default_render_workers_follow_the_usable_cpus_and_never_refuse_a_large_host(monkeypatch, tmp_path):
    import os

    from watercolour_env.server import settings as module

    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: set(range(128)))  # a 128-core host
    assert module.usable_cpus(tmp_path) == 128
    with monkeypatch.context() as patched:
        patched.setattr(module, "usable_cpus", lambda: 128)
        assert load_settings().render_workers == 64  # capped, not refused (it was refused before)
    (tmp_path / "cpu.max").write_text("250000 100000\n")  # cgroup v2: 2.5 CPUs -> 3 workers
    assert module.usable_cpus(tmp_path) == 3
    (tmp_path / "cpu.max").write_text("max 100000\n")
    assert module.usable_cpus(tmp_path) == 128
    (tmp_path / "cpu.max").unlink()
    (tmp_path / "cpu").mkdir()
    (tmp_path / "cpu" / "cpu.cfs_quota_us").write_text("400000\n")  # cgroup v1: 4 CPUs
    (tmp_path / "cpu" / "cpu.cfs_period_us").write_text("100000\n")
    assert module.usable_cpus(tmp_path) == 4
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1})  # taskset to two CPUs
    assert module.usable_cpus(tmp_path) == 2


def test_the_deadlines_must_nest_render_inside_episode_inside_session(monkeypatch):
    assert (load_settings().render_deadline_s, load_settings().episode_deadline_s) == (20, 120)
    monkeypatch.setenv("WATERCOLOUR_EPISODE_DEADLINE_S", "20")
    with pytest.raises(ConfigError, match="EPISODE_DEADLINE_S=20 must exceed WATERCOLOUR_RENDER_DEADLINE_S=20"):
        load_settings()
    monkeypatch.setenv("WATERCOLOUR_EPISODE_DEADLINE_S", "1000")
    with pytest.raises(ConfigError, match="SESSION_TIMEOUT_S=900 must exceed WATERCOLOUR_EPISODE_DEADLINE_S=1000"):
        load_settings()
    monkeypatch.setenv("WATERCOLOUR_SESSION_TIMEOUT_S", "1200")
    assert load_settings().episode_deadline_s == 1000


def test_the_copy_guard_is_on_unless_turned_off(monkeypatch):
    assert load_settings().copy_guard is True
    monkeypatch.setenv("WATERCOLOUR_COPY_GUARD", "false")
    assert load_settings().copy_guard is False
    monkeypatch.setenv("WATERCOLOUR_COPY_GUARD", "sometimes")
    with pytest.raises(ConfigError, match="COPY_GUARD"):
        load_settings()


def test_given_variables_are_read_instead_of_the_processs_which_stay_untouched(monkeypatch):
    from watercolour_env.errors import ConfigError
    from watercolour_env.server.settings import load_settings

    monkeypatch.setenv("WATERCOLOUR_PORT", "9999")
    before = dict(os.environ)
    given = {"WATERCOLOUR_PORT": "8123", "WATERCOLOUR_REFERENCE_MIX": '{"love": 1.0, "okay": 0.0}'}
    settings = load_settings(given)
    assert settings.port == 8123 and settings.reference_mix == {"love": 1.0, "okay": 0.0}
    assert dict(os.environ) == before and load_settings().port == 9999
    assert load_settings({}).port == 8000  # the process's 9999 does not leak in
    with pytest.raises(ConfigError, match="unknown setting WATERCOLOUR_PROT; did you mean WATERCOLOUR_PORT"):
        load_settings({"WATERCOLOUR_PROT": "1"})


@pytest.mark.parametrize("mix", ["{love:1", "", '{"love": NaN}', '{"love": 1.5, "okay": -0.5}'])
def test_a_reference_mix_that_is_not_json_or_not_a_distribution_is_one_named_line(mix):
    given = {"WATERCOLOUR_REFERENCE_MIX": mix, "WATERCOLOUR_WEIGHT_JUDGE": "0.1", "WATERCOLOUR_WEIGHT_EMBEDDED": "0.8"}
    with pytest.raises(ConfigError, match="WATERCOLOUR_REFERENCE_MIX") as refused:
        load_settings({**given, "WATERCOLOUR_JUDGE_TOKEN": "t"})
    assert "\n" not in str(refused.value)
