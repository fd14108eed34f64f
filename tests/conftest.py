"""Shared fixtures: the example sketches, a real renderer and a real environment server."""

from __future__ import annotations

import contextlib
import functools
import json
import socket
import threading
import time
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
EXAMPLES = REPO / "examples" / "sketches"


def example(name: str) -> str:
    """The text of one example sketch or reply."""
    return (EXAMPLES / name).read_text()


def expected_outcomes() -> dict[str, dict]:
    """examples/sketches/expected.json: file name -> {passed, violations}."""
    return json.loads((EXAMPLES / "expected.json").read_text())


@functools.cache
def starter_scorer():
    """The embedded scorer fitted on the starter pool (once per test session)."""
    from watercolour_env.server.embedded_scorer import EmbeddedScorer
    from watercolour_env.server.pool import STARTER_POOL, Pool

    return EmbeddedScorer.fit(Pool.load(str(STARTER_POOL)), folds=0)


@pytest.fixture(scope="session")
def renderer():
    from watercolour_env.server.render import Renderer

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


@pytest.fixture(scope="session")
def server_url():
    """A real environment server (uvicorn, OpenEnv websocket) on a free loopback port."""
    from watercolour_env.server.app import build_app
    from watercolour_env.server.settings import load_settings

    app = build_app(load_settings(render_workers=2, render_deadline_s=10))
    with serving(app) as url:
        yield url
    app.state.renderer.close()
