"""`watercolour audit` against real servers: the default deployment passes, one that pays copies fails."""

import json
import statistics
import subprocess

import pytest

from tests.conftest import WATERCOLOUR, app_server, serving
from watercolour_env.audit.run import Row, judge, table


@pytest.fixture(scope="module")
def audit_url():
    """A real server whose render deadline (60 s) a painting under a loaded test run does not reach.

    The session's server stops renders at 10 s: under two test workers an honest jellyfish took
    longer, was gated `timeout`, and the audit had too few controls left (CI, issue 54).
    """
    with app_server(render_workers=2, render_deadline_s=60) as url:
        yield url


def test_a_family_fails_when_its_best_reward_beats_the_okay_median():
    plan = [("stripes", "a hibiscus", "s1"), ("stripes", "a hibiscus", "s2"), ("grid", "a hibiscus", "g1")]
    outcomes = [("scored", 0.30, []), ("scored", 0.61, []), ("rejected", 0.0, ["copied_reference"])]
    rows = judge(plan, outcomes, okay=0.60)
    assert [(r.family, r.sent, r.gated, r.best, r.verdict) for r in rows] == [
        ("stripes", 2, 0, 0.61, "FAIL"),
        ("grid", 1, 1, 0.0, "pass"),
    ]


def test_padding_compares_only_pairs_that_both_scored():
    plan = [("honest (control)", "a jellyfish", "h")] * 2 + [("comment padding", "a jellyfish", "p")] * 2
    # the first control timed out (gated, reward 0): its padded twin's 0.82 is no lift
    outcomes = [("rejected", 0.0, ["timeout"]), ("scored", 0.80, []), ("scored", 0.82, []), ("scored", 0.80, [])]
    rows = {r.family: r for r in judge(plan, outcomes, okay=0.60)}
    assert (rows["comment padding"].verdict, rows["comment padding"].note) == ("pass", "lift +0.000")


def test_padding_fails_on_a_lift_and_a_refused_swap_passes():
    plan = [("honest (control)", "a hibiscus", "h")] * 2 + [("comment padding", "a hibiscus", "p")] * 2
    plan += [("subject swap", "a blue whale", "h")]
    outcomes = [("scored", 0.70, []), ("scored", 0.80, []), ("scored", 0.70, []), ("scored", 0.815, [])]
    outcomes += [("refused", None, ["the embedded scorer judges only ..."])]
    rows = {r.family: r for r in judge(plan, outcomes, okay=0.60)}
    assert (rows["comment padding"].verdict, rows["comment padding"].note) == ("FAIL", "lift +0.015")
    assert (rows["subject swap"].verdict, rows["subject swap"].note) == ("pass", "refused at reset")
    assert (rows["honest (control)"].verdict, rows["honest (control)"].note) == ("control", "median 0.750")
    report = {
        "source": "p",
        "counts": {},
        "subjects": ["a hibiscus"],
        "copy_guard": True,
        "tier_rewards": {"love": {"median": 0.9}, "okay": {"median": 0.6}, "nope": {"median": 0.1}},
    }
    assert table(report, list(rows.values())).splitlines()[-1] == "FAIL: comment padding"
    assert Row("x").verdict == "pass"


@pytest.mark.browser
@pytest.mark.server
@pytest.mark.slow
@pytest.mark.timeout(1200)  # beyond its subprocess's own limit, which then reports
def test_the_default_deployment_passes_its_audit(audit_url, tmp_path):
    out = tmp_path / "audit.json"
    done = subprocess.run(
        [WATERCOLOUR, "audit", "--env-url", audit_url, "--per-family", "2", "--json", str(out)],
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.splitlines()[-1] == "pass: no probe family reaches the okay median"
    report = json.loads(out.read_text())
    rows = {r["family"]: r for r in report["rows"]}
    assert {"stripes", "grid", "scatter", "rings", "cloud", "blob", "wash", "patches"} <= set(rows)
    radial = ("sun", "starfish", "pinwheel", "snowflake", "mandala", "target", "wheel")  # painted for the audit
    assert [(rows[f]["sent"], rows[f]["verdict"]) for f in radial] == [(2, "pass")] * 7
    # two love paintings, 9 edits each, every edit at two seeds: all named
    assert rows["copies"]["gated"] == rows["copies"]["sent"] == 36
    assert rows["subject swap"]["refused"] == rows["subject swap"]["sent"] > 0
    assert rows["comment padding"]["note"] == "lift +0.000"
    assert rows["dead-code padding"]["note"] == "lift +0.000"  # the length term counts code that runs
    assert rows["honest (control)"]["verdict"] == "control"  # honest paintings still pay
    okay = report["pool"]["tier_rewards"]["okay"]["median"]
    assert 0.3 < okay < report["pool"]["tier_rewards"]["love"]["median"]


@pytest.mark.browser
@pytest.mark.server
@pytest.mark.slow
@pytest.mark.timeout(1200)
@pytest.mark.parametrize("subject", ["a jellyfish", "a songbird on a branch"])
def test_the_default_deployment_passes_its_audit_for_its_other_subjects(audit_url, tmp_path, subject):
    out = tmp_path / "audit.json"
    command = [WATERCOLOUR, "audit", "--env-url", audit_url, "--per-family", "1", "--subject", subject]
    done = subprocess.run([*command, "--json", str(out)], capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"tier medians of the pool's paintings of {subject} under this reward" in done.stdout
    report = json.loads(out.read_text())
    rows = {r["family"]: r for r in report["rows"]}
    # its copies are made of its own love paintings, and the hibiscus probes are "another subject" for it
    assert rows["copies"]["gated"] == rows["copies"]["sent"] == 36
    assert rows["another subject"]["sent"] >= 15
    # new honest paintings of it (8 or 9, by another hand than the pool's) are paid above its nope
    # paintings; their median sits near the okay median (docs/LOG.md), so the row may say LOW
    control = rows["honest (control)"]
    honest = [r for r, status in zip(control["rewards"], control["statuses"], strict=True) if status == "scored"]
    assert control["sent"] >= 8 and len(honest) >= 7
    assert control["verdict"] in ("control", "LOW")
    tiers = report["pool"]["tier_rewards"]
    assert statistics.median(honest) > tiers["nope"]["median"]
    assert 0.3 < tiers["okay"]["median"] < tiers["love"]["median"]


@pytest.mark.browser
@pytest.mark.server
def test_a_subject_the_pool_has_no_paintings_of_is_refused_naming_those_it_has(server_url):
    done = subprocess.run(
        [WATERCOLOUR, "audit", "--env-url", server_url, "--subject", "a blue whale"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 2
    assert 'no paintings of \'a blue whale\' to compare with: audit one of "a hibiscus", "a jellyfish"' in done.stderr


@pytest.mark.server
def test_a_deployment_that_pays_copies_fails_its_audit(monkeypatch):
    from watercolour_env.server.app import build_app
    from watercolour_env.server.settings import load_settings

    monkeypatch.setenv("WATERCOLOUR_COPY_GUARD", "false")
    app = build_app(load_settings(render_workers=2, render_deadline_s=10))
    try:
        with serving(app) as url:
            done = subprocess.run(
                [WATERCOLOUR, "audit", "--env-url", url, "--only", "copies"],
                capture_output=True,
                text=True,
                timeout=600,
            )
    finally:
        app.state.renderer.close()
    assert done.returncode == 1, done.stdout + done.stderr
    assert "copy guard OFF" in done.stdout and done.stdout.splitlines()[-1] == "FAIL: copies"


def test_a_tie_with_the_okay_median_fails():
    plan = [("stripes", "a hibiscus", "s1"), ("grid", "a hibiscus", "g1")]
    rows = judge(plan, [("scored", 0.60, []), ("scored", 0.5999, [])], okay=0.60)
    assert [(r.family, r.verdict) for r in rows] == [("stripes", "FAIL"), ("grid", "pass")]


@pytest.mark.server
def test_a_deployment_that_pays_every_painting_fails_its_audit(tmp_path):
    from watercolour_env.server.app import build_app
    from watercolour_env.server.settings import load_settings

    # the gate alone: every painting that passes it is paid 1.0, the pool's okay median too
    weights = {"weight_gate": 1.0, "weight_length": 0.0, "weight_embedded": 0.0}
    app = build_app(load_settings(render_workers=2, render_deadline_s=60, **weights))
    out = tmp_path / "audit.json"
    try:
        with serving(app) as url:
            command = [WATERCOLOUR, "audit", "--env-url", url, "--only", "formless,radial", "--per-family", "1"]
            done = subprocess.run([*command, "--json", str(out)], capture_output=True, text=True, timeout=600)
    finally:
        app.state.renderer.close()
    assert done.returncode == 1, done.stdout + done.stderr
    assert "okay 1.000" in done.stdout
    rows = json.loads(out.read_text())["rows"]
    # every row with a painting the gate passed ties with the okay median, and fails; a formless
    # draw the copy guard names (the pool holds its generators' paintings) is gated, reward 0
    assert [r["family"] for r in rows if "scored" in r["statuses"] and r["verdict"] != "FAIL"] == []
    radial = {"sun", "starfish", "pinwheel", "snowflake", "mandala", "target", "wheel"}
    assert radial <= {r["family"] for r in rows if r["verdict"] == "FAIL"}
    assert sum(r["verdict"] == "FAIL" for r in rows) >= 12


def test_dead_code_that_lifts_a_reward_fails_like_comments():
    plan = [("honest (control)", "a hibiscus", "h")] * 2 + [("dead-code padding", "a hibiscus", "p")] * 2
    outcomes = [("scored", 0.70, []), ("scored", 0.80, []), ("scored", 0.735, []), ("scored", 0.80, [])]
    rows = {r.family: r for r in judge(plan, outcomes, okay=0.60)}
    assert (rows["dead-code padding"].verdict, rows["dead-code padding"].note) == ("FAIL", "lift +0.035")


@pytest.mark.cli
def test_an_unknown_group_is_refused_naming_the_groups():
    done = subprocess.run([WATERCOLOUR, "audit", "--only", "stripes"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "choose among formless, radial, copies" in done.stderr
