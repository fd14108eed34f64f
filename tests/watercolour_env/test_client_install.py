"""The client install: the project without extras, from the folder a Space is built from (what
`pip install git+https://huggingface.co/spaces/...` gets), in a venv of its own. It has the client,
`watercolour episode` and the README's notebook example, and none of Playwright, torch or the
server's dependencies; a command that needs them says which extra in one line."""

from __future__ import annotations

import json
import re
import subprocess
import venv

import pytest

from tests.conftest import EXAMPLES, REPO
from watercolour_env.deploy.space_folder import assemble
from watercolour_env.errors import missing_extra

pytestmark = [pytest.mark.server, pytest.mark.browser, pytest.mark.slow]


@pytest.fixture(scope="module")
def client_venv(tmp_path_factory):
    """bin/ of a venv holding `pip install <the Space's folder>`, no extras (~35 s from local wheels)."""
    root = tmp_path_factory.mktemp("client")
    space = assemble("env", root / "space")
    venv.create(root / "venv", with_pip=True)
    bin_dir = root / "venv" / "bin"
    done = subprocess.run(
        [str(bin_dir / "pip"), "install", "-q", str(space)], capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return bin_dir


def test_the_client_install_leaves_out_the_browser_torch_and_the_server(client_venv):
    probe = "import importlib.util as u, json; print(json.dumps({m: u.find_spec(m) is not None for m in %r}))"
    wanted = ["watercolour_env", "openenv", "tree_sitter", "playwright", "torch", "trl", "datasets", "psutil"]
    found = json.loads(
        subprocess.run(
            [str(client_venv / "python"), "-c", probe % wanted], capture_output=True, text=True, check=True
        ).stdout
    )
    assert found == {
        "watercolour_env": True,
        "openenv": True,
        "tree_sitter": True,
        "playwright": False,
        "torch": False,
        "trl": False,
        "datasets": False,
        "psutil": False,
    }


def test_the_readme_notebook_example_runs_on_the_client_install(client_venv, server_url):
    text = (REPO / "README.md").read_text()
    code = re.search(r"```python\n(.*?)```", text[text.index("## From a notebook") :], re.S).group(1)
    assert 'base_url="http://127.0.0.1:8000"' in code
    code = code.replace('base_url="http://127.0.0.1:8000"', f'base_url="{server_url}"')
    done = subprocess.run(
        [str(client_venv / "python"), "-c", code], capture_output=True, text=True, timeout=300, cwd=REPO
    )
    assert done.returncode == 0, done.stderr[-2000:]
    lines = done.stdout.strip().splitlines()
    reward = float(lines[-4].split()[0])  # "0.61 [] 0.12": reward, violations, paint
    assert 0.0 < reward <= 1.0
    turns = [line.split(maxsplit=3) for line in lines[-3:]]  # turn, status, reward, critique
    assert [turn[:3] for turn in turns[:2]] == [["1", "revise", "None"], ["2", "revise", "None"]]
    assert turns[0][3].startswith("The gate refused this reply: it draws with p5's own shapes")
    assert turns[2][:2] == ["3", "scored"] and 0.0 < float(turns[2][2]) <= 1.0


def test_watercolour_episode_runs_on_the_client_install(client_venv, server_url):
    command = [str(client_venv / "watercolour"), "episode", str(EXAMPLES / "rich.js"), "--env-url", server_url]
    done = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert json.loads(done.stdout)["status"] == "scored"


NEEDS_AN_EXTRA = [
    (["render", str(EXAMPLES / "rich.js")], "server", "playwright"),
    (["serve"], "server", "playwright"),
    (["pool", "sheet", "x"], "server", "playwright"),
    (["train", "--help"], "train", "torch"),  # the train extra's own module first, not the server's it includes
    (["eval"], "train", "torch"),
]


@pytest.mark.parametrize(("command", "extra", "missing"), NEEDS_AN_EXTRA)
def test_a_command_needing_an_extra_names_it_in_one_line(client_venv, command, extra, missing):
    done = subprocess.run([str(client_venv / "watercolour"), *command], capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.count("\n") == 1 and f"needs the `{extra}` extra ({missing} is not installed)" in done.stderr
    assert f"pip install -e '.[{extra}]'" in done.stderr


def test_only_modules_of_an_extra_are_turned_into_the_line():
    assert "`train` extra (torch is not installed)" in missing_extra(ModuleNotFoundError(name="torch.nn"))
    assert "`server` extra (playwright is not installed)" in missing_extra(ModuleNotFoundError(name="playwright"))
    assert missing_extra(ModuleNotFoundError(name="not_a_dependency")) is None
    assert missing_extra(ModuleNotFoundError("no name")) is None
