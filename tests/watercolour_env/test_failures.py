"""Every failure that reaches the command line is one line and a code of docs/environment.md's table.

Unit tests of `failures.one_line`, then the commands themselves in subprocesses: bad paths and
values refused before any work, servers that close, babble or refuse mid-episode, Ctrl+C.
"""

import json
import os
import signal
import socket
import subprocess
import threading
import time

import pytest

from tests.conftest import EXAMPLES, REPO, WATERCOLOUR
from watercolour_env.errors import ConfigError, Unscored
from watercolour_env.failures import ExitCode, one_line, redact


def run(*args: str, timeout: int = 120, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run([WATERCOLOUR, *args], capture_output=True, text=True, timeout=timeout, **kwargs)


def framed(done: subprocess.CompletedProcess) -> str:
    """The usage error's framed message as one string (the frame's borders and wrapping taken out)."""
    return " ".join(done.stderr.replace("│", " ").split())


def the_line(done: subprocess.CompletedProcess) -> str:
    """The single stderr line of a refused command."""
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stdout + done.stderr
    return lines[0]


# one_line, by hand


def test_a_missing_file_a_folder_and_a_file_in_the_way_are_named_with_code_2():
    assert one_line(FileNotFoundError(2, "No such file or directory", "/x/y.yaml")) == (
        "/x/y.yaml does not exist; give another path",
        ExitCode.FIX,
    )
    folder = one_line(IsADirectoryError(21, "Is a directory", "/x"))[0]
    assert folder == "/x is a folder where a file is wanted; give another path"
    assert one_line(FileExistsError(17, "File exists", "/f"))[1] == 2


def test_a_hub_that_cannot_be_reached_is_code_2_with_what_to_check():
    offline = OSError("We couldn't connect to 'https://huggingface.co' to load the files")
    line, code = one_line(offline)
    assert code == 2 and line.startswith("could not load from the Hugging Face Hub (We couldn't connect")
    assert line.endswith("check the network and HF_TOKEN, or give a local folder")


def test_any_http_client_a_full_disk_and_an_unreadable_image_are_code_2():
    from PIL import UnidentifiedImageError

    hub_client = type("ConnectError", (Exception,), {"__module__": "httpx2._exceptions"})  # huggingface_hub 2's
    assert one_line(hub_client("Name or service not known")) == (
        "could not reach the Hugging Face Hub or a server (Name or service not known); check the network and HF_TOKEN",
        2,
    )
    assert one_line(OSError(28, "No space left on device")) == (
        "the system refused (No space left on device); check the disk, the path and its permissions",
        2,
    )
    assert one_line(UnidentifiedImageError("cannot identify image file"))[1] == 2


def test_project_errors_keep_their_line_and_their_code():
    assert one_line(ConfigError("set WATERCOLOUR_POOL")) == ("set WATERCOLOUR_POOL", 2)
    assert one_line(Unscored("the server closed; try again")) == ("the server closed; try again", 3)
    assert one_line(KeyboardInterrupt()) == ("interrupted (Ctrl+C)", 130)


def test_text_yaml_and_validation_errors_are_code_2():
    import yaml
    from pydantic import BaseModel

    class Reply(BaseModel):
        reply: str

    not_text = UnicodeDecodeError("utf-8", b"\xff", 0, 1, "invalid start byte")
    assert one_line(not_text) == ("a file is not UTF-8 text (invalid start byte at byte 0); give a text file", 2)
    with pytest.raises(yaml.YAMLError) as bad_yaml:
        yaml.safe_load("- [1")
    assert one_line(bad_yaml.value)[1] == 2 and one_line(bad_yaml.value)[0].startswith("a YAML file is malformed (")
    with pytest.raises(ValueError) as invalid:
        Reply(reply=5)
    assert one_line(invalid.value) == ("reply: Input should be a valid string", 2)


def test_anything_else_is_code_4_and_its_traceback_is_kept_in_the_file_the_line_names():
    try:
        1 / 0  # noqa: B018
    except ZeroDivisionError as err:
        line, code = one_line(err)
    assert code == 4
    assert line.startswith("unexpected ZeroDivisionError: division by zero (a bug, or this machine; the traceback")
    kept = line.split("the traceback is in ")[1].split(",")[0]
    assert "1 / 0" in open(kept, encoding="utf-8").read()


def test_a_line_never_carries_a_token_from_the_environment():
    environ = {"WATERCOLOUR_API_TOKEN": "sekrit-123", "HF_TOKEN": "hf_abcdef", "PATH": "/usr/bin"}
    shown = redact("Bearer sekrit-123 and hf_abcdef in /usr/bin", environ)
    assert shown == "Bearer [redacted] and [redacted] in /usr/bin"


# the commands: refused before any work


@pytest.mark.cli
def test_render_refuses_an_output_path_under_a_file_a_negative_seed_and_a_nan_deadline(tmp_path):
    (tmp_path / "file").write_text("")
    sketch = str(EXAMPLES / "hibiscus.js")
    under_a_file = run("render", sketch, "--out", str(tmp_path / "file" / "x.png"))
    assert under_a_file.returncode == 2 and "is a file, so" in framed(under_a_file)
    assert run("render", sketch, "--seed", "-1").returncode == 2
    assert run("render", sketch, "--seed", str(2**32)).returncode == 2
    nan = run("render", sketch, "--deadline-s", "nan")
    assert nan.returncode == 2 and "nan is not a deadline in (0, 300] seconds" in framed(nan)
    assert not list(tmp_path.glob("*.png"))


@pytest.mark.train
def test_train_a_missing_config_a_bad_value_and_a_typo_are_one_line_each(tmp_path):
    missing = run("train", "--config", str(tmp_path / "nope.yaml"))
    assert missing.returncode == 2
    assert the_line(missing) == f"error: {tmp_path / 'nope.yaml'} does not exist; give another path"
    bad_value = run("train", "--max_steps", "abc")
    assert bad_value.returncode == 2
    assert bad_value.stderr.strip().splitlines()[-1].endswith("invalid int value: 'abc'")
    assert len(bad_value.stderr.strip().splitlines()) == 2  # the short usage and the refusal
    typo = run("train", "--learning-rat", "1e-5")  # on a CPU machine: the typo, not bf16, is named
    assert typo.returncode == 2 and "['--learning-rat']" in the_line(typo)


@pytest.mark.train
def test_train_help_lists_the_seed_flags_and_bench_help_reaches_the_script():
    listed = " ".join(run("train", "--help").stdout.split())
    assert "--lr (--learning_rate)" in listed and "--out (--hub_model_id)" in listed
    script = run("bench", "render", "--help")
    assert script.returncode == 0 and "--baseline-reps" in script.stdout
    assert run("bench", "../trainer/cli").returncode == 2


@pytest.mark.train
def test_a_config_key_no_flag_takes_is_named_before_any_other_check(tmp_path):
    config = tmp_path / "typo.yaml"
    config.write_text("learning_rat: 1.0e-5\nmax_steps: 1\n")
    done = run("train", "--config", str(config))  # on a CPU machine: the key, not bf16, is named
    assert done.returncode == 2 and "['--learning_rat']" in the_line(done)


@pytest.mark.train
def test_eval_refuses_to_write_over_its_replies_file(tmp_path):
    replies = tmp_path / "eval.json"
    replies.write_text(json.dumps({"subject": "a peach hibiscus", "seed": 0, "reply": "// a sketch"}) + "\n")
    done = run("eval", "--replies", str(replies), "--out", str(replies))
    assert done.returncode == 2 and "is the --replies file; give --out another path" in framed(done)


@pytest.mark.train
def test_eval_refuses_an_empty_replies_file_and_a_reply_that_is_not_text(tmp_path):
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    assert run("eval", "--replies", str(empty)).returncode == 2
    assert the_line(run("eval", "--replies", str(empty))) == f"error: --replies {empty}: no replies in it"
    number = tmp_path / "number.jsonl"
    number.write_text(json.dumps({"subject": "a peach hibiscus", "seed": 0, "reply": 5}) + "\n")
    done = run("eval", "--replies", str(number))
    assert done.returncode == 2 and "a reply is not a string" in the_line(done)


@pytest.mark.cli
def test_pool_commands_refuse_an_empty_folder_a_taken_port_and_a_bad_dataset_id(tmp_path):
    (tmp_path / "empty").mkdir()
    nothing = run("pool", "render", str(tmp_path / "empty"))
    assert nothing.returncode == 2 and the_line(nothing).startswith("error: no sketches/*.js in ")
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        port = holder.getsockname()[1]
        taken = run("pool", "rate", str(REPO / "envs/watercolour_env/pool/starter"), "--port", str(port))
    assert taken.returncode == 2 and not taken.stdout  # no "Open http://..." for a port it cannot have
    assert the_line(taken).startswith(f"error: cannot listen on 127.0.0.1:{port}") and "another --port," in taken.stderr
    starter = str(REPO / "envs/watercolour_env/pool/starter")
    bad_id = run("pool", "push", starter, "not a repo id", "--dry-run", str(tmp_path / "upload"))
    assert bad_id.returncode == 2 and the_line(bad_id).startswith("error: 'not a repo id' is not a Hub dataset id")


@pytest.mark.cli
def test_a_gallery_of_a_run_without_rollouts_is_refused(tmp_path):
    (tmp_path / "rollouts.jsonl").write_text("")
    done = run("gallery", str(tmp_path))
    assert done.returncode == 2 and the_line(done) == f"error: {tmp_path / 'rollouts.jsonl'} holds no rollouts yet"


@pytest.mark.cli
def test_gallery_and_analyze_name_the_line_of_a_rollouts_file_that_is_not_a_run(tmp_path):
    (tmp_path / "rollouts.jsonl").write_text("[1, 2]\n")
    for command in ("gallery", "analyze"):
        done = run(command, str(tmp_path))
        assert done.returncode == 2
        assert the_line(done) == (f"error: {tmp_path / 'rollouts.jsonl'}:1: not a rollout (a JSON list, not an object)")


# the commands: servers that misbehave


class FakeServer:
    """A websocket server on loopback that answers every message with `behaviour(connection)`."""

    def __init__(self, behaviour):
        from websockets.sync.server import serve

        self.server = serve(lambda connection: behaviour(connection), "127.0.0.1", 0)
        self.url = f"http://127.0.0.1:{self.server.socket.getsockname()[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()


def closes_mid_episode(connection) -> None:
    connection.recv()
    connection.close(1011, "boom")


def babbles(connection) -> None:
    connection.recv()
    connection.send("this is not json")
    time.sleep(1)


@pytest.mark.parametrize(
    ("behaviour", "code", "start"),
    [
        (closes_mid_episode, 3, "error: the server at {url} closed the connection mid-episode"),
        (babbles, 2, "error: what answered at {url} does not speak OpenEnv"),
    ],
)
@pytest.mark.train
@pytest.mark.cli
def test_an_episode_against_a_server_that_closes_or_babbles_is_one_line(behaviour, code, start, tmp_path):
    replies = tmp_path / "replies.jsonl"
    replies.write_text(json.dumps({"subject": "a peach hibiscus", "seed": 0, "reply": "// a sketch"}) + "\n")
    fake = FakeServer(behaviour)
    try:
        for command in (["episode", str(EXAMPLES / "hibiscus.js")], ["eval", "--replies", str(replies)]):
            done = run(*command, "--env-url", fake.url)
            assert done.returncode == code, done.stderr
            assert the_line(done).startswith(start.format(url=fake.url))
    finally:
        fake.close()


@pytest.mark.cli
def test_ctrl_c_is_one_line_and_exit_130():
    with socket.socket() as silent:  # accepts connections, never answers the handshake
        silent.bind(("127.0.0.1", 0))
        silent.listen()
        url = f"http://127.0.0.1:{silent.getsockname()[1]}"
        child = subprocess.Popen(
            [WATERCOLOUR, "episode", str(EXAMPLES / "hibiscus.js"), "--env-url", url],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
        )
        time.sleep(5)
        child.send_signal(signal.SIGINT)
        out, err = child.communicate(timeout=60)
    assert child.returncode == 130
    assert err.strip().splitlines()[-1] == "error: interrupted (Ctrl+C)"


@pytest.mark.server
@pytest.mark.browser
def test_a_reply_over_the_servers_limit_is_the_gates_refusal_not_an_error(server_url, tmp_path):
    big = tmp_path / "big.js"
    big.write_text("// " + "x" * 300_000 + "\n")  # over 262,144 bytes, under the frame's limit
    done = run("episode", str(big), "--env-url", server_url)
    assert done.returncode == 0, done.stderr  # a verdict: the policy's fault, never unscored
    assert "reply_too_long" in done.stdout and "rejected" in done.stdout


@pytest.mark.server
@pytest.mark.browser
def test_the_websockets_own_url_reaches_the_server(server_url):
    done = run("episode", str(EXAMPLES / "hibiscus.js"), "--env-url", f"{server_url}/ws")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["status"] == "scored"


@pytest.mark.cli
def test_a_token_a_header_cannot_carry_is_refused_without_printing_it():
    env = {**os.environ, "WATERCOLOUR_API_TOKEN": "sekrit\nX-Injected: 1"}
    done = run("episode", str(EXAMPLES / "hibiscus.js"), "--env-url", "http://127.0.0.1:9", env=env)
    assert done.returncode == 2
    assert "sekrit" not in done.stderr and "character a header cannot carry" in the_line(done)


@pytest.mark.train
@pytest.mark.cli
def test_the_trainers_module_entry_point_ends_a_failure_in_one_line_with_the_tables_code(tmp_path):
    """`accelerate launch -m watercolour_trainer.training.train` (README) runs the module, not the CLI."""
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-m", "watercolour_trainer.training.train", "--config", str(tmp_path / "nothere.yaml")],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=tmp_path,
    )
    assert done.returncode == 2, done.stderr
    assert done.stderr.strip().splitlines() == [f"error: {tmp_path / 'nothere.yaml'} does not exist; give another path"]
