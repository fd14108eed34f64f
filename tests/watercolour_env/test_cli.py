"""The `watercolour episode` command against the real server: output, weights, exit codes."""

import json
import os
import subprocess

import pytest

from tests.conftest import EXAMPLES, WATERCOLOUR, episode

pytestmark = [pytest.mark.server, pytest.mark.browser]


def test_an_episode_prints_its_observation_with_the_weights_asked_for(server_url):
    done = episode(server_url, "--weights", '{"gate": 0.5, "length": 0.5}')
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["status"] == "scored"
    assert {c["name"]: c["weight"] for c in report["reward_components"] if c["weight"]} == {"gate": 0.5, "length": 0.5}


def test_weights_the_server_cannot_honour_are_one_line_and_exit_2(server_url):
    refused = episode(server_url, "--weights", "hps-only")
    assert refused.returncode == 2
    assert refused.stderr.startswith("error: the server refused the episode") and "hpsv3" in refused.stderr
    assert "Traceback" not in refused.stderr


def test_render_honours_the_network_namespace_setting_and_says_what_to_set():
    env = {**os.environ, "PATH": "/nonexistent", "WATERCOLOUR_RENDER_NETWORK_NAMESPACE": "on"}
    done = subprocess.run([WATERCOLOUR, "render", str(EXAMPLES / "trivial.js")], capture_output=True, text=True,
                          env=env, timeout=120)  # fmt: skip
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith("error: no network namespace")
    assert "WATERCOLOUR_RENDER_NETWORK_NAMESPACE=auto" in done.stderr


def test_render_exits_1_for_a_sketch_that_throws_and_2_for_a_file_that_is_not_text(tmp_path):
    command = [WATERCOLOUR, "render", str(EXAMPLES / "throws_in_draw.js"), "--out", str(tmp_path / "a.png")]
    threw = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert threw.returncode == 1, threw.stderr
    assert json.loads(threw.stdout)["status"] == "sketch_error"
    png = tmp_path / "picture.png"
    png.write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(range(256)))
    binary = subprocess.run([WATERCOLOUR, "render", str(png)], capture_output=True, text=True, timeout=120)
    assert binary.returncode == 2
    assert binary.stderr.strip().splitlines() == [f"error: {png} is not a text file; give a p5.js sketch"]
