"""bench/gpu_learn.sh's detached run, here on the CPU: start, wait, stop, each leaving a record."""

import os
import signal
import socket
import subprocess
import sys
import tarfile
import time
from pathlib import Path

import psutil
import pytest

from tests.conftest import REPO
from watercolour_trainer.demo import free_port

pytestmark = [pytest.mark.slow, pytest.mark.server, pytest.mark.browser, pytest.mark.train, pytest.mark.cli]


def learn(*args: str, env: dict) -> subprocess.CompletedProcess:
    return subprocess.run(
        ["bash", "bench/gpu_learn.sh", *args], cwd=REPO, env=env, capture_output=True, text=True, timeout=1500
    )


@pytest.fixture
def kit(tmp_path):
    """The kit's folder; whatever the test leaves running in a detached run's group is ended."""
    folder = tmp_path / "kit"
    folder.mkdir()
    yield folder
    if (folder / "train.pid").is_file():
        try:
            os.killpg(int((folder / "train.pid").read_text()), signal.SIGKILL)
        except ProcessLookupError:
            pass


@pytest.mark.timeout(3600)  # four trainings of the tiny policy, each waited for as an event
def test_a_detached_run_outlives_its_call_and_stops_with_a_checkpoint_when_asked(tmp_path, kit, tiny_policy):
    port = free_port()
    (kit / "env.sh").write_text(f"export PATH={Path(sys.executable).parent}:$PATH\n")  # gpu_kit_up.py's, here
    run = tmp_path / "run"
    config = tmp_path / "tiny.yaml"
    config.write_text(
        (REPO / "trainer" / "configs" / "demo.yaml").read_text().replace("output_dir: runs/demo", f"output_dir: {run}")
    )
    env = {**os.environ, "KIT_DIR": str(kit), "KIT_PORT": str(port), "OUT": str(tmp_path / "out")}
    # --stop and --detach wait for events (the trainer's end, the server's answer): on a loaded machine
    # they can outlast the GPU's bounds (240 s, 180 s), so the bounds here are ones no healthy run reaches
    env |= {"STOP_WAIT_S": "1200", "SERVE_WAIT_S": "600"}
    small = ["--", "--env_url", f"http://127.0.0.1:{port}", "--max_steps", "30", "--num_generations", "2"]
    small += ["--per_device_train_batch_size", "2", "--max_completion_length", "16", "--n_prompts", "4"]
    small += ["--episode_timeout_s", "30"]  # a dead server's step ends at it
    small += ["--model", str(tiny_policy)]  # the kit's plumbing is tested, not the policy (tests/policies.py)

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

    # a fresh start in a folder that holds checkpoints would make a record of two runs
    afresh = learn("--detach", str(config), *small, env=env)
    assert afresh.returncode == 2 and "resume with -- --resume_from_checkpoint last" in afresh.stdout

    # resumed, then the server dies: the wait stops the trainer rather than train unscored
    resumed = learn("--detach", str(config), *small, "--resume_from_checkpoint", "last", env=env)
    assert resumed.returncode == 0, resumed.stdout + resumed.stderr
    deadline = time.monotonic() + 600  # an event, not a speed: the resumed run's first step ends
    log = kit / "train.log"  # written once the server answers
    while not (log.is_file() and "step 2/" in log.read_text()) and time.monotonic() < deadline:
        time.sleep(1)
    command = f"serve --port {port}"
    [server] = [p for p in psutil.process_iter(["cmdline"]) if command in " ".join(p.info["cmdline"] or [])]
    server.kill()
    waited = learn("--wait", "600", str(config), env=env)
    assert "the server stopped answering" in waited.stdout and "training ended" in waited.stdout
    with pytest.raises(ProcessLookupError):
        os.kill(int((kit / "train.pid").read_text()), 0)
