"""A new subject end to end (issue 36): a small jellyfish pool, its prompt, its audit and its Space.

The example pool `examples/pools/jellyfish` (17 sketches, 16 paint; the team's tiers in
`tiers.json`) is rendered with `--subject`, rated, served and audited as docs/pool.md walks it:
the shipped hibiscus beat its okay median until off-subject paintings are added and rated `nope`;
its oracle is its own hand-written jelly-17, and the Space's oracle script sends that.
"""

import json
import shutil

import pytest

from tests.conftest import REPO, serving
from watercolour_env.audit.run import audit
from watercolour_env.curate.collect import add_off_subject
from watercolour_env.curate.render import render_folder
from watercolour_env.errors import ConfigError
from watercolour_env.pool import Pool, Tier, read_manifest, write_manifest
from watercolour_env.prompt import system_prompt

JELLYFISH = REPO / "examples" / "pools" / "jellyfish"


def rate(folder, tiers):
    rows = read_manifest(folder)
    for row in rows:
        row.tier = Tier(tiers[row.id]) if row.id in tiers else row.tier
    write_manifest(folder, rows)


def audited(folder):
    from watercolour_env.server.app import build_app
    from watercolour_env.server.settings import load_settings

    app = build_app(load_settings(pool=str(folder), render_workers=2))
    try:
        with serving(app) as url:
            return audit(url, token="", only=("another subject",))
    finally:
        app.state.renderer.close()


@pytest.fixture(scope="module")
def jellyfish_pool(tmp_path_factory, renderer):
    folder = tmp_path_factory.mktemp("jellyfish")
    shutil.copytree(JELLYFISH / "sketches", folder / "sketches")
    summary = render_folder(folder, renderer, subject="a jellyfish")
    assert sorted(summary.failed) == [] and len(summary.rendered) == 17
    rate(folder, json.loads((JELLYFISH / "tiers.json").read_text()))
    return folder


@pytest.mark.browser
def test_the_rows_carry_its_subject_and_the_prompt_no_petal(jellyfish_pool):
    pool = Pool.load(str(jellyfish_pool))
    assert {r.subject for r in pool.references} == {"a jellyfish"} and pool.subject == "a jellyfish"
    assert "petal" not in system_prompt(pool.declaration.hint)
    assert pool.counts() == {"love": 6, "okay": 6, "nope": 5}


@pytest.mark.browser
@pytest.mark.server
@pytest.mark.slow
def test_the_audit_flags_the_hibiscus_until_off_subject_nope_paintings_are_added(jellyfish_pool, tmp_path):
    report, rows = audited(jellyfish_pool)
    assert report["subject"] == "a jellyfish"
    (another,) = rows
    assert another.family == "another subject" and another.verdict == "FAIL", another
    assert f"`watercolour pool add --off-subject 8 --into {jellyfish_pool}`" in another.note, another.note
    added = add_off_subject(jellyfish_pool, 8)
    assert len(added.added) == 8 and add_off_subject(jellyfish_pool, 8).present == added.added  # twice: once
    rate(jellyfish_pool, dict.fromkeys(added.added, "nope"))
    report, (another,) = audited(jellyfish_pool)
    assert report["counts"] == {"love": 6, "okay": 6, "nope": 13}
    assert another.verdict == "pass", (another, report["tier_rewards"])


@pytest.mark.browser
@pytest.mark.server
@pytest.mark.cli
@pytest.mark.slow
def test_the_spaces_oracle_is_the_pools_own_hand_written_painting(jellyfish_pool, tmp_path):
    import os
    import subprocess
    import sys

    from tests.conftest import WATERCOLOUR
    from watercolour_env.deploy.space_folder import assemble
    from watercolour_env.server.app import build_app
    from watercolour_env.server.settings import load_settings

    folder = shutil.copytree(jellyfish_pool, tmp_path / "pool")
    rate(folder, dict.fromkeys(add_off_subject(folder, 8).added, "nope"))  # as the audit says, if not done yet
    rate(folder, {row.id: "nope" for row in read_manifest(folder) if row.id.startswith("off-")})
    chose = subprocess.run([WATERCOLOUR, "pool", "oracle", str(folder)], capture_output=True, text=True)
    lines = chose.stdout.splitlines()
    # the template's five love paintings hold one another's code: held out, each is a copy
    template = ["jelly-03", "jelly-06", "jelly-10", "jelly-13", "jelly-16"]
    assert sorted(line.split()[0] for line in lines[1:6]) == template
    assert all("0.000  copied_reference: jelly-" in line and "(source 1.00)" in line for line in lines[1:6])
    held_out = float(lines[0].split()[1])
    assert lines[0].split()[0] == "jelly-17" and 0.3 < held_out < 0.9, chose.stdout  # 0.759 on 2026-12-05
    assert chose.returncode == 1 and "jelly-17 scores" in chose.stderr and "rate more" in chose.stderr
    assert (folder / "pool.toml").read_text() == 'subject = "a jellyfish"\noracle = "jelly-17"\n'

    space = assemble("env", tmp_path / "space")
    app = build_app(load_settings(pool=str(folder), render_workers=1))
    path = f"{os.path.dirname(sys.executable)}:{os.environ['PATH']}"
    try:
        with serving(app) as url:
            sent = subprocess.run(
                ["sh", str(space / "validation" / "oracle.sh"), url],
                capture_output=True,
                text=True,
                env={**os.environ, "PATH": path},
            )
    finally:
        app.state.renderer.close()
    observation = json.loads(sent.stdout)
    assert observation["subject"] == "a jellyfish" and observation["status"] == "scored", observation
    assert round(observation["reward"], 3) == held_out  # rendered again on the server, scored the same
    assert sent.returncode == 1 and f"oracle jelly-17 ('a jellyfish'): reward {held_out:.3f}, FAILS" in sent.stderr


def test_off_subject_paintings_are_refused_for_a_pool_of_hibiscus(tmp_path):
    (tmp_path / "pool.toml").write_text('subject = "a white hibiscus"\n')
    with pytest.raises(ConfigError, match="is a pool of 'a white hibiscus': the starter's hibiscus are on its"):
        add_off_subject(tmp_path, 4)


@pytest.mark.cli
def test_pool_add_takes_a_run_or_off_subject_paintings_and_says_so(tmp_path):
    import subprocess

    from tests.conftest import WATERCOLOUR

    neither = subprocess.run([WATERCOLOUR, "pool", "add", "--into", str(tmp_path)], capture_output=True, text=True)
    assert neither.returncode == 2 and "give a run's folder or --off-subject N, one of the two" in neither.stderr
    (tmp_path / "pool.toml").write_text('subject = "a jellyfish"\n')
    added = subprocess.run(
        [WATERCOLOUR, "pool", "add", "--off-subject", "3", "--into", str(tmp_path)], capture_output=True, text=True
    )
    assert added.returncode == 0, added.stderr
    assert added.stdout.startswith(f"added 3 unrated paintings to {tmp_path}")
    rows = read_manifest(tmp_path)
    assert [r.subject for r in rows] == ["a jellyfish"] * 3 and all(r.tier is None for r in rows)
    assert rows[1].id.startswith("off-other-") and rows[0].notes.endswith("a hibiscus; rate it nope")
