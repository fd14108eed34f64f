"""`bench/revision_turns.py` on the tiny tool-calling policy: turn by turn, each painting scored alone."""

import json
import subprocess
import sys

import pytest

from tests.conftest import REPO

pytestmark = [pytest.mark.slow, pytest.mark.server, pytest.mark.browser, pytest.mark.train]


def test_the_turn_table_counts_each_turn_and_scores_each_painting_alone(server_url, tool_policy, tmp_path):
    out = tmp_path / "turns.json"
    command = [sys.executable, str(REPO / "bench" / "revision_turns.py"), "--env-url", server_url]
    command += ["--model", str(tool_policy), "--episodes", "2", "--revisions", "1", "--base-seed", "0"]
    command += ["--temperature", "0.05", "--max-new-tokens", "300", "--out", str(out)]
    run = subprocess.run(command, capture_output=True, text=True, timeout=900, cwd=REPO)
    assert run.returncode == 0, run.stderr[-3000:]
    result = json.loads(out.read_text())
    first, second = result["turns"]
    assert first["turn"] == 1 and first["episodes"] == 2 and first["gate_pass"] == 1.0
    assert first["vs_first"] is None and second["turn"] == 2
    episode = result["episodes"][0]  # seed 0: the exchange the policy knows by heart
    assert episode["seed"] == 0 and [t["status"] for t in episode["turns"]] == ["revise", "scored"]
    assert episode["turns"][0]["alone"] == episode["turns"][1]["alone"] > 0  # the same sketch, the same seed
    assert "turn 1: 2 of 2 replies called paint" in run.stdout
    assert run.stdout.splitlines()[-4].split() == [
        "turn",
        "episodes",
        "gate",
        "pass",
        "mean",
        "median",
        "vs",
        "1st",
        "t",
    ]
