"""Shared fixtures and helpers: the example sketches, test images, a real renderer, a real
environment server and the `watercolour` command."""

from __future__ import annotations

import contextlib
import functools
import importlib.util
import io
import json
import os
import re
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import numpy as np
import psutil
import pytest
from PIL import Image

REPO = Path(__file__).resolve().parents[1]

# The HPSv3 scorer's tests need its own venv (transformers 4.45.2); `make test` runs them there.
collect_ignore = ["hpsv3_space"]
# The tiny policies the trainer's tests run (tests/policies.py)
pytest_plugins = ["tests.policies"]
EXAMPLES = REPO / "examples" / "sketches"
WATERCOLOUR = str(Path(sys.executable).parent / "watercolour")


def bench_module(name: str):  # noqa: ANN201
    """A script under bench/ as a module (bench/ holds scripts, not a package), loaded once."""
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, REPO / "bench" / f"{name}.py")
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


def example(name: str) -> str:
    """The text of one example sketch or reply."""
    return (EXAMPLES / name).read_text()


def slow_sketch(wait_ms: int) -> str:
    """A valid sketch that spends `wait_ms` in draw before it paints: a render slow on purpose,
    so a test about timing holds whatever the machine's speed."""
    return f"""function setup() {{ createCanvas(600, 600, WEBGL); angleMode(DEGREES); noLoop(); }}
function draw() {{
  const until = millis() + {int(wait_ms)};
  while (millis() < until) {{}}
  translate(-width / 2, -height / 2);
  brush.noStroke();
  brush.fill("#d94f70", 120);
  brush.circle(300, 300, 60);
}}"""


def expected_outcomes() -> dict[str, dict]:
    """examples/sketches/expected.json: file name -> {passed, violations}."""
    return json.loads((EXAMPLES / "expected.json").read_text())


def png_of(kind: str) -> bytes:
    """A 600x600 test image: blank paper, a grey square, or colourful stripes."""
    img = np.full((600, 600, 3), (250, 246, 238), dtype=np.uint8)
    if kind == "grey":
        img[200:400, 200:400] = (120, 120, 120)
    elif kind == "stripes":
        colours = [(230, 60, 60), (60, 160, 60), (60, 60, 220), (240, 200, 40)]
        for i, c in enumerate(colours):
            img[100 + 100 * i : 160 + 100 * i, 50:550] = c
    buf = io.BytesIO()
    Image.fromarray(img).save(buf, format="PNG")
    return buf.getvalue()


T = TypeVar("T")


def of_each_chromium_process(read: Callable[[psutil.Process], T]) -> list[T]:
    """`read(process)` for every Chromium process under this one, leaving out those that exit
    before it is done: Chromium's short-lived helpers do (a clean-clone CI run met one)."""
    found = []
    for process in psutil.Process().children(recursive=True):
        try:
            if "chrom" in process.name().lower():
                found.append(read(process))
        except (psutil.NoSuchProcess, FileNotFoundError, ProcessLookupError):
            continue
    return found


def episode(url: str, *args: str) -> subprocess.CompletedProcess:
    """`watercolour episode` on the hibiscus example against the server at `url`."""
    command = [WATERCOLOUR, "episode", str(EXAMPLES / "hibiscus.js"), "--env-url", url, *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=120)


@functools.cache
def starter_scorer():
    """The embedded scorer fitted on the starter pool (once per test session)."""
    from watercolour_env.pool import STARTER_POOL, Pool
    from watercolour_env.server.reward.embedded import EmbeddedScorer

    return EmbeddedScorer.fit(Pool.load(str(STARTER_POOL)), folds=0)


def starter_terms() -> list:
    """The terms of a deployment with nothing configured: the length ramp and the embedded scorer."""
    from watercolour_env.server.reward.embedded import EmbeddedTerm
    from watercolour_env.server.reward.length import LengthTerm

    return [LengthTerm(), EmbeddedTerm(starter_scorer())]


# The marks that take a test out of `make check`'s lane (pyproject's markers; CONTRIBUTING.md)
HEAVY_MARKS = {"browser", "server", "slow", "docker", "gpu", "train", "wheel"}
# Without the train extra (the light venv of `make check`), a test module marked `train` as a
# whole is not imported: it would fail at `import torch` before any mark could deselect it.
TRAIN_EXTRA = all(importlib.util.find_spec(name) is not None for name in ("torch", "trl"))
_TRAIN_MODULE = re.compile(r"^pytestmark = .*pytest\.mark\.train\b", re.MULTILINE)


def pytest_ignore_collect(collection_path, config):  # noqa: ANN001, ANN201
    if not TRAIN_EXTRA and collection_path.suffix == ".py" and collection_path.name.startswith("test_"):
        return bool(_TRAIN_MODULE.search(collection_path.read_text())) or None
    return None


def pytest_report_header(config):  # noqa: ANN001, ANN201
    if not TRAIN_EXTRA:
        return "the train extra is not installed: test modules marked `train` are not collected (make test runs them)"
    return None


# fixture -> the marks a test that uses it carries
FIXTURE_MARKS = {"server_url": {"server", "browser"}, "renderer": {"browser"}, "hpsv3_space": {"server"}}


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item):  # noqa: ANN001, ANN201
    """A test carries the marks of the shared fixtures it uses: checked before any fixture is set
    up, so an unmarked test never starts the server or Chromium it did not declare."""
    marks = {mark.name for mark in item.iter_markers()}
    for fixture, needed in FIXTURE_MARKS.items():
        if fixture in item.fixturenames and not needed <= marks:
            pytest.fail(f"{item.nodeid} uses {fixture}: mark it {sorted(needed - marks)}", pytrace=False)


@pytest.fixture(autouse=True)
def _a_process_is_declared(request, monkeypatch):
    """A test of `make check`'s lane that starts a process carries `cli` (so that `-m "not cli"`
    leaves every subprocess out): the ways Python starts one are refused to it."""
    if {mark.name for mark in request.node.iter_markers()} & (HEAVY_MARKS | {"cli"}):
        yield
        return

    def refused(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202
        command = args[1] if args and isinstance(args[0], subprocess.Popen) else args[0] if args else kwargs
        raise AssertionError(f"{request.node.nodeid} starts {command!r}: mark it `cli` (pyproject's markers)")

    monkeypatch.setattr(subprocess.Popen, "__init__", refused)
    for name in ("system", "posix_spawn", "posix_spawnp", "execv", "execve", "execvp", "fork"):
        if hasattr(os, name):
            monkeypatch.setattr(os, name, refused)
    yield


@pytest.fixture(autouse=True, scope="session")
def _no_ambient_settings():
    """The caller's WATERCOLOUR_* (and misspelt WATERCOLOR_*) variables never reach a test."""
    ambient = {k: os.environ.pop(k) for k in list(os.environ) if k.startswith(("WATERCOLOUR_", "WATERCOLOR_"))}
    yield
    os.environ.update(ambient)


@pytest.fixture(scope="session")
def renderer():
    from watercolour_env.server.sandbox import Renderer

    with Renderer(workers=2, deadline_s=20) as r:
        yield r


@contextlib.contextmanager
def serving(app):
    """Serves an ASGI app with uvicorn on a free loopback port; yields its base URL."""
    import uvicorn

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 60
    while not server.started:
        assert time.monotonic() < deadline, "server did not start"
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)


@contextlib.contextmanager
def app_server(**settings):
    """A real environment server built from `load_settings(**settings)`, on loopback; yields its URL.

    Its renderer (and Chromium) is closed on the way out.
    """
    from watercolour_env.server.app import build_app
    from watercolour_env.server.settings import load_settings

    app = build_app(load_settings(**settings))
    try:
        with serving(app) as url:
            yield url
    finally:
        app.state.renderer.close()


@pytest.fixture(scope="session")
def server_url():
    """A real environment server (uvicorn, OpenEnv websocket) on a free loopback port.

    Its render deadline is generous: no test of it hangs a render (test_faults starts its own),
    and at 10 s a rich sketch ran out under a loaded CI machine and was scored 0.0 once of twice
    (test_evaluate, docs/LOG.md, twenty-first session).
    """
    with app_server(render_workers=2, render_deadline_s=60) as url:
        yield url


HPSV3_PYTHON = REPO / ".venv-hpsv3" / "bin" / "python"


@pytest.fixture(scope="session")
def hpsv3_space(tmp_path_factory):
    """The real HPSv3 scorer Space, in its own venv, with a tiny random model; yields (url, token).

    Started as a subprocess of `.venv-hpsv3` (transformers 4.45.2), which `make test` installs;
    the model is written by `hpsv3_space.tiny_model` and loaded by hpsv3's own inferencer.
    """
    import os
    import subprocess

    import httpx

    if not HPSV3_PYTHON.exists():
        pytest.skip("the HPSv3 scorer's venv is missing: `make test` installs .venv-hpsv3")
    folder = tmp_path_factory.mktemp("hpsv3-space")
    scorers = REPO / "scorers"
    paths = json.loads(
        subprocess.run(
            [str(HPSV3_PYTHON), "-m", "hpsv3_space.tiny_model", str(folder)],
            cwd=scorers,
            check=True,
            capture_output=True,
            text=True,
        )
        .stdout.strip()
        .splitlines()[-1]
    )
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    token = "test-token"
    env = {**os.environ, **paths, "HPSV3_DEVICE": "cpu", "HPSV3_API_TOKEN": token, "HPSV3_MAX_WAIT_MS": "20"}
    log = (folder / "space.log").open("w")
    process = subprocess.Popen(
        [str(HPSV3_PYTHON), "-m", "uvicorn", "hpsv3_space.app:app", "--host", "127.0.0.1", "--port", str(port)],
        cwd=scorers,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 120
    try:
        while True:
            assert process.poll() is None, f"the HPSv3 Space exited: {(folder / 'space.log').read_text()[-2000:]}"
            assert time.monotonic() < deadline, "the HPSv3 Space did not load in 120 s"
            try:
                if httpx.get(f"{url}/health").json()["status"] == "loaded":
                    break
            except httpx.HTTPError:
                pass
            time.sleep(0.2)
        yield url, token
    finally:
        process.terminate()
        process.wait(10)
        log.close()


@pytest.fixture(scope="module")
def chromium():
    """A headless Chromium of Playwright's, for tests that open a page the project writes."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
        yield browser
        browser.close()
