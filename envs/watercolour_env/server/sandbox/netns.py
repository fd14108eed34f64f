"""Chromium in a network namespace of its own: loopback only, by construction.

Chromium's flags (a dead proxy, WebRTC's IP-handling policy, the host-resolver rule) close the
network from inside the browser; a namespace closes it from outside, so that a way round the
flags (a protocol they do not cover, an address they do not name) still finds no route. The
browser is started through a small wrapper:

    unshare --net --map-root-user -- python3 -I netns_forwarder.py DIR PORT PORT -- chromium ...

The new namespace has only loopback. The forwarder brings it up, listens there on the library
server's two ports and relays each connection to a Unix socket (`DIR/PORT`) on which the library
server also answers (`LibraryServer.serve_unix`); then it execs Chromium. Pages keep the same
URLs (`http://127.0.0.1:PORT/...`) with or without the namespace, so the pictures are the same.

Unprivileged user namespaces are refused in some places (Docker's default seccomp profile, a
kernel with `unprivileged_userns_clone=0`). The setting `WATERCOLOUR_RENDER_NETWORK_NAMESPACE`
says what then: `auto` (the default) renders with the flags alone and logs a warning that says
so; `on` refuses to start; `off` never tries. Measured: docs/LOG.md, 2026-12-01 (third session).
"""

from __future__ import annotations

import logging
import shlex
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from watercolour_env.errors import RenderError

MODES = ("auto", "on", "off")
FORWARDER = Path(__file__).with_name("netns_forwarder.py")
log = logging.getLogger(__name__)


def unavailable_reason() -> str | None:
    """Why a network namespace cannot be made here, or None when it can.

    Tries `unshare --net --map-root-user true` (about 5 ms).
    """
    unshare = shutil.which("unshare")
    if unshare is None:
        return "`unshare` (util-linux) is not installed"
    try:
        done = subprocess.run([unshare, "--net", "--map-root-user", "true"], capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.TimeoutExpired) as err:
        return f"`unshare --net --map-root-user` failed: {err}"
    if done.returncode != 0:
        return f"`unshare --net --map-root-user` was refused: {done.stderr.strip()[:200] or done.returncode}"
    return None


def write_wrapper(directory: Path, chromium_path: str, ports: list[int]) -> Path:
    """Writes `directory/chromium`: `chromium_path` started in a fresh network namespace.

    Inside it, the library server's `ports` reach the Unix sockets `directory/<port>`.

    Returns:
        The wrapper's path, to hand Playwright as the executable.
    """
    unshare = shutil.which("unshare") or "unshare"
    command = [unshare, "--net", "--map-root-user", "--", sys.executable, "-I", str(FORWARDER), str(directory)]
    command += [str(port) for port in ports] + ["--", chromium_path]
    wrapper = directory / "chromium"
    wrapper.write_text("#!/bin/sh\nexec " + " ".join(shlex.quote(part) for part in command) + ' "$@"\n')
    wrapper.chmod(0o700)
    return wrapper


def isolate(mode: str, library, chromium_path: str) -> Path | None:  # noqa: ANN001
    """Sets up the namespace for `mode` ("auto", "on" or "off", see the module docstring).

    Returns:
        The wrapper to start Chromium with (its folder also holds the library server's Unix
        sockets; the caller removes it), or None when Chromium starts as it is.

    Raises:
        RenderError: `mode` is "on" and this machine allows no namespace; the message names the
            setting that would start it anyway.
    """
    reason = None if mode == "off" else unavailable_reason()
    if mode == "off" or reason:
        if mode == "on":
            raise RenderError(
                f"no network namespace for Chromium: {reason}. Allow unprivileged user namespaces "
                "(outside Docker's default seccomp profile), or set WATERCOLOUR_RENDER_NETWORK_NAMESPACE=auto "
                "to render with Chromium's own network flags alone"
            )
        if reason:
            log.warning(
                "renderer: no network namespace (%s); Chromium's network flags alone keep renders offline", reason
            )
        return None
    directory = Path(tempfile.mkdtemp(prefix="watercolour-netns-"))
    library.serve_unix(directory)
    return write_wrapper(directory, chromium_path, library.ports)
