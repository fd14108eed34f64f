"""`bench/tool_turns.py` on a real server: both orders of a turn's calls, the same answers."""

import subprocess
import sys

import pytest

from tests.conftest import REPO

pytestmark = [pytest.mark.server, pytest.mark.browser]


def test_a_turn_at_once_answers_as_one_after_another_does():
    command = [sys.executable, str(REPO / "bench" / "tool_turns.py"), "--rollouts", "3", "--rounds", "1"]
    finished = subprocess.run(command, capture_output=True, text=True, timeout=600)
    assert finished.returncode == 0, finished.stdout + finished.stderr
    assert "one after another (TRL)" in finished.stdout and "a turn at once (TurnCalls)" in finished.stdout
    assert "rounds whose answers differ between the two: 0 of 1" in finished.stdout
