"""bench/gpu_learn.sh's detached run, here on the CPU: start, wait, stop, each leaving a record."""

import os
import socket
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest

from tests.conftest import REPO
from watercolour_trainer.demo import free_port

pytestmark = [pytest.mark.slow, pytest.mark.server, pytest.mark.browser, pytest.mark.train, pytest.mark.cli]


def learn(*args: str, env: dict) -> subprocess.CompletedProcess:
    return subprocess.run(
        ["bash", "bench/gpu_learn.sh", *args], cwd=REPO, env=env, capture_output=True, text=True, timeout=600
    )


def test_a_detached_run_outlives_its_call_and_stops_with_a_checkpoint_when_asked(tmp_path):
    kit, port = tmp_path / "kit", free_port()
    kit.mkdir()
    (kit / "env.sh").write_text(f"export PATH={Path(sys.executable).parent}:$PATH\n")  # gpu_kit_up.py's, here
    run = tmp_path / "run"
    config = tmp_path / "tiny.yaml"
    config.write_text(
        (REPO / "trainer" / "configs" / "demo.yaml").read_text().replace("output_dir: runs/demo", f"output_dir: {run}")
    )
    env = {**os.environ, "KIT": str(kit), "PORT": str(port), "OUT": str(tmp_path / "out")}
    small = ["--", "--env_url", f"http://127.0.0.1:{port}", "--max_steps", "30", "--num_generations", "2"]
    small += ["--per_device_train_batch_size", "2", "--max_completion_length", "16", "--n_prompts", "4"]

    started = learn("--detach", str(config), *small, env=env)
    assert started.returncode == 0, started.stdout + started.stderr
    assert '"status":"healthy"' in started.stdout and "training in the background" in started.stdout
    pid = int((kit / "train.pid").read_text())
    os.kill(pid, 0)  # the call has returned; the training has not
    assert learn("--detach", str(config), *small, env=env).returncode == 1  # one at a time

    stopped = learn("--stop", str(config), env=env)
    assert stopped.returncode == 0, stopped.stdout + stopped.stderr
    assert "training ended: exit 0" in stopped.stdout
    # the stop file was there before the first step ended, whatever the machine's speed
    assert "record.tar: checkpoint-1, 2 rollouts up to its step" in stopped.stdout
    with tarfile.open(tmp_path / "out" / "record.tar") as tar:
        assert "record/checkpoint-1/adapter_model.safetensors" in tar.getnames()
    assert not (run / "STOP").exists() and not (run / "checkpoint-2").exists()
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)
    with pytest.raises(ConnectionRefusedError):  # the server went with it
        socket.create_connection(("127.0.0.1", port), timeout=5)
    again = learn("--wait", "1", str(config), env=env)  # an ended run: packed again, its exit said
    assert again.returncode == 0 and "training ended: exit 0" in again.stdout
