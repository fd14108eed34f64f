"""The load benchmark's short form runs in `make test`: no protocol error, no leaked session."""

import json
import subprocess
import sys

import pytest

from tests.conftest import REPO

pytestmark = [pytest.mark.server, pytest.mark.browser]


def test_the_short_load_benchmark_runs_clean(tmp_path):
    table = tmp_path / "load.json"
    command = [sys.executable, str(REPO / "bench" / "server_load.py"), "--short", "--json", str(table)]
    finished = subprocess.run(command, capture_output=True, text=True, timeout=600)
    assert finished.returncode == 0, finished.stdout + finished.stderr
    [row] = json.loads(table.read_text())
    assert (row["config"], row["episodes"], row["errors"], row["leaked_sessions"]) == ("4x3", 12, [], 0)
    # the mix is 5 sketches (0 hibiscus, 1 rich, 2 trivial pass; 3 bare primitives, 4 a throw do
    # not); session s steps sketches s, s+1, s+2 (mod 5): 012, 123, 234, 340 = 7 pass, 5 rejected
    assert row["statuses"] == {"scored": 7, "rejected": 5}


def test_the_load_benchmark_runs_episodes_with_revisions(tmp_path):
    table = tmp_path / "load.json"
    command = [sys.executable, str(REPO / "bench" / "server_load.py"), "--short", "--revisions", "2"]
    finished = subprocess.run([*command, "--json", str(table)], capture_output=True, text=True, timeout=600)
    assert finished.returncode == 0, finished.stdout + finished.stderr
    [row] = json.loads(table.read_text())
    assert (row["config"], row["episodes"], row["errors"], row["leaked_sessions"]) == ("4x3", 36, [], 0)  # turns
    # session s paints sketches s, s+1, ... s+8 (mod 5), three to an episode; its last paintings are
    # sketches s+2, s, s+3: (2, 0, 3), (3, 1, 4), (4, 2, 0), (0, 3, 1): 7 pass, 5 rejected
    assert row["statuses"] == {"revise": 24, "scored": 7, "rejected": 5}
