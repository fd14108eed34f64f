"""Fixtures for the HPSv3 scorer: a tiny random model of the real architecture, served for real.

These tests run in the scorer's own virtual environment (transformers 4.45.2), never the
project's main one: `make test` runs them with `.venv-hpsv3/bin/pytest tests/hpsv3_space
--confcutdir=tests/hpsv3_space`, and the main suite ignores this folder.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from hpsv3_space.app import Loaded, Settings, create_app, load_hpsv3
from hpsv3_space.tiny_model import write_tiny_model
from tests.conftest import serving  # stdlib and pytest only: safe in this venv


@pytest.fixture(scope="session")
def tiny_model(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """(config_path, checkpoint_path) of a tiny random HPSv3, written once per session."""
    return write_tiny_model(tmp_path_factory.mktemp("hpsv3-tiny"))


@pytest.fixture(scope="session")
def tiny_settings(tiny_model: tuple[Path, Path]) -> Settings:
    """Settings that load the tiny model on the CPU with the real loading code."""
    config_path, checkpoint_path = tiny_model
    return Settings(
        config_path=str(config_path), checkpoint_path=str(checkpoint_path), device="cpu", max_batch=8, max_wait_ms=50
    )


def serve(settings: Settings, loader: Callable[[Settings], Loaded] = load_hpsv3):  # noqa: ANN201
    """Serves the scorer app on a free loopback port (the suite's `serving`); yields its URL."""
    return serving(create_app(settings, loader))


def wait_loaded(url: str, timeout_s: float = 120) -> dict:
    """Polls /health until the model is loaded; returns its body."""
    import httpx

    deadline = time.monotonic() + timeout_s
    while True:
        body = httpx.get(f"{url}/health").json()
        if body["status"] == "loaded":
            return body
        if body["status"] == "error" or time.monotonic() > deadline:
            raise RuntimeError(f"the scorer did not load: {body}")
        time.sleep(0.05)


@pytest.fixture(scope="module")
def scorer_url(tiny_settings: Settings) -> Iterator[str]:
    """A running scorer with the tiny model loaded."""
    with serve(tiny_settings) as url:
        wait_loaded(url)
        yield url
