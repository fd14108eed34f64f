"""The notebook recipe of docs/training.md (a stock TRL GRPOTrainer against the environment) runs as written:
only its three settings are changed, to the test server, a local folder of the tiny random
policy (tests/policies.py; no hub here: the recipe's plumbing is tested, not a policy) and one short step."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest

from tests.conftest import REPO

pytestmark = [pytest.mark.server, pytest.mark.browser, pytest.mark.slow]


def recipe() -> str:
    text = (REPO / "docs" / "training.md").read_text()
    start = text.index("A stock TRL `GRPOTrainer` in a notebook")
    return re.search(r"```python\n(.*?)```", text[start:], re.S).group(1)


def test_the_recipe_trains_one_step_against_the_server(server_url, tiny_policy, tmp_path):
    code = recipe()
    settings = {
        'ENV_URL = "http://127.0.0.1:8000"': f'ENV_URL = "{server_url}"',
        'MODEL = "Qwen/Qwen3-0.6B"': f'MODEL = "{tiny_policy}"',
        "STEPS, TOKENS = 10, 1024": "STEPS, TOKENS = 1, 16",
    }
    for written, here in settings.items():
        assert written in code, written
        code = code.replace(written, here)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600, cwd=tmp_path)
    assert done.returncode == 0, done.stderr[-3000:]
    state = json.loads(next((tmp_path / "runs" / "notebook").rglob("trainer_state.json")).read_text())
    assert state["global_step"] == 1
    (logged,) = [row for row in state["log_history"] if "reward" in row]
    assert 0.0 <= logged["reward"] <= 1.0  # 16 tokens write no sketch: every reply rejected, 0.0
