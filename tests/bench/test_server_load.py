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
    # the mix is 5 sketches cycled: hibiscus, rich, trivial pass; bare primitives and a throw do not
    assert row["statuses"] == {"scored": 8, "rejected": 4}
