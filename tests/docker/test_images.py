"""The deployed images, built and run here: an episode through the environment container, OpenEnv's
validator on the deployed folder and the running container, and one score from the HPSv3 image.

The environment image is built from the folder `watercolour deploy env --dry-run` writes, so the
image tested is the one a Space builds. What OpenEnv 0.10's validator declares but does not grade
(oracle, floor gap, canaries, seed control, determinism, isolation) is measured here against the
same container, with OpenEnv's own definitions (openenv.validation.manifest.RewardContract).
"""

from __future__ import annotations

import base64
import concurrent.futures
import json
import math
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from tests.conftest import EXAMPLES, REPO, bench_module, png_of
from tests.docker.conftest import container, logs, post_json, wait_for
from watercolour_env import EpisodeStatus, WatercolourAction, WatercolourEnv
from watercolour_trainer.demo import free_port

engine = bench_module("docker_engine")  # the local Docker engine (bench/docker_engine.py)

pytestmark = [pytest.mark.docker, pytest.mark.slow]
OPENENV = str(Path(sys.executable).parent / "openenv")
NOT_IMPLEMENTED = "grader not implemented in this build"
# The one reason a check may SKIP besides NOT_IMPLEMENTED: network_policy probes with a helper
# image pulled from Docker Hub by digest, which no registry here can serve.
NO_NETWORK_EVIDENCE = "network evidence is unavailable"


def contract(space: Path) -> dict:
    return yaml.safe_load((space / "openenv.yaml").read_text())["validation"]


def step(url: str, reply: str, seed: int = 7, subject: str = "a peach hibiscus", image: bool = False, **options):
    with WatercolourEnv(base_url=url, message_timeout_s=120).sync() as env:
        env.reset(seed=seed, subject=subject, return_image=image, **options)
        return env.step(WatercolourAction(reply=reply))


def test_the_environment_container_paints_an_episode(env_url, env_image):
    result = step(env_url, (EXAMPLES / "rich.js").read_text())
    obs = result.observation
    assert obs.status is EpisodeStatus.SCORED, obs.detail
    parts = {c.name: c for c in obs.reward_components}
    # the default weights (rubric.PRESETS["embedded"]): gate 0.05, length 0.05, embedded 0.90
    assert (parts["gate"].value, parts["gate"].weight) == (1.0, 0.05)
    assert parts["length"].weight == 0.05 and 0.0 < parts["length"].value < 1.0
    # the rich example sits near the middle of the starter's hibiscus (0.52 at seed 7, docs/LOG.md)
    assert parts["embedded"].weight == 0.90 and 0.3 < parts["embedded"].value <= 1.0
    assert parts["hpsv3"].status == parts["judge"].status == "not_configured"
    expected = 0.05 * 1.0 + 0.05 * parts["length"].value + 0.90 * parts["embedded"].value
    assert result.reward == pytest.approx(expected, abs=1e-9)


def test_the_container_logs_its_renderer_check_and_runs_as_uid_1000(env_url, env_image):
    ids = engine.run(engine.DOCKER, "ps", "-q", "--filter", f"ancestor={env_image}").stdout.split()
    assert ids, "the environment container is not running"
    log = logs(ids[0])
    assert "renderer: 2 workers on ANGLE (Mesa/X.org, llvmpipe" in log, log[-2000:]
    assert "reward weights" in log and "reference pool" in log
    assert not re.search(r"\d+ of \d+ computed", log), "the image's cache missed: the start computed from the pool"
    assert engine.run(engine.DOCKER, "exec", ids[0], "id", "-u").stdout.strip() == "1000"
    health = engine.run(engine.DOCKER, "inspect", "-f", "{{.State.Health.Status}}", ids[0]).stdout.strip()
    assert health in ("starting", "healthy")
    # no trainer dependencies in the environment image
    probe = "import importlib.util as u; print([m for m in ('torch', 'trl', 'peft', 'transformers') if u.find_spec(m)])"
    assert engine.run(engine.DOCKER, "exec", ids[0], "python3", "-c", probe).stdout.strip() == "[]"


def test_the_image_starts_from_its_cache_as_any_uid_on_a_read_only_root(env_image):
    """As `openenv validate` runs it: what the pool gives is read from the image, not computed (its 30 s deadline)."""
    result = engine.run(
        engine.DOCKER,
        *("run", "--rm", "--user", "65532:65532", "--read-only", "--tmpfs", "/tmp", env_image),
        *("watercolour", "-v", "serve", "--warm-only"),
    )
    out = result.stdout + result.stderr
    assert "165 paintings of" in out and "ready in" in out, out[-2000:]
    assert "0 computed" in out and "cannot be written" not in out, out[-2000:]


def test_the_oracle_reaches_the_top_and_a_reply_without_a_sketch_the_floor(env_url, env_space):
    """OpenEnv's reward contract: oracle >= max - oracle_tolerance, max - floor >= floor_margin."""
    reward = contract(env_space)["reward"]
    low, high = reward["range"]
    plan = json.loads((env_space / "validation" / "runtime.json").read_text())
    oracle = step(env_url, plan["actions"][0]["reply"], seed=plan["reset"]["seed"], **plan["reset"]["options"])
    assert oracle.observation.status is EpisodeStatus.SCORED
    assert oracle.reward >= high - reward["oracle_tolerance"], oracle.reward
    floor = step(env_url, "I would paint a hibiscus, but here are only words.").reward
    assert floor == low == 0.0
    assert high - floor >= reward["floor_margin"]


def test_the_oracle_script_runs_as_shipped(env_url, env_space):
    path = f"{Path(sys.executable).parent}:{os.environ['PATH']}"  # watercolour and python3 of this venv
    out = subprocess.run(
        ["sh", str(env_space / "validation" / "oracle.sh"), env_url],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "PATH": path},
    )
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["reward"] >= 0.9


def test_every_canary_is_held_at_the_floor(env_url, env_space):
    """The reward-hack corpus shipped as canaries: each rejected with reward 0.0 and its violation,
    or (an attempt with no effect) scored exactly as the same sketch without it."""
    canaries = env_space / contract(env_space)["capabilities"]["canaries"]
    expected = json.loads((canaries / "expected.json").read_text())
    assert len(expected) >= 80

    def run(name: str):
        return name, step(env_url, (canaries / name).read_text(), seed=1)

    with concurrent.futures.ThreadPoolExecutor(4) as pool:
        results = dict(pool.map(run, sorted(expected)))
    for name, want in expected.items():
        obs, reward = results[name].observation, results[name].reward
        if want["server"] == "scored_like_twin":
            attempt = want["same_as_without"]
            twin_source = (canaries / name).read_text().replace(attempt, "//" + "." * (len(attempt) - 3) + "\n")
            assert reward == step(env_url, twin_source, seed=1).reward, name
            continue
        assert (obs.status, reward) == (EpisodeStatus.REJECTED, 0.0), (name, obs.status, obs.detail)
        assert want["server"] in [v.value for v in obs.violations], (name, obs.violations)


def test_seed_control_determinism_and_isolation(env_url):
    """The same seed gives the same painting and reward, a new seed another painting; eight
    episodes at once each get what they would get alone."""
    sketch = (EXAMPLES / "hibiscus.js").read_text()
    first, again = (step(env_url, sketch, seed=3, image=True) for _ in range(2))
    other = step(env_url, sketch, seed=4, image=True)
    assert first.observation.image_png_b64 == again.observation.image_png_b64
    assert first.reward == again.reward
    assert other.observation.image_png_b64 != first.observation.image_png_b64
    alone = {seed: step(env_url, sketch, seed=seed).reward for seed in (11, 12)}
    with concurrent.futures.ThreadPoolExecutor(8) as pool:
        together = list(pool.map(lambda seed: (seed, step(env_url, sketch, seed=seed).reward), [11, 12] * 4))
    assert all(reward == alone[seed] for seed, reward in together), together


def validator_env() -> dict[str, str]:
    """OpenEnv's validator calls `docker` from PATH: Debian's client, classic builder (see env_image)."""
    return {**os.environ, "PATH": f"/usr/bin:{os.environ['PATH']}", "DOCKER_BUILDKIT": "0"}


def test_openenv_validate_passes_on_the_deployed_folder(env_image, env_space, tmp_path):
    out = tmp_path / "report.json"
    result = subprocess.run(
        [OPENENV, "validate", str(env_space), "--output", str(out)],
        capture_output=True,
        text=True,
        timeout=600,
        env=validator_env(),
    )
    assert result.returncode == 0, result.stdout + result.stderr
    report = json.loads(out.read_text())
    statuses = {r["check_id"]: (r["status"], " ".join(r.get("evidence", []))) for r in report["results"]}
    for check in (
        "static.manifest",
        "runtime.startup",
        "runtime.observation_schema",
        "runtime.reward_well_formed",
        "runtime.state_contract",
    ):
        assert statuses[check][0] == "pass", (check, statuses[check])
    for check, (status, evidence) in statuses.items():
        assert status in ("pass", "skip"), (check, status, evidence)
        if status == "skip":
            unmeasured = check == "runtime.network_policy" and NO_NETWORK_EVIDENCE in evidence
            assert NOT_IMPLEMENTED in evidence or unmeasured, (check, evidence)
    kept = REPO / "docs" / "validation" / "openenv-validate.json"
    if os.environ.get("UPDATE_VALIDATION_REPORT"):
        kept.write_text(out.read_text())
    assert {r["check_id"]: r["status"] for r in json.loads(kept.read_text())["results"]} == {
        check: status for check, (status, _) in statuses.items()
    }, "docs/validation/openenv-validate.json is stale: rerun with UPDATE_VALIDATION_REPORT=1"


def test_openenv_validate_url_passes_against_the_running_container(env_url):
    result = subprocess.run(
        [OPENENV, "validate", "--url", env_url, "--json"], capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stdout + result.stderr
    report = json.loads(result.stdout)
    assert report["passed"] and len(report["criteria"]) == 6
    assert all(c["passed"] for c in report["criteria"])


def test_the_hpsv3_image_scores_a_png_with_the_tiny_model(hpsv3_image):
    port = free_port()
    tiny = "/tmp/hpsv3-tiny"
    env = {"HPSV3_CONFIG_PATH": f"{tiny}/HPSv3_tiny.yaml", "HPSV3_CHECKPOINT_PATH": f"{tiny}/HPSv3_tiny.safetensors"}
    command = [
        "sh",
        "-c",
        f"python -m hpsv3_space.tiny_model {tiny} && exec uvicorn hpsv3_space.app:app --host 127.0.0.1 --port {port}",
    ]
    with container(hpsv3_image, env=env, command=command) as cid:
        url = f"http://127.0.0.1:{port}"
        try:
            wait_for(url + "/health", 300)
        except TimeoutError:
            pytest.fail("the HPSv3 container did not load its model:\n" + logs(cid)[-3000:])
        answer = post_json(
            url + "/score",
            {"images": [base64.b64encode(png_of("stripes")).decode()], "prompt": "a loose watercolour flower"},
        )
    (score,) = answer["scores"]
    assert math.isfinite(score["mu"]) and score["sigma"] > 0
    assert score["score"] == pytest.approx(1 / (1 + math.exp(-score["mu"] / 4)), rel=1e-6)
