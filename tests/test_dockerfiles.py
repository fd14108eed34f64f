"""The Dockerfiles, the image's lock file, the Space cards and the OpenEnv manifest, without Docker:
hadolint, the syntax both builders accept, the lock against what the tests run, and OpenEnv's
static validation of the folder `watercolour deploy env` writes. tests/docker builds and runs them."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from importlib.metadata import version
from pathlib import Path

import pytest
import yaml

from tests.conftest import REPO, WATERCOLOUR
from watercolour_env.audit.oracle import ORACLE_FLOOR
from watercolour_env.pool import STARTER_POOL, Pool

DOCKERFILES = sorted((REPO / "docker").glob("*.Dockerfile"))
BIN = Path(sys.executable).parent


@pytest.mark.cli
def test_hadolint_passes_on_every_dockerfile():
    assert [p.name for p in DOCKERFILES] == ["env.Dockerfile", "hpsv3.Dockerfile"]
    result = subprocess.run(
        [str(BIN / "hadolint"), "--config", str(REPO / "docker" / "hadolint.yaml"), *map(str, DOCKERFILES)],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.parametrize("path", DOCKERFILES, ids=lambda p: p.name)
def test_only_syntax_docker_20_10_and_the_hub_builder_accept(path):
    text = path.read_text()
    assert not re.search(r"^#\s*syntax\s*=", text, re.M | re.I)
    instructions = "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("#"))
    assert "<<" not in instructions  # heredocs
    assert "--link" not in instructions
    assert re.search(r"^FROM debian:bookworm-slim\b", text, re.M)
    assert re.search(r"^USER 1000$", text, re.M)
    assert re.search(r"^HEALTHCHECK ", text, re.M)


def test_the_env_image_has_no_node_and_no_trainer_extras():
    text = (REPO / "docker" / "env.Dockerfile").read_text()
    final = text.split("\nFROM ")[-1]  # the last stage is the image
    assert "nodejs" not in final and "npm ci" not in final
    assert "[train" not in text and "torch" not in text


def lock() -> dict[str, str]:
    text = (REPO / "docker" / "env-requirements.txt").read_text()
    return {m[1].lower(): m[2] for m in re.finditer(r"^([A-Za-z0-9_.-]+)==(\S+) \\$", text, re.M)}


def test_the_env_lock_pins_with_hashes_exactly_what_the_tests_run():
    pins = lock()
    text = (REPO / "docker" / "env-requirements.txt").read_text()
    assert text.count("--hash=sha256:") >= len(pins) > 50
    for name in ("openenv", "playwright", "fastapi", "pydantic", "datasets", "setuptools"):
        assert name in pins, name
    for name in ("torch", "trl", "peft", "transformers"):
        assert name not in pins, name
    differ = {name: (pin, version(name)) for name, pin in pins.items() if name != "setuptools" and version(name) != pin}
    assert not differ, f"the image would run other versions than the tests; run `make lock`: {differ}"


def front_matter(path: Path) -> dict:
    return yaml.safe_load(path.read_text().split("---")[1])


def test_the_space_cards_match_the_images():
    env, hps = front_matter(REPO / "spaces/env/README.md"), front_matter(REPO / "spaces/hpsv3/README.md")
    assert env["sdk"] == hps["sdk"] == "docker"
    assert "openenv" in env["tags"]
    dockerfile = (REPO / "docker" / "env.Dockerfile").read_text()
    assert f"WATERCOLOUR_PORT={env['app_port']}" in dockerfile and f"EXPOSE {env['app_port']}" in dockerfile
    assert f'--port", "{hps["app_port"]}"' in (REPO / "docker" / "hpsv3.Dockerfile").read_text()


@pytest.fixture(scope="module")
def env_space(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("deploy")
    result = subprocess.run(
        [WATERCOLOUR, "deploy", "env", "--space", "tester/watercolour-env", "--dry-run", str(out)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    return out / "space"


@pytest.mark.cli
def test_openenv_static_validation_passes_on_the_deployed_folder(env_space, tmp_path):
    out = tmp_path / "static.json"
    result = subprocess.run(
        [str(BIN / "openenv"), "validate", str(env_space), "--level", "static", "--output", str(out)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    (check,) = json.loads(out.read_text())["results"]
    assert (check["check_id"], check["status"]) == ("static.manifest", "pass")


def test_the_deployed_folder_is_what_openenv_push_accepts(env_space):
    from openenv.cli._cli_utils import validate_env_structure

    validate_env_structure(env_space)  # raises FileNotFoundError naming a missing file
    card = front_matter(env_space / "README.md")
    assert (card["sdk"], card["app_port"]) == ("docker", 8000) and "openenv" in card["tags"]
    manifest = yaml.safe_load((env_space / "openenv.yaml").read_text())
    assert manifest["name"] == "watercolour_env" and manifest["port"] == card["app_port"]
    execution = manifest["validation"]["execution"]
    for key in ("probe_path", "dockerfile"):
        assert (env_space / execution[key]).is_file(), key
    canaries = env_space / manifest["validation"]["capabilities"]["canaries"]
    assert len(list(canaries.glob("*.js"))) == len(json.loads((canaries / "expected.json").read_text()))


def test_the_runtime_plan_steps_the_starter_pools_oracle():
    plan = json.loads((REPO / "spaces/env/validation/runtime.json").read_text())
    sketch = (STARTER_POOL / "sketches" / "songbird-33.js").read_text()
    assert plan["actions"] == [{"reply": "```js\n" + sketch + "\n```"}]
    oracle = Pool.load(str(STARTER_POOL)).oracle  # what `watercolour oracle` sends to the default Space
    assert (oracle.id, oracle.sketch, oracle.seed) == ("songbird-33", sketch, plan["reset"]["seed"])
    # sent for the subject it was rated for, in an episode whose copy guard lets the oracle through
    assert plan["reset"]["options"] == {"subject": oracle.subject, "oracle": True}
    assert len((REPO / "spaces/env/validation/runtime.json").read_bytes()) < 64 * 1024


@pytest.mark.wheel
def test_the_deployed_folder_installs_with_pip_as_the_client_package(env_space, tmp_path):
    """A training Job may take the client from the Space: `pip install` of its folder builds a wheel
    holding watercolour_env (and the trainer, whose code the Job runs)."""
    import zipfile

    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--no-build-isolation",
            "-w",
            str(tmp_path),
            str(env_space),
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]
    (wheel,) = tmp_path.glob("watercolour-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert "watercolour_env/client.py" in names and "watercolour_trainer/cli.py" in names
    assert "watercolour_env/pool/starter/pool.jsonl" in names


def test_the_oracles_floor_is_openenvs_tolerance_below_the_top():
    reward = yaml.safe_load((REPO / "envs/watercolour_env/openenv.yaml").read_text())["validation"]["reward"]
    assert reward["range"][1] - reward["oracle_tolerance"] == pytest.approx(ORACLE_FLOOR) == pytest.approx(0.9)
