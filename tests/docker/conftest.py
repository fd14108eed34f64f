"""Fixtures of the docker tests: a Docker engine, the stand-in base, the deployed Space folders and
their images, and running containers. Everything started here is stopped here; images stay in the
engine's cache, so a second run builds in seconds."""

from __future__ import annotations

import contextlib
import json
import subprocess
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import WATERCOLOUR, bench_module
from watercolour_trainer.demo import free_port

engine = bench_module("docker_engine")  # the local Docker engine (bench/docker_engine.py)

BUILD_TIMES: dict[str, float] = {}
SIZES_MB: dict[str, float] = {}  # read at build: the engine may be stopped by the terminal summary


def wait_for(url: str, timeout_s: float) -> float:
    """Polls `url` until it answers 200; returns the seconds it took."""
    started = time.monotonic()
    while True:
        try:
            with urllib.request.urlopen(url, timeout=2) as response:
                if response.status == 200:
                    return time.monotonic() - started
        except OSError:
            pass
        if time.monotonic() - started > timeout_s:
            raise TimeoutError(f"{url} did not answer 200 in {timeout_s} s")
        time.sleep(0.5)


@contextlib.contextmanager
def container(image: str, *args: str, env: dict[str, str] | None = None, command: list[str] = ()) -> Iterator[str]:
    """`docker run -d` of `image` on the host's network; yields the container id, removes it after."""
    flags = [f"--env={key}={value}" for key, value in (env or {}).items()]
    cid = engine.run(
        engine.DOCKER, "run", "-d", "--init", "--network", "host", *flags, *args, image, *command, timeout=60
    ).stdout.strip()
    try:
        yield cid
    finally:
        engine.run(engine.DOCKER, "rm", "-f", cid, check=False, timeout=60)


def logs(cid: str) -> str:
    result = engine.run(engine.DOCKER, "logs", cid, check=False, timeout=30)
    return result.stdout + result.stderr


@pytest.fixture(scope="session")
def docker_engine() -> Iterator[None]:
    """A Docker engine with the stand-in base built (installs docker.io and debootstrap if missing)."""
    engine.ensure_packages()
    with engine.Engine():
        started = time.monotonic()
        engine.build_base()
        BUILD_TIMES["stand-in base"] = time.monotonic() - started
        yield


def deploy_dry_run(kind: str, out: Path, *args: str) -> Path:
    """The folder `watercolour deploy <kind> --dry-run` writes: what would be uploaded."""
    result = subprocess.run(
        [WATERCOLOUR, "deploy", kind, "--space", f"tester/watercolour-{kind}", *args, "--dry-run", str(out)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    return out / "space"


@pytest.fixture(scope="session")
def env_space(tmp_path_factory) -> Path:
    return deploy_dry_run("env", tmp_path_factory.mktemp("deploy-env"))


@pytest.fixture(scope="session")
def env_image(docker_engine, env_space) -> str:
    """The environment image, built from the deploy folder with the classic builder.

    The classic builder's cache ignores the build's network, so `openenv validate`'s own
    `docker build` of the same folder (default network, which reaches nothing here) is all cache.
    """
    tag = "watercolour-env:test"
    BUILD_TIMES["env"] = engine.build(env_space / "Dockerfile", env_space, tag, buildkit=False)
    SIZES_MB["env"] = engine.image_size_mb(tag)
    return tag


@pytest.fixture(scope="session")
def env_url(env_image) -> Iterator[str]:
    """The environment container serving on a free loopback port; yields its URL."""
    port = free_port()
    with container(env_image, env={"WATERCOLOUR_HOST": "127.0.0.1", "WATERCOLOUR_PORT": str(port)}) as cid:
        url = f"http://127.0.0.1:{port}"
        try:
            BUILD_TIMES["env start-up"] = wait_for(url + "/health", 120)
        except TimeoutError:
            pytest.fail("the environment container did not become healthy:\n" + logs(cid)[-3000:])
        yield url
        (Path(env_space_log_dir()) / "env-container.log").write_text(logs(cid))


def env_space_log_dir() -> Path:
    path = engine.STATE / "logs"
    path.mkdir(parents=True, exist_ok=True)
    return path


@pytest.fixture(scope="session")
def hpsv3_image(docker_engine, tmp_path_factory) -> str:
    space = deploy_dry_run("hpsv3", tmp_path_factory.mktemp("deploy-hpsv3"))
    tag = "watercolour-hpsv3:test"
    BUILD_TIMES["hpsv3"] = engine.build(space / "Dockerfile", space, tag)
    SIZES_MB["hpsv3"] = engine.image_size_mb(tag)
    return tag


def post_json(url: str, body: dict, timeout_s: float = 120) -> dict:
    request = urllib.request.Request(url, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=timeout_s) as response:
        return json.loads(response.read())


def pytest_terminal_summary(terminalreporter) -> None:
    if BUILD_TIMES:
        terminalreporter.write_line(
            "docker: "
            + ", ".join(f"{k} {v:.0f} s" for k, v in BUILD_TIMES.items())
            + "; sizes "
            + ", ".join(f"{k} {v:.0f} MB" for k, v in SIZES_MB.items())
        )
