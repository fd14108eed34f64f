"""`bench/revision_turns.py` on the tiny tool-calling policy: turn by turn, each painting scored alone."""

import json
import subprocess
import sys

import pytest

from tests.conftest import REPO, app_server

pytestmark = [pytest.mark.slow, pytest.mark.server, pytest.mark.browser, pytest.mark.train]


@pytest.fixture(scope="module")
def two_sessions():
    """A server that holds two sessions at once: the episodes' own must go back before scoring alone."""
    with app_server(render_workers=2, render_deadline_s=10, max_concurrent_envs=2) as url:
        yield url


@pytest.mark.timeout(1200)  # beyond its subprocess's own limit, which then reports
def test_the_turn_table_counts_each_turn_and_scores_each_painting_alone(two_sessions, tool_policy, tmp_path):
    out = tmp_path / "turns.json"
    command = [sys.executable, str(REPO / "bench" / "revision_turns.py"), "--env-url", two_sessions]
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


def test_more_episodes_than_the_server_holds_are_refused_before_the_policy_loads(two_sessions, tmp_path):
    command = [sys.executable, str(REPO / "bench" / "revision_turns.py"), "--env-url", two_sessions]
    command += ["--episodes", "3", "--out", str(tmp_path / "turns.json")]
    run = subprocess.run(command, capture_output=True, text=True, timeout=300, cwd=REPO)
    assert run.returncode == 1
    assert "--episodes 3 is more than the server's 2 free sessions" in run.stderr
    assert not (tmp_path / "turns.json").exists()
