"""A local Docker engine and a stand-in for `debian:bookworm-slim`, to build and run the images here.

Machines of this kind reach PyPI, npm and Debian's mirror but no container registry, and start
no Docker engine. This module gives the `docker` tests (and `make docker-env`) what they need,
without touching the shipped Dockerfiles:

- `ensure_packages` installs Debian's `docker.io` and `debootstrap` when missing;
- `Engine` starts `dockerd` (no iptables rules, no NAT) when none answers, and stops it by PID;
- `build_base` rebuilds `debian:bookworm-slim` from Debian's own packages (`debootstrap
  --variant=minbase bookworm`, `docker import`, the slim image's apt sources and dpkg
  excludes), then adds what only this host needs: its CA bundle (HTTPS here goes through an
  egress proxy) and its pip indexes. It is cached by a label holding the hash of all of it;
- `pip_mirror` serves the host's local pip indexes (`file://` URLs in `pip config list`) on
  127.0.0.1 while a build runs, so the HPSv3 image takes torch from local disk as the host does.

Command line (`python bench/docker_engine.py ...`): `base` builds the stand-in base; `run-env`
builds the environment image from the folder `watercolour deploy env` would upload (tracked
files only) and runs it on 127.0.0.1:8000 until interrupted.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import http.server
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
STATE = REPO / ".stamps" / "docker"
DOCKER = "/usr/bin/docker"  # Debian's client, the same release as the engine (20.10)
BASE = "debian:bookworm-slim"
ROOTFS_IMAGE = "watercolour-standin/rootfs:bookworm"
MIRROR_PORT = 38421
# A bridge (docker0) but no iptables rules and no NAT: containers reach nothing beyond this host,
# builds reach the registries through `--network host`, and the host reaches a container's
# published port on 127.0.0.1 (docker-proxy). `openenv validate` runs its subject that way.
DOCKERD_FLAGS = ["--storage-driver", "overlay2", "--iptables=false", "--ip-masq=false"]
HOST_CA = "/etc/ssl/certs/ca-certificates.crt"

# What the official debian:bookworm-slim carries on top of a minbase system.
DEBIAN_SOURCES = """\
Types: deb
URIs: http://deb.debian.org/debian
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb
URIs: http://deb.debian.org/debian-security
Suites: bookworm-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
"""
DPKG_EXCLUDES = """\
path-exclude /usr/share/doc/*
path-include /usr/share/doc/*/copyright
path-exclude /usr/share/man/*
path-exclude /usr/share/groff/*
path-exclude /usr/share/info/*
path-exclude /usr/share/lintian/*
path-exclude /usr/share/linda/*
path-exclude /usr/share/locale/*
path-include /usr/share/locale/locale.alias
"""
BASE_DOCKERFILE = f"""\
FROM {ROOTFS_IMAGE}
COPY debian.sources /etc/apt/sources.list.d/debian.sources
COPY dpkg-excludes /etc/dpkg/dpkg.cfg.d/docker
COPY host-ca.crt /usr/local/share/ca-certificates/host-ca.crt
COPY host-ca.crt /etc/ssl/certs/ca-certificates.crt
COPY pip.conf /etc/pip.conf
COPY npmrc /etc/npmrc
RUN rm -f /etc/apt/sources.list && apt-get clean && rm -rf /var/lib/apt/lists/*
ENV NODE_EXTRA_CA_CERTS=/usr/local/share/ca-certificates/host-ca.crt
LABEL org.watercolour.standin=HASH
CMD ["bash"]
"""


def run(*args: str, check: bool = True, timeout: float = 1800, **kwargs) -> subprocess.CompletedProcess:
    """Runs a command, its output captured; raises RuntimeError with the tail on failure."""
    result = subprocess.run(args, capture_output=True, text=True, timeout=timeout, **kwargs)
    if check and result.returncode != 0:
        tail = (result.stdout + result.stderr)[-4000:]
        raise RuntimeError(f"{' '.join(args[:4])} ... exited {result.returncode}:\n{tail}")
    return result


def ensure_packages() -> None:
    """Installs Debian's docker.io and debootstrap when `dockerd` or `debootstrap` is missing."""
    if shutil.which("dockerd") and shutil.which("debootstrap") and Path(DOCKER).exists():
        return
    sudo = [] if os.geteuid() == 0 else ["sudo"]
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    run(*sudo, "apt-get", "update", "-qq", env=env)
    run(*sudo, "apt-get", "install", "-y", "-qq", "docker.io", "debootstrap", env=env)


def engine_answers() -> bool:
    """Whether a Docker engine answers on the default socket."""
    return run(DOCKER, "info", check=False, timeout=30).returncode == 0


class Engine:
    """A `dockerd` this process started, or the one already running (then left running).

    `start()` waits up to `wait_s` seconds for the engine to answer; `stop()` stops only an
    engine it started, by PID (SIGTERM, then SIGKILL after 30 s).
    """

    def __init__(self, wait_s: float = 60.0) -> None:
        self.wait_s = wait_s
        self.process: subprocess.Popen | None = None

    def start(self) -> Engine:
        if engine_answers():
            return self
        STATE.mkdir(parents=True, exist_ok=True)
        log = open(STATE / "dockerd.log", "ab")  # noqa: SIM115 (closed with the process)
        self.process = subprocess.Popen(
            ["dockerd", *DOCKERD_FLAGS, "--pidfile", str(STATE / "dockerd.pid")],
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        deadline = time.monotonic() + self.wait_s
        while not engine_answers():
            if self.process.poll() is not None or time.monotonic() > deadline:
                self.stop()
                raise RuntimeError(f"dockerd did not start; see {STATE / 'dockerd.log'}")
            time.sleep(0.5)
        return self

    def stop(self) -> None:
        if self.process is None:
            return
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.process = None

    def __enter__(self) -> Engine:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


@functools.cache
def local_pip_sources() -> dict[str, list[str]]:
    """The host's pip settings that name local folders: {"find-links": [...], "index": [...]}.

    Read from `pip config list`; `file://` URLs and bare paths become folders to serve.
    """
    out = run(sys.executable, "-m", "pip", "config", "list", check=False).stdout
    found: dict[str, list[str]] = {"find-links": [], "index": []}
    for line in out.splitlines():
        key, _, value = line.partition("=")
        name = key.split(".", 1)[-1]
        if name not in ("find-links", "extra-index-url", "index-url"):
            continue
        for item in value.strip().strip("'\"").split():
            path = item.removeprefix("file://")
            if path.startswith("/") and Path(path).is_dir():
                found["find-links" if name == "find-links" else "index"].append(path)
    return {key: list(dict.fromkeys(paths)) for key, paths in found.items()}  # the env repeats the file


def _mirror_root() -> tuple[Path, str]:
    """A folder of links to the host's local pip sources, and the pip.conf that reads them."""
    root = STATE / "pip-mirror"
    shutil.rmtree(root, ignore_errors=True)
    root.mkdir(parents=True)
    url = f"http://127.0.0.1:{MIRROR_PORT}"
    lines = ["[global]", "cert = /usr/local/share/ca-certificates/host-ca.crt"]
    sources = local_pip_sources()
    links, indexes = [], []
    for i, path in enumerate(sources["find-links"]):
        (root / f"links-{i}").symlink_to(path)
        links.append(f"{url}/links-{i}/")
    for i, path in enumerate(sources["index"]):
        # Link the index's parent: its pages point at files through "../../files/...".
        index = Path(path.rstrip("/"))
        (root / f"index-{i}").symlink_to(index.parent)
        indexes.append(f"{url}/index-{i}/{index.name}/")
    if links:
        lines.append("find-links = " + " ".join(links))
    if indexes:
        lines.append("extra-index-url = " + " ".join(indexes))
    if links or indexes:
        lines.append("trusted-host = 127.0.0.1")
    return root, "\n".join(lines) + "\n"


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args: object) -> None:
        pass


@contextlib.contextmanager
def pip_mirror() -> Iterator[None]:
    """Serves the host's local pip sources on 127.0.0.1:MIRROR_PORT for the length of a build."""
    root, _ = _mirror_root()
    handler = functools.partial(_Quiet, directory=str(root))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", MIRROR_PORT), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield
    finally:
        server.shutdown()
        server.server_close()


def build_base() -> str:
    """Makes `debian:bookworm-slim` available: the real one where a registry answers, else the stand-in.

    Returns the stand-in's label hash, or "pulled". The stand-in is rebuilt only when what it
    carries changed: about 30 s (debootstrap), under 2 s cached. Needs a running engine.
    """
    _, pip_conf = _mirror_root()
    files = {
        "debian.sources": DEBIAN_SOURCES,
        "dpkg-excludes": DPKG_EXCLUDES,
        "host-ca.crt": Path(HOST_CA).read_text(),
        "pip.conf": pip_conf,
        "npmrc": "cafile=/usr/local/share/ca-certificates/host-ca.crt\n",
    }
    digest = hashlib.sha256(("".join(files.values()) + BASE_DOCKERFILE).encode()).hexdigest()[:16]
    label = run(
        DOCKER, "image", "inspect", "-f", '{{index .Config.Labels "org.watercolour.standin"}}', BASE, check=False
    ).stdout.strip()
    if label == digest:
        return digest
    if not label and run(DOCKER, "pull", BASE, check=False, timeout=600).returncode == 0:
        return "pulled"  # a registry answers: the real image, nothing of this host's added
    if run(DOCKER, "image", "inspect", ROOTFS_IMAGE, check=False).returncode != 0:
        with tempfile.TemporaryDirectory(prefix="bookworm-") as rootfs:
            run("debootstrap", "--variant=minbase", "bookworm", rootfs, "http://deb.debian.org/debian")
            tar = subprocess.Popen(["tar", "-C", rootfs, "-c", "."], stdout=subprocess.PIPE)
            run(DOCKER, "import", "-", ROOTFS_IMAGE, stdin=tar.stdout)
            tar.wait()
    with tempfile.TemporaryDirectory(prefix="standin-") as context:
        for name, text in files.items():
            Path(context, name).write_text(text)
        Path(context, "Dockerfile").write_text(BASE_DOCKERFILE.replace("HASH", digest))
        run(DOCKER, "build", "-q", "--network", "host", "-t", BASE, context, env={**os.environ, "DOCKER_BUILDKIT": "1"})
    return digest


def build(dockerfile: Path, context: Path, tag: str, buildkit: bool = True, show: bool = False) -> float:
    """`docker build` of one image with the host's pip sources served; returns seconds taken.

    `buildkit=False` uses the classic builder, whose cache does not depend on the build's network:
    a later plain `docker build` of the same folder without a network (as `openenv validate` runs
    it) then takes every step from the cache. `show=True` prints the build's progress.
    """
    started = time.monotonic()
    command = [DOCKER, "build", "--network", "host", "-f", str(dockerfile), "-t", tag, str(context)]
    env = {**os.environ, "DOCKER_BUILDKIT": "1" if buildkit else "0"}
    with pip_mirror():
        if show:  # the build's own progress on the terminal
            subprocess.run(command, env=env, check=True)
        else:
            run(*command, env=env)
    return time.monotonic() - started


def image_size_mb(tag: str) -> float:
    """The image's size in MB (10**6 bytes), as `docker image inspect` reports it."""
    return int(run(DOCKER, "image", "inspect", "-f", "{{.Size}}", tag).stdout) / 1e6


LOCAL_CONTAINER = "watercolour-env-local"


def _run_env() -> None:
    ensure_packages()
    with Engine():
        print("making debian:bookworm-slim available (a local stand-in where no registry answers)", flush=True)
        build_base()
        from watercolour_env.deploy.space_folder import assemble

        with tempfile.TemporaryDirectory(prefix="watercolour-env-space-") as tmp:
            space = assemble("env", Path(tmp) / "space")  # what `watercolour deploy env` uploads
            seconds = build(space / "Dockerfile", space, "watercolour-env", show=True)
        print(f"built watercolour-env in {seconds:.0f} s ({image_size_mb('watercolour-env'):.0f} MB)")
        print(f"serving on http://127.0.0.1:8000; Ctrl-C or `docker stop {LOCAL_CONTAINER}` stops it", flush=True)
        subprocess.run(
            [
                DOCKER,
                "run",
                "--rm",
                "--init",
                "--name",
                LOCAL_CONTAINER,
                "--network",
                "host",
                "-e",
                "WATERCOLOUR_HOST=127.0.0.1",
                "watercolour-env",
            ],
            check=False,
        )


if __name__ == "__main__":
    command = sys.argv[1] if len(sys.argv) > 1 else ""
    if command == "base":
        ensure_packages()
        with Engine():
            print(build_base())
    elif command == "run-env":
        _run_env()
    else:
        sys.exit("usage: python bench/docker_engine.py base | run-env")
