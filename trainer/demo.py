"""`watercolour demo`: start an environment server on loopback, train 2 GRPO steps, stop it.

The main job end to end on the embedded defaults (trainer/configs/demo.yaml): the 135M
SmolLM2 policy with the shipped demo adapter (SFT on the warm-start corpus's short sketches, so
4 replies decode in about 4 minutes on 2 cores), on the CPU, 4 unprimed generations per prompt.
Flags after `demo` go to the trainer and win (`--adapter DIR`, `--max_steps 1`).
"""

from __future__ import annotations

import logging
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from watercolour_env.errors import WatercolourError
from watercolour_trainer import PACKAGE

log = logging.getLogger(__name__)

DEMO_CONFIG = PACKAGE / "configs" / "demo.yaml"


def free_port() -> int:
    """An unused TCP port on 127.0.0.1."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_healthy(url: str, server: subprocess.Popen, timeout_s: float = 120.0) -> None:
    """Blocks until `GET url/health` answers 200.

    Raises:
        WatercolourError: the server exited or stayed silent for `timeout_s` seconds.
    """
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise WatercolourError(f"the environment server exited with code {server.returncode}; see its log")
        try:
            with urllib.request.urlopen(f"{url}/health", timeout=2) as response:
                if response.status == 200:
                    return
        except OSError:
            time.sleep(0.5)
    raise WatercolourError(f"the environment server at {url} did not become healthy in {timeout_s:g} s")


def run_demo(extra_args: list[str]) -> None:
    """Runs the demo; `extra_args` are passed on to the trainer (e.g. `--max_steps 1`)."""
    from watercolour_trainer.training.policy import DEMO_ADAPTER
    from watercolour_trainer.training.train import main as train_main

    port = free_port()
    url = f"http://127.0.0.1:{port}"
    command = [sys.executable, "-m", "watercolour_env.cli", "serve", "--host", "127.0.0.1", "--port", str(port)]
    log_path = Path("runs") / "demo-server.log"
    log_path.parent.mkdir(parents=True, exist_ok=True)
    print(f"Starting the environment server at {url} (log: {log_path}) ...", flush=True)
    server_log = open(log_path, "w")  # noqa: SIM115 (closed in finally)
    server = subprocess.Popen(command, stdout=server_log, stderr=subprocess.STDOUT)
    try:
        wait_healthy(url, server)
        train_main(["--config", str(DEMO_CONFIG), "--env_url", url, "--adapter", str(DEMO_ADAPTER), *extra_args])
    finally:
        server.terminate()
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
        server_log.close()
        print("Environment server stopped.", flush=True)
