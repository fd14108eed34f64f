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
    done = subprocess.run(
        [WATERCOLOUR, "render", str(EXAMPLES / "trivial.js")], capture_output=True, text=True, env=env, timeout=120
    )
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith("error: no network namespace")
    assert "WATERCOLOUR_RENDER_NETWORK_NAMESPACE=auto" in done.stderr


def test_render_exits_1_for_a_sketch_that_throws_and_2_for_a_file_that_is_not_text(tmp_path):
    command = [WATERCOLOUR, "render", str(EXAMPLES / "throws_in_draw.js"), "--out", str(tmp_path / "a.png")]
    threw = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert threw.returncode == 1, threw.stderr
    assert json.loads(threw.stdout)["status"] == "sketch_error"
    assert threw.stderr.strip().splitlines()[-1] == (
        "error: sketch_error: the sketch threw; fix the sketch (its errors are in js_errors above)"
    )
    png = tmp_path / "picture.png"
    png.write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(range(256)))
    binary = subprocess.run([WATERCOLOUR, "render", str(png)], capture_output=True, text=True, timeout=120)
    assert binary.returncode == 2
    assert binary.stderr.strip().splitlines() == [f"error: {png} is not a text file; give a p5.js sketch"]


def one_line(done: subprocess.CompletedProcess) -> str:
    """The single stderr line of a refused command (and nothing on stdout)."""
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and not done.stdout, done.stdout + done.stderr
    return lines[0]


def test_an_episode_with_weights_that_are_not_json_is_one_line_and_exit_2():
    done = subprocess.run(
        [WATERCOLOUR, "episode", str(EXAMPLES / "hibiscus.js"), "--weights", "{gate: 1"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2
    assert one_line(done).startswith("error: weights '{gate: 1' are not JSON (Expecting property name")


def test_an_episode_of_a_file_that_is_not_text_is_one_line_and_exit_2(tmp_path):
    png = tmp_path / "picture.png"
    png.write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(range(256)))
    done = subprocess.run([WATERCOLOUR, "episode", str(png)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    assert one_line(done) == f"error: {png} is not a text file; give a model reply or a p5.js sketch"


def test_an_episode_of_more_reply_files_than_revisions_allow_says_so_in_files(server_url):
    sketch = str(EXAMPLES / "hibiscus.js")
    nine_revisions = subprocess.run(
        [WATERCOLOUR, "episode", *[sketch] * 10], capture_output=True, text=True, timeout=120
    )
    assert nine_revisions.returncode == 2  # refused before any server is asked: none listens on the default port
    assert one_line(nine_revisions) == "error: 10 reply files: an episode paints at most 9 (1 + revisions)"
    four = episode(server_url, *[sketch] * 4)  # the fixture's `episode` adds one more: 5 files, 4 revisions
    assert four.returncode == 2 and "Server error" not in four.stderr
    assert four.stderr.startswith("error: 5 reply files are 4 revisions: revisions=4: this server allows at most 3")


def test_serve_on_a_port_another_server_holds_refuses_before_chromium_starts():
    import socket

    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        port = holder.getsockname()[1]
        done = subprocess.run([WATERCOLOUR, "serve", "--port", str(port)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    assert one_line(done).startswith(f"error: cannot listen on 127.0.0.1:{port} (Address already in use)")
    too_high = subprocess.run([WATERCOLOUR, "serve", "--port", "99999"], capture_output=True, text=True, timeout=60)
    assert too_high.returncode == 2 and "less than or equal to 65535" in too_high.stderr


def test_a_bad_setting_is_one_line():
    env = {**os.environ, "WATERCOLOUR_RENDER_WORKERS": "many", "WATERCOLOUR_EPISODE_DEADLINE_S": "-1"}
    done = subprocess.run(
        [WATERCOLOUR, "render", str(EXAMPLES / "hibiscus.js")], capture_output=True, text=True, timeout=60, env=env
    )
    assert done.returncode == 2
    line = one_line(done)
    assert line.startswith("error: invalid WATERCOLOUR_* setting: ")
    assert "WATERCOLOUR_RENDER_WORKERS: Input should be a valid integer" in line
    assert "; WATERCOLOUR_EPISODE_DEADLINE_S: Input should be greater than 0" in line
