"""The trainer finds the replica Spaces `watercolour deploy env --replicas N` creates."""

from __future__ import annotations

import json

import pytest

from tests.watercolour_env.deploy.conftest import deploy


@pytest.mark.train
@pytest.mark.cli
def test_the_trainer_finds_the_replicas_deploy_creates(tmp_path):
    from watercolour_trainer.training.arguments import WatercolourArguments

    result = deploy("env", "--space", "me/wenv", "--replicas", "3", "--dry-run", str(tmp_path))
    assert result.returncode == 0, result.stderr
    created = [
        c["args"]["repo_id"] for c in json.loads((tmp_path / "calls.json").read_text()) if c["call"] == "create_repo"
    ]
    # a Space USER/NAME is served at https://USER-NAME.hf.space
    hosts = ["https://" + name.replace("/", "-") + ".hf.space" for name in created]
    urls = WatercolourArguments(env_url="https://me-wenv.hf.space", env_replicas=3).replica_urls()
    assert urls == hosts == ["https://me-wenv-1.hf.space", "https://me-wenv-2.hf.space", "https://me-wenv-3.hf.space"]
