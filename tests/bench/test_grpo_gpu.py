"""bench/grpo_gpu.py runs here on a tiny random model, so its GPU run is the same code."""

import json
import subprocess
import sys

import pytest

from tests.conftest import REPO

pytestmark = [pytest.mark.slow, pytest.mark.server]


def test_one_grpo_step_of_a_tiny_random_policy_against_the_stand_in_server(tmp_path):
    out = tmp_path / "tiny.json"
    command = [
        sys.executable,
        str(REPO / "bench" / "grpo_gpu.py"),
        "--arch",
        "tiny",
        "--steps",
        "1",
        "--max-completion-length",
        "8",
        "--render-s",
        "0.2",
        "--json",
        str(out),
        "--output-dir",
        str(tmp_path / "run"),
    ]
    finished = subprocess.run(command, capture_output=True, text=True, timeout=600)
    assert finished.returncode == 0, finished.stdout[-2000:] + finished.stderr[-3000:]
    summary = json.loads(out.read_text())
    [step] = summary["steps"]
    assert summary["renders"] == 8  # one group of 8, each reply rendered by the stand-in
    assert step["tokens"] == 8 * 8  # random weights never stop early: 8 replies x 8 tokens
    # 8 renders of 0.2 s on 2 workers take at least 0.8 s, all inside the reward call
    assert 0.8 <= step["reward_s"] <= step["step_s"]
    assert "LoRA on" in summary["training"]
