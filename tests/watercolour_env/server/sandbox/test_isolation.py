"""Isolation: a render cannot reach the network, leave anything for the next render to read, or
cost another render its reward.

The canary is a UDP and a TCP socket on loopback, the one network a render could still reach
(everything else is refused by the frame's policy, the dead proxy and the host-resolver rule).
"""

import os
import socket
import threading
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import psutil
import pytest

from tests.conftest import REPO, example, of_each_chromium_process
from watercolour_env.errors import RenderError
from watercolour_env.server.sandbox import Renderer, RenderStatus
from watercolour_env.server.sandbox import renderer as render
from watercolour_env.server.sandbox.library_server import LibraryServer

pytestmark = pytest.mark.browser

ISOLATION = REPO / "tests" / "fixtures" / "sketches" / "isolation"


class Canary:
    """Counts every datagram and connection that reaches two loopback ports."""

    def __init__(self) -> None:
        self.udp = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.udp.bind(("127.0.0.1", 0))
        self.tcp = socket.socket()
        self.tcp.bind(("127.0.0.1", 0))
        self.tcp.listen()
        self.udp_port, self.tcp_port = self.udp.getsockname()[1], self.tcp.getsockname()[1]
        self.seen: list[str] = []
        threading.Thread(target=self._udp, daemon=True).start()
        threading.Thread(target=self._tcp, daemon=True).start()

    def _udp(self) -> None:
        while True:
            data, _ = self.udp.recvfrom(4096)
            self.seen.append(f"udp {len(data)} bytes")

    def _tcp(self) -> None:
        while True:
            conn, _ = self.tcp.accept()
            self.seen.append("tcp connection")
            conn.close()

    def sketch(self, name: str) -> str:
        source = (ISOLATION / name).read_text()
        return source.replace("UDP_PORT", str(self.udp_port)).replace("TCP_PORT", str(self.tcp_port))


@pytest.fixture(scope="module")
def canary():
    return Canary()


@pytest.mark.parametrize("name", ["webrtc.js", "loopback_requests.js"])
def test_nothing_a_sketch_sends_reaches_a_loopback_canary(renderer, canary, name):
    # before: STUN binding requests over UDP and a TURN connection over TCP, from both realms
    canary.seen.clear()
    result = renderer.render(canary.sketch(name), seed=1)
    time.sleep(2.0)  # ICE keeps trying after the report; give it time to arrive
    assert result.status.value in ("ok", "sketch_error")
    assert canary.seen == []


def test_the_canary_would_see_a_connection():
    # the canary itself works: a plain connection from here is counted
    probe = Canary()
    socket.create_connection(("127.0.0.1", probe.tcp_port)).close()
    deadline = time.time() + 2
    while not probe.seen and time.time() < deadline:
        time.sleep(0.05)
    assert probe.seen == ["tcp connection"]


def test_the_same_sketch_paints_the_same_picture_every_time_in_one_worker(renderer):
    # before: the origin private file system, a child frame's storage and the tab's history counted
    # 0, 1, 2, 3; resource timing told the first render in a page from the others
    source = (ISOLATION / "count_renders.js").read_text()
    results = [renderer.render(source, seed=1) for _ in range(4)]
    reports = {(r.status, tuple(r.violations), tuple(r.js_errors)) for r in results}
    assert len({r.png for r in results}) == 1 and len(reports) == 1, reports
    channels = results[0].js_errors[0].split("channels: ")[1].split()
    assert len(channels) == 12
    assert all(c.endswith(("=0", "=refused")) for c in channels), channels


def test_the_heap_tells_no_render_how_many_ran_before_it(renderer):
    # before: performance.memory still counted the garbage an earlier render left (the same
    # sketch painted its circle elsewhere the second time); now there is no performance.memory
    source = (ISOLATION / "heap_size.js").read_text()
    first, second = renderer.render(source, seed=1), renderer.render(source, seed=1)
    assert (first.png, first.js_errors) == (second.png, second.js_errors)
    assert "usedJSHeapSize" in first.js_errors[0]


def test_library_urls_with_a_query_are_not_cached():
    # a query of the sketch's choosing made the HTTP cache say whether an earlier render asked
    library = LibraryServer()
    try:
        with urllib.request.urlopen(f"{library.host_origin}/lib/p5.brush.js") as exact:
            assert exact.status == 200 and "immutable" in exact.headers["Cache-Control"]
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(f"{library.host_origin}/lib/p5.brush.js?render=1")
        assert refused.value.code == 404 and refused.value.headers["Cache-Control"] == "no-store"
    finally:
        library.close()


def test_a_sketch_that_stalls_the_gpu_costs_no_innocent_render_its_reward():
    # before: the renders after it all timed out (10 s each) and were scored as their own failures,
    # for the 70-80 s the shared GPU process took to recover. Without the guard (which blocks the
    # shader), the renderer must still tell the culprit from its bystanders.
    poison = (ISOLATION / "gpu_poison.js").read_text()
    innocent = (REPO / "examples" / "sketches" / "trivial.js").read_text()
    with Renderer(workers=2, deadline_s=8, enforce=False) as renderer:
        reference = renderer.render(innocent, seed=3)
        with ThreadPoolExecutor(3) as pool:
            culprit = pool.submit(renderer.render, poison, 1)
            time.sleep(1.0)  # the bystanders start while the GPU process is stalled
            bystanders = [pool.submit(renderer.render, innocent, 3) for _ in range(2)]
            verdict, after_stall = culprit.result(), [b.result() for b in bystanders]
        assert verdict.status is RenderStatus.TIMEOUT and "stalled both times" in verdict.detail
        assert [b.status for b in after_stall] == [RenderStatus.OK] * 2
        assert all(b.png == reference.png for b in after_stall)
        following = renderer.render(innocent, seed=3)
        assert following.status is RenderStatus.OK and following.elapsed_ms < 8000


def test_with_the_guard_the_stalling_shader_never_runs(renderer):
    result = renderer.render((ISOLATION / "gpu_poison.js").read_text(), seed=1)
    assert result.status is RenderStatus.OK
    assert ("direct_context", "getContext") in result.violations


def network_of(process: psutil.Process) -> tuple[str, list[str], list[str]]:
    """A process's network namespace, interfaces and routes, from /proc."""
    namespace = os.readlink(f"/proc/{process.pid}/ns/net")
    devices = Path(f"/proc/{process.pid}/net/dev").read_text().splitlines()[2:]
    routes = Path(f"/proc/{process.pid}/net/route").read_text().splitlines()[1:]
    return namespace, [line.split(":")[0].strip() for line in devices], routes


def test_chromium_sees_only_loopback_with_no_route_anywhere():
    # every process of the browser (browser, GPU, renderers) lives in a network namespace of its
    # own: its one interface is loopback, and it has no route
    with Renderer(workers=1, network_namespace="on") as renderer:
        assert renderer.network_isolation == "namespace"
        assert renderer.render(example("trivial.js"), seed=1).status is RenderStatus.OK
        ours = os.readlink("/proc/self/ns/net")
        seen = of_each_chromium_process(network_of)
        assert len(seen) >= 3  # the browser, its GPU process, a renderer at least
        for namespace, interfaces, routes in seen:
            assert namespace != ours
            assert interfaces == ["lo"]
            assert routes == []


WEBRTC_FLAGS = ("--force-webrtc-ip-handling-policy", "--webrtc-ip-handling-policy")


@pytest.mark.parametrize("namespace", ["off", "on"])
def test_the_namespace_alone_keeps_webrtc_from_the_canary(monkeypatch, canary, namespace):
    # Chromium's WebRTC flags and the guard both off: without the namespace the sketch's STUN and
    # TURN reach the canary (the control); with it, nothing does
    monkeypatch.setattr(render, "CHROMIUM_FLAGS", [f for f in render.CHROMIUM_FLAGS if not f.startswith(WEBRTC_FLAGS)])
    with Renderer(workers=1, enforce=False, network_namespace=namespace) as renderer:
        canary.seen.clear()
        renderer.render(canary.sketch("webrtc.js"), seed=1)
        time.sleep(2.0)
    assert (canary.seen != []) is (namespace == "off"), canary.seen


def test_a_machine_without_namespaces_renders_with_the_flags_alone_and_says_so(monkeypatch, caplog):
    monkeypatch.setenv("PATH", "/nonexistent")  # no `unshare` to be found
    with caplog.at_level("WARNING"), Renderer(workers=1) as renderer:
        assert renderer.network_isolation == "flags"
        assert renderer.render(example("trivial.js"), seed=1).status is RenderStatus.OK
    assert any("no network namespace" in r.getMessage() and "unshare" in r.getMessage() for r in caplog.records)


def test_a_namespace_required_but_unavailable_refuses_to_start_naming_the_setting(monkeypatch):
    monkeypatch.setenv("PATH", "/nonexistent")
    with pytest.raises(RenderError, match="WATERCOLOUR_RENDER_NETWORK_NAMESPACE=auto"):
        Renderer(workers=1, network_namespace="on").start()
