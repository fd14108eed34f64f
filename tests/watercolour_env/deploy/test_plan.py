"""`watercolour deploy`: the dry runs (the folder and the calls), the refusals and the warnings."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import REPO
from tests.watercolour_env.deploy.conftest import SECRET, deploy, files_in, stderr_of, tracked

PINNED = "me/mypool@5e1c0ffee5e1c0ffee5e1c0ffee5e1c0ffee5e1c"  # a commit id: the only revision that pins


@pytest.mark.cli
def test_a_dry_run_of_env_with_replicas_writes_the_folder_and_every_call(tmp_path):
    result = deploy(
        "env",
        "--space",
        "me/wenv",
        "--pool",
        PINNED,
        "--preset",
        "judge-led",
        "--replicas",
        "2",
        "--set",
        "WATERCOLOUR_HPSV3_URL=https://me-hps.hf.space",
        "--dry-run",
        str(tmp_path),
        env={
            "WATERCOLOUR_API_TOKEN": SECRET,
            "SPACE_HF_TOKEN": SECRET + "2",
            "WATERCOLOUR_HPSV3_TOKEN": SECRET + "3",
            "WATERCOLOUR_JUDGE_TOKEN": SECRET + "4",
            "HF_TOKEN": "hf_deployers_write_token",
        },
    )
    assert stderr_of(result) == []  # nothing to warn about
    assert result.returncode == 0, result.stderr
    calls = json.loads((tmp_path / "calls.json").read_text())
    space = str(tmp_path / "space")
    expected = []
    for name in ("me/wenv-1", "me/wenv-2"):
        var = "add_space_variable"
        expected += [
            {
                "call": "create_repo",
                "args": {
                    "repo_id": name,
                    "repo_type": "space",
                    "space_sdk": "docker",
                    "private": False,
                    "exist_ok": True,
                },
            },
            {
                "call": var,
                "args": {"repo_id": name, "key": "WATERCOLOUR_HPSV3_URL", "value": "https://me-hps.hf.space"},
            },
            {"call": var, "args": {"repo_id": name, "key": "WATERCOLOUR_POOL", "value": PINNED}},
            {"call": var, "args": {"repo_id": name, "key": "WATERCOLOUR_PRESET", "value": "judge-led"}},
            *(
                {"call": "add_space_secret", "args": {"repo_id": name, "key": key, "value": "***"}}
                for key in ("WATERCOLOUR_API_TOKEN", "WATERCOLOUR_HPSV3_TOKEN", "WATERCOLOUR_JUDGE_TOKEN", "HF_TOKEN")
            ),
            {"call": "request_space_hardware", "args": {"repo_id": name, "hardware": "cpu-upgrade"}},
            {
                "call": "upload_folder",
                "args": {
                    "repo_id": name,
                    "repo_type": "space",
                    "folder_path": space,
                    "commit_message": "Deploy with `watercolour deploy`",
                },
            },
        ]
    assert calls == expected
    # every call is printed, and no secret appears anywhere
    assert result.stdout.count("upload_folder(") == 2 and result.stdout.count("add_space_secret(") == 8
    for path in tmp_path.rglob("*"):
        if path.is_file():
            assert SECRET.encode() not in path.read_bytes(), path
    assert SECRET not in result.stdout + result.stderr
    # the deployer's own HF_TOKEN (it can write) never goes to the Space
    assert "hf_deployers_write_token" not in (tmp_path / "calls.json").read_text()

    folder = tmp_path / "space"
    hacks = {"validation/canaries/" + Path(p).name for p in tracked("spaces/env/validation/canaries")}
    validation = {p.removeprefix("spaces/env/") for p in tracked("spaces/env/validation")}
    weights = {p for p in tracked("trainer/adapters") if p.endswith(".safetensors")}
    assert len(weights) == 3 and tracked("trainer/corpus")  # what the server never reads
    assert files_in(folder) == (
        tracked("envs")
        | (tracked("trainer") - weights - tracked("trainer/corpus"))
        | hacks
        | validation
        | {
            "Dockerfile",
            "README.md",
            "pyproject.toml",
            "openenv.yaml",
            "docker/env-requirements.txt",
            "__init__.py",
            "client.py",
        }
    )
    assert (folder / "Dockerfile").read_bytes() == (REPO / "docker/env.Dockerfile").read_bytes()
    assert (folder / "README.md").read_bytes() == (REPO / "spaces/env/README.md").read_bytes()
    assert not any("node_modules" in p or "__pycache__" in p for p in files_in(folder))
    card = (folder / "README.md").read_text()
    assert "🌺" not in card and "hibiscus" not in card  # the subject is the pool's, whichever it is


@pytest.mark.cli
def test_a_duplicate_uploads_nothing_and_points_the_copy_at_its_own_pool(tmp_path):
    result = deploy(
        "env",
        "--duplicate-from",
        "artist/watercolour-env",
        "--space",
        "me/my-env",
        "--pool",
        "me/mine",
        "--dry-run",
        str(tmp_path),
    )
    assert result.returncode == 0, result.stderr
    calls = json.loads((tmp_path / "calls.json").read_text())
    assert calls == [
        {
            "call": "duplicate_repo",
            "args": {
                "from_id": "artist/watercolour-env",
                "to_id": "me/my-env",
                "repo_type": "space",
                "private": False,
                "exist_ok": True,
            },
        },
        {"call": "add_space_variable", "args": {"repo_id": "me/my-env", "key": "WATERCOLOUR_POOL", "value": "me/mine"}},
    ]  # no hardware asked for: a copy is not moved onto paid hardware unless told
    assert not (tmp_path / "space").exists()
    assert (
        "warning: --duplicate-from without --hardware requests none: the copy runs on what the Hub gives a copy "
        "(free CPU), whatever the original runs on; --hardware cpu-upgrade (paid) matches a new deployment"
    ) in stderr_of(result)


@pytest.mark.cli
def test_a_dry_run_of_hpsv3_sets_a_gpu_a_sleep_time_and_its_token_as_a_secret(tmp_path):
    result = deploy(
        "hpsv3",
        "--space",
        "me/hps",
        "--hardware",
        "a100-large",
        "--set",
        "HPSV3_MAX_BATCH=8",
        "--dry-run",
        str(tmp_path),
        env={"HPSV3_API_TOKEN": SECRET},
    )
    assert result.returncode == 0, result.stderr
    calls = json.loads((tmp_path / "calls.json").read_text())
    assert [c["call"] for c in calls] == [
        "create_repo",
        "add_space_variable",
        "add_space_secret",
        "request_space_hardware",
        "upload_folder",
    ]
    assert calls[2]["args"] == {"repo_id": "me/hps", "key": "HPSV3_API_TOKEN", "value": "***"}
    assert calls[3]["args"] == {"repo_id": "me/hps", "hardware": "a100-large", "sleep_time": 3600}
    folder = tmp_path / "space"
    assert files_in(folder) == tracked("scorers/hpsv3_space") | {"Dockerfile", "README.md"}
    assert (folder / "Dockerfile").read_bytes() == (REPO / "docker/hpsv3.Dockerfile").read_bytes()
    assert SECRET not in result.stdout and SECRET.encode() not in (tmp_path / "calls.json").read_bytes()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["env", "--space", "no-slash"], "is not USER/NAME"),
        (["env", "--space", "me/x", "--preset", "hps-best"], "is not one of embedded, hps-only"),
        (["env", "--space", "me/x", "--set", "WATERCOLOUR_API_TOKEN=abc"], "credentials go in as secrets"),
        (["env", "--space", "me/x", "--set", "HPSV3_MAX_BATCH=4"], "reads WATERCOLOUR_* variables only"),
        (["env", "--space", "me/x", "--pool", "not a pool"], "is not a Hub dataset"),
        (["env", "--space", "me/x", "--hardware", "cpu-huge"], "is not a Space hardware"),
        (["hpsv3", "--space", "me/x", "--hardware", "cpu-upgrade"], "needs a GPU"),
        # what the Space's server would refuse at start-up, refused before anything is sent
        (
            ["env", "--space", "me/x", "--preset", "hps-only"],
            "would refuse to start: invalid WATERCOLOUR_* setting: "
            "WATERCOLOUR_PRESET=hps-only weighs HPSv3 at 0.9: set WATERCOLOUR_HPSV3_URL",
        ),
        (["env", "--space", "me/x", "--set", "WATERCOLOUR_PRESTE=embedded"], "did you mean WATERCOLOUR_PRESET?"),
        (["env", "--space", "me/x", "--set", "WATERCOLOUR_RENDER_WORKERS=0"], "WATERCOLOUR_RENDER_WORKERS"),
        (
            ["env", "--duplicate-from", "a/b", "--space", "me/x", "--set", "WATERCOLOUR_PRESTE=embedded"],
            "did you mean WATERCOLOUR_PRESET?",
        ),
        (["hpsv3", "--space", "me/x", "--set", "HPSV3_MAX_BATCHES=4"], "did you mean HPSV3_MAX_BATCH?"),
        # found by a red-team pass: ids the Hub would refuse with a traceback, costs, --set gaps
        (["env", "--space", "me/x\n"], "is not USER/NAME"),
        (["env", "--space", "me/w\u00e4tercolour"], "is not USER/NAME"),
        (["env", "--space", "me/a..b"], "is not USER/NAME"),
        (["env", "--space", "me/" + "n" * 95, "--replicas", "2"], "longer than the Hub's 96 characters"),
        (["env", "--space", "me/x", "--replicas", "0"], "between 1 and 64"),
        (["env", "--space", "me/x", "--replicas", "100"], "between 1 and 64"),
        (["env", "--space", "me/x", "--pool", "me/pool\n"], "is not a Hub dataset"),
        (["env", "--space", "me/x", "--sleep-after", "-1"], "must be a positive number of seconds"),
        (["hpsv3", "--space", "me/x", "--hardware", "t4-small"], "needs a GPU with 24 GB"),
        (["hpsv3", "--space", "me/x", "--hardware", "zero-a10g"], "needs a GPU with 24 GB"),
        (["env", "--space", "me/x", "--set", "WATERCOLOUR_POOL=../../etc"], "give it as --pool"),
        (["env", "--space", "me/x", "--set", "WATERCOLOUR_PRESET=bogus"], "give it as --preset"),
        (["env", "--space", "me/x", "--set", "WATERCOLOUR_PORT=9999"], "the image sets it"),
        (["env", "--space", "me/x", "--set", "WATERCOLOUR_JUDGE_KEY=sk-1"], "credentials go in as secrets"),
        (["env", "--duplicate-from", "them/a..b", "--space", "me/x"], "is not USER/NAME"),
    ],
)
@pytest.mark.cli
def test_a_misconfiguration_is_refused_in_one_line(tmp_path, args, message):
    result = deploy(*args, "--dry-run", str(tmp_path / "out"))
    assert result.returncode == 2
    assert message in result.stderr and len(stderr_of(result)) == 1, result.stderr
    assert not (tmp_path / "out").exists()


@pytest.mark.cli
def test_an_open_space_and_an_unpinned_pool_are_warned_about_on_stderr(tmp_path):
    result = deploy("env", "--space", "me/x", "--pool", "me/pool", "--dry-run", str(tmp_path / "a"))
    assert result.returncode == 0
    assert stderr_of(result) == [
        "warning: no WATERCOLOUR_API_TOKEN exported: anyone who reaches the Space can use it",
        "warning: --pool me/pool has no @REVISION: the reward follows every push to it; pin one",
    ]
    result = deploy("hpsv3", "--space", "me/h", "--dry-run", str(tmp_path / "b"))
    assert stderr_of(result) == ["warning: no HPSV3_API_TOKEN exported: anyone who reaches the Space can use its GPU"]


@pytest.mark.cli
def test_a_local_pool_folder_is_refused_naming_the_push_and_a_branch_is_warned_like_no_revision(tmp_path):
    (tmp_path / "mypool").mkdir()
    local = deploy("env", "--space", "me/x", "--pool", str(tmp_path / "mypool"), "--dry-run", str(tmp_path / "a"))
    assert local.returncode == 2 and not (tmp_path / "a").exists()
    assert stderr_of(local) == [
        f"error: --pool {tmp_path / 'mypool'} is a folder here, and a Space reads its pool from the Hub: "
        f"`watercolour pool push {tmp_path / 'mypool'} USER/NAME` prints the revision to deploy with, "
        "--pool USER/NAME@REVISION"
    ]
    branch = deploy("env", "--space", "me/x", "--pool", "me/pool@main", "--dry-run", str(tmp_path / "b"))
    assert branch.returncode == 0
    assert stderr_of(branch)[1] == (
        "warning: --pool me/pool@main names a branch or tag, not a commit: the reward follows every push to it; "
        "pin the commit id `pool push` printed"
    )
    pinned = deploy("env", "--space", "me/x", "--pool", "me/pool@" + "0a" * 20, "--dry-run", str(tmp_path / "c"))
    assert len(stderr_of(pinned)) == 1  # the open Space alone


@pytest.mark.cli
def test_a_token_with_a_control_character_an_earlier_dry_run_and_a_file_are_refused(tmp_path):
    bad = deploy("env", "--space", "me/x", "--dry-run", str(tmp_path / "a"), env={"WATERCOLOUR_API_TOKEN": "abc\r"})
    assert bad.returncode == 2 and "WATERCOLOUR_API_TOKEN holds whitespace" in bad.stderr
    assert not (tmp_path / "a").exists()
    assert deploy("env", "--space", "me/x", "--dry-run", str(tmp_path / "b")).returncode == 0
    again = deploy("env", "--space", "me/x", "--dry-run", str(tmp_path / "b"))
    assert again.returncode == 2 and "holds an earlier dry run" in again.stderr
    (tmp_path / "file").write_text("")
    under_a_file = deploy("env", "--space", "me/x", "--dry-run", str(tmp_path / "file" / "sub"))
    assert under_a_file.returncode == 2 and "cannot make that folder" in under_a_file.stderr
    assert len(stderr_of(under_a_file)) == 1


@pytest.mark.cli
def test_a_setting_named_tokens_is_not_taken_for_a_credential(tmp_path):
    setting = "WATERCOLOUR_LENGTH_START_TOKENS=200"
    result = deploy("env", "--space", "me/x", "--set", setting, "--dry-run", str(tmp_path))
    assert result.returncode == 0, result.stderr


@pytest.mark.cli
def test_a_space_that_weighs_hpsv3_without_its_token_is_warned_about_not_refused(tmp_path):
    url = "WATERCOLOUR_HPSV3_URL=https://me-h.hf.space"
    args = ("env", "--space", "me/x", "--preset", "hps-only", "--set", url)
    open_scorer = deploy(*args, "--dry-run", str(tmp_path / "a"), env={"WATERCOLOUR_API_TOKEN": "t0k"})
    assert open_scorer.returncode == 0, open_scorer.stderr
    assert stderr_of(open_scorer) == [
        "warning: no WATERCOLOUR_HPSV3_TOKEN exported: the Space reaches the HPSv3 scorer only if that scorer is open"
    ]
    keyed = deploy(
        *args, "--dry-run", str(tmp_path / "b"), env={"WATERCOLOUR_API_TOKEN": "t0k", "WATERCOLOUR_HPSV3_TOKEN": "k3y"}
    )
    assert keyed.returncode == 0 and stderr_of(keyed) == []
