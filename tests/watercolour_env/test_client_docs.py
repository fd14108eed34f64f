"""docs/client.md's async client example runs as written against the real server (only its URL changed)."""

from __future__ import annotations

import ast
import re
import subprocess
import sys

import pytest

from tests.conftest import REPO

pytestmark = [pytest.mark.server, pytest.mark.browser]


def test_the_async_example_runs_four_episodes_at_once(server_url):
    text = (REPO / "docs" / "client.md").read_text()
    start = text.index("The client is async underneath")
    code = re.search(r"```python\n(.*?)```", text[start:], re.S).group(1)
    written = 'url: str = "http://127.0.0.1:8000"'
    assert written in code
    code = code.replace(written, f'url: str = "{server_url}"')
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300, cwd=REPO)
    assert done.returncode == 0, done.stderr[-2000:]
    rewards = ast.literal_eval(done.stdout.strip())  # a printed list of four floats
    assert len(rewards) == 4 and all(0.0 < r <= 1.0 for r in rewards)
