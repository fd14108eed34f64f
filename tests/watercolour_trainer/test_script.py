"""trainer/watercolour_grpo.py: its PEP 723 header pins what `make test` runs, and `uv run`
resolves the header and trains one GRPO step against a local server (which also shows the
header holds everything the trainer imports: uv's environment has nothing else)."""

import json
import os
import re
import shlex
import subprocess
import sys
import tomllib
from importlib import metadata
from pathlib import Path

import pytest

from tests.conftest import REPO, WATERCOLOUR
from watercolour_trainer.demo import free_port, wait_healthy

SCRIPT = REPO / "trainer" / "watercolour_grpo.py"
UV = str(Path(sys.executable).parent / "uv")


def header() -> dict:
    """The script's inline metadata (PEP 723: the `# /// script` block, as TOML)."""
    block = re.search(r"^# /// script\n((?:#.*\n)+?)^# ///$", SCRIPT.read_text(), re.MULTILINE)
    assert block, "no PEP 723 block"
    return tomllib.loads("".join(line[2:] + "\n" for line in block.group(1).splitlines()))


@pytest.mark.train
def test_every_dependency_is_pinned_to_the_version_make_test_runs():
    pins = dict(re.fullmatch(r"([A-Za-z0-9_.-]+)==(\S+)", d).groups() for d in header()["dependencies"])
    assert len(pins) == len(header()["dependencies"]), "every dependency pinned with =="
    for name, version in pins.items():
        installed = metadata.version(name).split("+")[0]  # torch 2.13.0+cpu here is 2.13.0
        assert installed == version, f"{name}: the header pins {version}, make test runs {installed}"


@pytest.mark.train
def test_the_seeds_job_command_sends_the_script_with_every_flag_as_typed():
    """`hf jobs uv run --dry-run` prints the Job it would submit (the Hub is not reachable here)."""
    from tests.watercolour_trainer.training.test_arguments import SEED_COMMAND

    flags = shlex.split(SEED_COMMAND)
    command = [
        str(Path(sys.executable).parent / "hf"),
        "jobs",
        "uv",
        "run",
        "--dry-run",
        "--flavor",
        "h200",
        "--timeout",
        "48h",
        "--secrets",
        "HF_TOKEN",
        str(SCRIPT),
        "--",
        *flags,
    ]
    shown = subprocess.run(command, capture_output=True, text=True, timeout=120, env={**os.environ, "HF_TOKEN": "hf_x"})
    assert shown.returncode == 0, shown.stderr
    lines = dict(line.strip().split(None, 1) for line in shown.stdout.splitlines()[1:] if line.startswith("  "))
    assert lines["script"] == str(SCRIPT) and lines["flavor"] == "h200" and lines["timeout"] == "48h"
    assert shlex.split(lines["args"]) == flags
    assert "hf_x" not in shown.stdout  # the secret is sent, never shown


@pytest.mark.slow
@pytest.mark.server
@pytest.mark.browser
@pytest.mark.timeout(1500)  # beyond its subprocess's own limit, which then reports
def test_uv_runs_the_script_for_one_grpo_step_against_a_local_server(tmp_path, tiny_policy):
    find_links = os.environ.get("PIP_FIND_LINKS")
    if not find_links or not list(Path(find_links).glob("torch-*+cpu-*.whl")):
        pytest.skip("no local CPU build of torch for uv (PIP_FIND_LINKS); PyPI's is the CUDA one, gigabytes")
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    server = subprocess.Popen(
        [WATERCOLOUR, "serve", "--port", str(port)],
        env={**os.environ, "WATERCOLOUR_RENDER_WORKERS": "1"},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    out = tmp_path / "run"
    python = f"{sys.version_info.major}.{sys.version_info.minor}"
    command = [
        UV,
        "run",
        "--python",
        python,
        str(SCRIPT),
        "--env-url",
        url,
        "--model",
        str(tiny_policy),  # the script's environment and flags are tested, not the policy (tests/policies.py)
        "--steps",
        "1",
        "--num-generations",
        "2",
        "--per-device-batch-size",
        "2",
        "--n-episodes",
        "2",
        "--max-completion-length",
        "16",
        "--use_cpu",
        "true",
        "--bf16",
        "false",
        "--report_to",
        "none",
        "--save_strategy",
        "no",
        "--output_dir",
        str(out),
    ]
    # no venv of ours in the way: uv builds the script's own environment from its header
    env = {k: v for k, v in os.environ.items() if k not in {"VIRTUAL_ENV", "PYTHONPATH"}}
    env |= {"UV_FIND_LINKS": find_links, "UV_CACHE_DIR": str(REPO / ".stamps" / "uv-cache")}
    try:
        wait_healthy(url, server)
        finished = subprocess.run(command, env=env, capture_output=True, text=True, timeout=1200, cwd=tmp_path)
    finally:
        server.kill()
        server.wait(timeout=30)
    assert finished.returncode == 0, finished.stdout[-3000:] + finished.stderr[-3000:]
    rows = [json.loads(line) for line in (out / "rollouts" / "rollouts.jsonl").read_text().splitlines()]
    assert [(r["step"], r["position"]) for r in rows] == [(1, 0), (1, 1)]
    assert "LoRA on" in finished.stderr and "trainable parameters" in finished.stderr


@pytest.mark.cli
def test_a_job_finds_the_package_in_the_space_its_env_url_names():
    """On a Job the script asks the Hub which <owner>/<name> a Space host is: a local server
    answering the Hub's `GET /api/spaces/<owner>/<name>` (200 for the one Space, 404 else)."""
    from fastapi import FastAPI
    from fastapi.responses import JSONResponse

    from tests.conftest import serving

    asked: list[str] = []
    hub = FastAPI()

    @hub.get("/api/spaces/{owner}/{name}")
    def space(owner: str, name: str):
        asked.append(f"{owner}/{name}")
        if (owner, name) != ("you-and-me", "watercolour-env"):
            return JSONResponse({"error": "Repository not found"}, status_code=404)
        return {
            "id": "you-and-me/watercolour-env",
            "author": "you-and-me",
            "sha": "0" * 40,
            "private": False,
            "lastModified": "2026-12-01T00:00:00.000Z",
            "tags": [],
            "siblings": [],
        }

    code = (
        "import importlib.util, sys; spec = importlib.util.spec_from_file_location('g', sys.argv[1]); "
        "m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m); "
        "print(m.space_of(['--env-url', 'https://you-and-me-watercolour-env.hf.space']))"
    )
    with serving(hub) as url:
        found = subprocess.run(
            [sys.executable, "-c", code, str(SCRIPT)],
            capture_output=True,
            text=True,
            timeout=60,
            env={**os.environ, "HF_ENDPOINT": url, "HF_HUB_OFFLINE": "0"},
        )
    assert found.returncode == 0, found.stderr
    assert found.stdout.strip() == "you-and-me/watercolour-env"
    # each split of the host is asked in order until one exists
    assert asked == ["you/and-me-watercolour-env", "you-and/me-watercolour-env", "you-and-me/watercolour-env"]
