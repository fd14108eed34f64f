"""Turn a p5.brush sketch into a 600x600 PNG in headless Chromium, fast and contained.

Configuration measured in FIELD-NOTES ("Rendering p5.brush in Chromium"): WebGL on Mesa
llvmpipe through ANGLE's EGL backend, a software 2D canvas, one long-lived browser, one
long-lived page per worker and a fresh iframe per render from a loopback library server.
Readiness comes from a p5 `postdraw` hook (static/harness.js) awaited with one evaluate.

Threat model (the adversary is the policy; docs/decisions/0002-sandbox-threat-model.md has the
table of what a sketch must not do, the layer that stops it and the test that proves it): a
sketch may paint with the ten brush methods and take its deadline; it must not paint otherwise,
forge the report, reach the host page or the network, leave state for the next render, cost
another render its reward, or make the gate fail.

What the sandbox covers: the sketch runs in an `<iframe sandbox="allow-scripts
allow-same-origin">` served from another origin than the host page (another port: no popups, no
dialogs, no top navigation, no access to the host page; storage APIs and WebRTC are removed by
the harness; an opaque origin would have cost ~100 ms a render, its HTTP cache never hit) under
a Content-Security-Policy that forbids fetch, XHR, WebSocket, EventSource, workers, nested
frames, foreign scripts and foreign images. Outside the policy, host names other than 127.0.0.1
do not resolve and every address, loopback included, goes to a dead proxy except the library
server's two ports; WebRTC may use nothing but that proxy, so nothing leaves the renderer (a
child frame's own WebRTC reached a loopback canary over UDP and TCP before). Beneath all that,
where the machine allows it, every Chromium process runs in a network namespace whose only
interface is loopback (netns.py): no route out whatever the flags miss. After each render
the frame origin's storage is wiped over CDP (what a child frame of the sketch's stored, the
origin private file system), and only the libraries' exact URLs are cacheable, so no render
can count the ones before it. A timeout whose cause is a stalled GPU process (shared by every
page) relaunches the browser, and the renders it lost are rendered again, alone, so only the
sketch that stalls it again is judged for it. The report comes by postMessage with a nonce the
sketch cannot read. The frame is removed when it reports, so timers cannot paint later; a frame
that navigates away is reported.
V8's heap is capped (1 GiB): a memory flood crashes the page, which is replaced. Every render has
a deadline, after which the worker's page is closed and replaced; a browser that dies is
relaunched and its renders count as infrastructure failures.
Navigations are vetted over CDP: a document request other than the host page or a frame page
of the library server (a sketch sending its frame to another loopback port, say) fails before
it is made, and the render reports that the sketch navigated away.
The allowlist runs inside the frame (static/guard.js, docs/decisions/0001-run-time-allowlist.md):
every way to paint but the ten brush methods is blocked and named in `RenderResult.violations`;
the picture is read from p5's canvas with the browser's own toDataURL and its PNG header checked
here before decoding; a frame the sketch attaches inside its own (a fresh JavaScript realm) is
counted from outside the page. A render whose guard did not load is an infrastructure failure.
What it does not cover: CPU use within the deadline is not limited;
Chromium runs with `--no-sandbox` (the usual setting as root in a container), so the process
sandbox is the container's.
"""

from __future__ import annotations

import asyncio
import base64
import enum
import io
import logging
import os
import shutil
import tempfile
import threading
import time
from concurrent.futures import Future
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from PIL import Image

from watercolour_env.errors import RenderError
from watercolour_env.server.sandbox import netns
from watercolour_env.server.sandbox.library_server import DEFAULT_JS_DIR, LibraryServer

log = logging.getLogger(__name__)

CANVAS_PX = 600
# What Storage.clearDataForOrigin wipes after each render: all a page can keep, but the shader
# cache (Chromium's own, shared, and what keeps p5.brush's shaders compiled).
WIPED_STORAGE = ",".join(
    ["cookies", "file_systems", "indexeddb", "local_storage", "cache_storage", "service_workers", "websql"]
    + ["shared_storage", "storage_buckets"]
)
# Beyond the render deadline: time to replace a page or relaunch the browser, then give up.
HARD_MARGIN_S = 120.0
# Channel difference (0-255) above which a pixel counts as paint rather than paper.
PAINT_DELTA = 12

CHROMIUM_FLAGS = [
    "--use-gl=angle",
    "--use-angle=gl-egl",
    "--ignore-gpu-blocklist",
    "--disable-accelerated-2d-canvas",
    # Software compositing: 0.82 instead of 1.03 core-seconds per typical render (docs/LOG.md).
    "--disable-gpu-compositing",
    # Every frame is on 127.0.0.1: after a few lost contexts (a sketch's 30000 px canvas, three
    # renders) Chromium refused WebGL to that "domain", and every later sketch, innocent or not,
    # failed with "Error creating webgl context" (docs/LOG.md, 2026-12-01, third session). Nor may
    # repeated GPU-process crashes switch the browser to another rasterizer (other pixels).
    "--disable-domain-blocking-for-3d-apis",
    "--disable-gpu-process-crash-limit",
    "--no-sandbox",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
    "--disable-dev-shm-usage",
    # Nothing but loopback: names do not resolve and every other address goes to a dead proxy
    # (loopback bypasses proxies), so a request that slips past the frame's policy fails at once.
    "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
    "--proxy-server=http://127.0.0.1:9",
    # WebRTC only through the (dead) proxy: no UDP of its own, no STUN or TURN to any address.
    "--force-webrtc-ip-handling-policy",
    "--webrtc-ip-handling-policy=disable_non_proxied_udp",
    "--js-flags=--max-old-space-size=1024",
]
SWIFTSHADER_FLAGS = ["--use-angle=swiftshader", "--enable-unsafe-swiftshader", "--disable-accelerated-2d-canvas"]

RENDERER_JS = """() => {
  const gl = document.createElement('canvas').getContext('webgl2');
  if (!gl) return 'no webgl2';
  const ext = gl.getExtension('WEBGL_debug_renderer_info');
  return ext ? gl.getParameter(ext.UNMASKED_RENDERER_WEBGL) : gl.getParameter(gl.RENDERER);
}"""

# One WebGL pixel, read back: it waits for the GPU process, so it hangs while that is stalled.
GPU_PROBE_JS = """() => {
  const gl = document.createElement('canvas').getContext('webgl2');
  if (!gl) return 'no webgl2';
  gl.clearColor(0, 1, 0, 1);
  gl.clear(gl.COLOR_BUFFER_BIT);
  const pixel = new Uint8Array(4);
  gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, pixel);
  return pixel[1] === 255 ? 'ok' : 'wrong pixel ' + pixel.join(',');
}"""
# Seconds the GPU probe may take: a well GPU process answers in milliseconds.
GPU_PROBE_S = 3.0

RENDER_JS = """([url, nonce]) => new Promise((resolve) => {
  const frame = document.createElement('iframe');
  frame.setAttribute('sandbox', 'allow-scripts allow-same-origin');
  let loads = 0;
  const finish = (payload) => {
    window.removeEventListener('message', onMessage);
    frame.remove();
    resolve(payload);
  };
  const onMessage = (ev) => {
    if (ev.source === frame.contentWindow && url.startsWith(ev.origin + '/') && ev.data && ev.data.nonce === nonce) {
      finish(ev.data);
    }
  };
  window.addEventListener('message', onMessage);
  frame.addEventListener('load', () => {
    if (++loads > 1) finish({reason: 'navigated', errors: ['the sketch navigated its frame away']});
  });
  frame.src = url;
  document.body.replaceChildren(frame);
})"""


PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
# A 600x600 RGBA PNG is at most ~1.45 MB even stored uncompressed; its data URL a third more.
MAX_DATA_URL_CHARS = 2_500_000


def check_png(data_url: object) -> tuple[bytes | None, str]:
    """Decodes the sandbox's data URL only if it is the canvas PNG the renderer expects.

    Checks, before any image decoder sees the bytes: a `data:image/png;base64,` URL of at most
    `MAX_DATA_URL_CHARS`, the PNG signature, and an IHDR of 600x600 pixels, 8-bit RGBA (colour
    type 6), what Chromium's `toDataURL` gives for a WebGL canvas. The size check bounds the
    decoded image to 600x600, so no decompression bomb reaches PIL.

    Args:
        data_url: the `png` field of the sandbox's report.

    Returns:
        (png bytes, "") when valid, else (None, what was wrong), e.g. "canvas is 800x800 pixels".
    """
    prefix = "data:image/png;base64,"
    if not isinstance(data_url, str) or not data_url.startswith(prefix):
        return None, "not a PNG data URL"
    if len(data_url) > MAX_DATA_URL_CHARS:
        return None, f"data URL of {len(data_url)} characters"
    try:
        png = base64.b64decode(data_url[len(prefix) :], validate=True)
    except ValueError:
        return None, "invalid base64"
    if png[:8] != PNG_SIGNATURE or png[12:16] != b"IHDR" or len(png) < 33:
        return None, "no PNG signature and header"
    width, height = int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big")
    if (width, height) != (CANVAS_PX, CANVAS_PX):
        return None, f"canvas is {width}x{height} pixels, not {CANVAS_PX}x{CANVAS_PX}"
    if (png[24], png[25]) != (8, 6):
        return None, f"bit depth {png[24]} and colour type {png[25]}, not 8-bit RGBA"
    return png, ""


def _count_nested(page, frame) -> None:  # noqa: ANN001
    """Counts a frame attached below the sketch's frame (the host page's frame is the sketch's)."""
    parent = frame.parent_frame
    if parent is not None and parent != page.main_frame:
        page.nested_frames += 1


def _guard_violations(raw: object) -> list[tuple[str, str]]:
    """The guard's records as (violation, what), dropping anything malformed."""
    out = []
    for item in raw if isinstance(raw, list) else []:
        if isinstance(item, dict) and isinstance(item.get("kind"), str):
            out.append((item["kind"][:40], str(item.get("name", ""))[:80]))
    return out[:40]


class RenderStatus(str, enum.Enum):
    """How a render ended: a closed set."""

    OK = "ok"
    SKETCH_ERROR = "sketch_error"
    TIMEOUT = "timeout"
    INFRA_ERROR = "infra_error"


@dataclass
class RenderResult:
    """One render's outcome.

    Attributes:
        status: how the render ended.
        png: PNG bytes of the 600x600 canvas, or None when nothing could be read back.
        paint_fraction: share of pixels that differ from the paper colour, in [0, 1].
        finished: True when the sketch completed a frame (setup and first draw) without error.
        js_errors: uncaught JavaScript errors in the order they happened.
        elapsed_ms: wall time of the render including queueing for a worker.
        renderer: the WebGL renderer string of the browser that ran it.
        detail: a human-readable reason for a non-ok status.
        violations: what the sandbox blocked and recorded while the sketch ran, as
            (violation name, what was reached), e.g. ("bare_primitive", "ellipse"); the names
            are `Violation` values. Also "invalid_frame" when the picture was not a 600x600 PNG.
    """

    status: RenderStatus
    png: bytes | None = None
    paint_fraction: float = 0.0
    finished: bool = False
    js_errors: list[str] = field(default_factory=list)
    elapsed_ms: float = 0.0
    renderer: str = ""
    detail: str = ""
    violations: list[tuple[str, str]] = field(default_factory=list)


def paint_fraction(png: bytes) -> float:
    """Share of pixels that differ from the paper colour.

    The paper colour is the most common colour of the image; a pixel is paint when any channel
    differs from it by more than `PAINT_DELTA` (0-255).

    Args:
        png: PNG bytes of an RGB(A) image.

    Returns:
        A fraction in [0, 1]; 0.0 for a single-colour canvas.
    """
    rgb = np.asarray(Image.open(io.BytesIO(png)).convert("RGB"))
    flat = rgb.reshape(-1, 3)
    # The mode from every 7th pixel (51,429 of 360,000; 7 is prime to the 600-pixel rows), since
    # the paper is most of a painting; with the uint8 comparison below, 14.5 ms instead of 23 a
    # painting, the same value on all 62 starter-pool paintings (docs/LOG.md).
    sample = flat[::7].astype(np.int32)
    values, counts = np.unique((sample[:, 0] << 16) | (sample[:, 1] << 8) | sample[:, 2], return_counts=True)
    mode = int(values[np.argmax(counts)])
    paper = np.array([(mode >> 16) & 255, (mode >> 8) & 255, mode & 255])
    low = np.clip(paper - PAINT_DELTA, 0, 255).astype(np.uint8)
    high = np.clip(paper + PAINT_DELTA, 0, 255).astype(np.uint8)
    paint = ((flat < low) | (flat > high)).any(axis=1)  # |channel - paper| > PAINT_DELTA, in uint8
    return float(paint.mean())


class Renderer:
    """A pool of Chromium pages that render sketches; thread-safe, shared by all sessions.

    Args:
        workers: pages rendering in parallel (>= 1); defaults to the CPU count.
        deadline_s: default per-render deadline in seconds.
        max_queue: renders allowed to wait for a worker before new ones fail as infra_error.
        chromium_path: the Chromium executable (Debian's `chromium`).
        js_dir: `node_modules` folder with the pinned p5 and p5.brush.
        browser_env: extra environment variables for Chromium (tests use it to hide Mesa); they
            override the renderer's own, `LP_NUM_THREADS` included.
        enforce: run the allowlist inside the sandbox (`static/guard.js`); off only to measure it.
        network_namespace: "auto" (start Chromium in a network namespace with loopback only where
            this machine allows one, else warn and rely on Chromium's flags), "on" (refuse to
            start without one) or "off"; see netns.py. `network_isolation` then says which.

    llvmpipe's rasterizer threads (`LP_NUM_THREADS`, one setting for the one GPU process that all
    workers share) follow the pool's use. One worker: one rasterizer thread, so the GPU work of a
    render overlaps its JavaScript (single typical and rich renders 8-18% faster than with none). Several workers:
    none, rasterizing on the GPU process's own thread (groups of 8 renders 9-14% faster than
    with one thread and 5-10% faster than with two, 5-8% fewer core-seconds; docs/LOG.md,
    2026-11-30, interleaved on 2 cores). The pixels are the same either way.

    Example:
        >>> with Renderer(workers=1) as renderer:  # doctest: +SKIP
        ...     result = renderer.render(open("examples/sketches/trivial.js").read(), seed=7)
        ...     result.status, round(result.paint_fraction, 2)
        (<RenderStatus.OK: 'ok'>, 0.09)
    """

    def __init__(
        self,
        workers: int | None = None,
        deadline_s: float = 20.0,
        max_queue: int = 64,
        chromium_path: str = "/usr/bin/chromium",
        js_dir: Path = DEFAULT_JS_DIR,
        browser_env: dict[str, str] | None = None,
        enforce: bool = True,
        network_namespace: str = "auto",
    ) -> None:
        if network_namespace not in netns.MODES:
            raise ValueError(f"network_namespace must be one of {', '.join(netns.MODES)}, not {network_namespace!r}")
        self.enforce = enforce
        self.network_namespace = network_namespace
        self.network_isolation = ""  # "namespace" or "flags", once started
        self._wrapper_dir: Path | None = None
        self.browser_env = dict(browser_env or {})
        self.workers = max(1, workers or os.cpu_count() or 1)
        self.deadline_s = deadline_s
        self.max_queue = max_queue
        self.chromium_path = chromium_path
        self.renderer_string = ""
        self._js_dir = js_dir
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name="renderer", daemon=True)
        self._started = False
        self._closed = False
        self._waiting = 0
        self._waiting_lock = threading.Lock()
        self._start_lock = threading.Lock()

    def __enter__(self) -> Renderer:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def start(self) -> None:
        """Launches the library server, the browser and the worker pages; idempotent.

        Raises:
            RenderError: Chromium could not be launched (the renderer is then closed).
            FileNotFoundError: p5 or p5.brush is not installed.
        """
        with self._start_lock:
            if self._started:
                return
            self._library = LibraryServer(self._js_dir, enforce=self.enforce)
            try:
                self._isolate_network()
            except RenderError:
                self._library.close()
                self._closed = True
                raise
            self._thread.start()
            try:
                self._call(self._start_browser(), timeout_s=120)
            except Exception as err:
                self._library.close()
                self._closed = True
                raise RenderError(
                    f"Chromium could not be launched from {self.chromium_path}: {err}; "
                    "install it with `make install` (Debian packages chromium libegl-mesa0 libgl1-mesa-dri)"
                ) from err
            self._started = True

    def _isolate_network(self) -> None:
        reason = None if self.network_namespace == "off" else netns.unavailable_reason()
        if self.network_namespace == "off" or reason:
            if self.network_namespace == "on":
                raise RenderError(
                    f"no network namespace for Chromium: {reason}. Allow unprivileged user namespaces "
                    "(outside Docker's default seccomp profile), or set WATERCOLOUR_RENDER_NETWORK_NAMESPACE=auto "
                    "to render with Chromium's own network flags alone"
                )
            if reason:
                log.warning(
                    "renderer: no network namespace (%s); Chromium's network flags alone keep renders offline", reason
                )
            self.network_isolation = "flags"
            return
        self._wrapper_dir = Path(tempfile.mkdtemp(prefix="watercolour-netns-"))
        self._library.serve_unix(self._wrapper_dir)
        self._wrapper = netns.write_wrapper(self._wrapper_dir, self.chromium_path, self._library.ports)
        self.network_isolation = "namespace"

    def close(self) -> None:
        """Closes the browser and the library server; idempotent."""
        if not self._started or self._closed:
            return
        self._closed = True
        try:
            self._call(self._stop_browser(), timeout_s=30)
        except Exception:  # noqa: BLE001 (closing what may already be dead)
            log.warning("renderer: browser did not close cleanly", exc_info=True)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._library.close()
        if self._wrapper_dir is not None:
            shutil.rmtree(self._wrapper_dir, ignore_errors=True)

    def render(self, sketch: str, seed: int = 0, deadline_s: float | None = None) -> RenderResult:
        """Renders one sketch; blocks the calling thread, never raises for a bad sketch.

        Args:
            sketch: JavaScript source defining at least `setup`.
            seed: seed of `Math.random` in [0, 2**32).
            deadline_s: seconds before the render is abandoned; defaults to the pool's.

        Returns:
            The render result; infrastructure failures come back as `RenderStatus.INFRA_ERROR`.
        """
        if self._closed:
            return RenderResult(RenderStatus.INFRA_ERROR, detail="the renderer is closed")
        self.start()
        deadline = self.deadline_s if deadline_s is None else deadline_s
        with self._waiting_lock:
            if self._waiting >= self.max_queue + self.workers:
                return RenderResult(RenderStatus.INFRA_ERROR, detail="render queue is full")
            self._waiting += 1
        try:
            # the render enforces its own deadline; this bound only catches a wedged browser
            return self._call(self._render(sketch, seed, deadline), timeout_s=deadline + HARD_MARGIN_S)
        except Exception as err:  # noqa: BLE001 (any failure here is the infrastructure's)
            log.exception("renderer: infrastructure failure")
            return RenderResult(RenderStatus.INFRA_ERROR, detail=f"{type(err).__name__}: {err}")
        finally:
            with self._waiting_lock:
                self._waiting -= 1

    def _call(self, coro, timeout_s: float | None):  # noqa: ANN001, ANN202
        future: Future = asyncio.run_coroutine_threadsafe(coro, self._loop)
        return future.result(timeout=timeout_s)

    async def _start_browser(self) -> None:
        from playwright.async_api import async_playwright

        self._playwright = await async_playwright().start()
        self._pages: asyncio.Queue = asyncio.Queue()
        self._browser_lock = asyncio.Lock()
        self._gpu_lock = asyncio.Lock()
        self._retry_lock = asyncio.Lock()
        self._calm = asyncio.Event()
        self._calm.set()
        self._in_flight = 0
        await self._launch(CHROMIUM_FLAGS)
        if "llvmpipe" not in self.renderer_string:
            log.warning(
                "WebGL runs on %r, not Mesa llvmpipe: install libegl-mesa0 and libgl1-mesa-dri. "
                "Falling back to SwiftShader with a software 2D canvas (slower, less deterministic).",
                self.renderer_string,
            )
            await self._browser.close()
            await self._launch([f for f in CHROMIUM_FLAGS if not f.startswith("--use-")] + SWIFTSHADER_FLAGS)

    async def _launch(self, flags: list[str]) -> None:
        threads = "1" if self.workers == 1 else "0"  # measured, see the class docstring
        env = {**os.environ, "LP_NUM_THREADS": threads, **self.browser_env}
        self._flags = flags
        # Loopback too goes to the dead proxy (Chromium bypasses it for loopback by default, and
        # WebRTC's TURN over TCP reached any loopback port), except the library server's two.
        ports = [origin.rsplit(":", 1)[1] for origin in (self._library.host_origin, self._library.origin)]
        bypass = "--proxy-bypass-list=<-loopback>;" + ";".join(f"127.0.0.1:{port}" for port in ports)
        executable = str(self._wrapper) if self.network_isolation == "namespace" else self.chromium_path
        self._browser = await self._playwright.chromium.launch(
            executable_path=executable, args=[*flags, bypass], env=env, headless=True
        )
        self._generation = getattr(self, "_generation", 0) + 1
        while not self._pages.empty():
            self._pages.get_nowait()
        for _ in range(self.workers):
            self._pages.put_nowait(await self._new_page())
        probe = await self._pages.get()
        self.renderer_string = await probe.evaluate(RENDERER_JS)
        self._pages.put_nowait(probe)
        log.info(
            "renderer: %d workers on %s, network closed by %s",
            self.workers,
            self.renderer_string,
            self.network_isolation,
        )

    async def _new_page(self):  # noqa: ANN202
        context = await self._browser.new_context(viewport={"width": CANVAS_PX, "height": CANVAS_PX})
        page = await context.new_page()
        page.on("dialog", lambda dialog: asyncio.ensure_future(dialog.dismiss()))
        # A frame inside the sketch's frame is a fresh JavaScript realm, whose pristine WebGL
        # methods would paint past the guard: counted here, where the sketch cannot reach.
        page.nested_frames = 0  # type: ignore[attr-defined]
        page.on("frameattached", lambda frame: _count_nested(page, frame))
        await self._vet_navigations(context, page)
        await page.goto(f"{self._library.host_origin}/host.html")
        await page.cdp.send("Page.resetNavigationHistory")  # every render starts with one entry
        page.generation = self._generation  # type: ignore[attr-defined]
        return page

    async def _vet_navigations(self, context, page) -> None:  # noqa: ANN001
        """Lets the page and its frames load only the library server's host and frame pages.

        Every document request is paused (CDP Fetch); any other navigation, such as a sketch
        sending its frame to another loopback port, fails before a request is made.

        Only documents are paused (one round trip per render, ~1 ms), so the libraries still come
        from the HTTP cache; Playwright's own routing would disable that cache.
        """
        allowed = (f"{self._library.host_origin}/host.html", f"{self._library.origin}/frame/")
        cdp = await context.new_cdp_session(page)
        page.cdp = cdp  # type: ignore[attr-defined]

        async def vet(event: dict) -> None:
            url, request_id = event["request"]["url"], event["requestId"]
            try:
                if url.startswith(allowed):
                    await cdp.send("Fetch.continueRequest", {"requestId": request_id})
                else:
                    log.info("renderer: blocked a navigation to %s", url[:200])
                    await cdp.send("Fetch.failRequest", {"requestId": request_id, "errorReason": "BlockedByClient"})
            except Exception:  # noqa: BLE001 (the page went away meanwhile)
                log.debug("renderer: could not vet %s", url[:200], exc_info=True)

        cdp.on("Fetch.requestPaused", lambda event: asyncio.ensure_future(vet(event)))
        await cdp.send("Fetch.enable", {"patterns": [{"urlPattern": "*", "resourceType": "Document"}]})

    async def _wipe_storage(self, page) -> None:  # noqa: ANN001
        """Clears everything the frame's origin may have stored, before the page renders again.

        The harness takes the storage APIs away from the sketch's frame, but a frame of the
        sketch's own (about:blank, same origin) has working ones, and the origin private file
        system lives outside them: without this, a sketch could count the renders before it.
        The tab's session history is reset too (`history.length` outlives frames). The HTTP
        cache is left alone (the libraries' exact URLs only; see the library server).
        """
        try:
            await page.cdp.send(
                "Storage.clearDataForOrigin", {"origin": self._library.origin, "storageTypes": WIPED_STORAGE}
            )
            # the tab's session history (a child frame's pushState counts renders otherwise)
            await page.cdp.send("Page.resetNavigationHistory")
        except Exception:  # noqa: BLE001 (a page that died is replaced, its storage with it)
            log.debug("renderer: could not wipe the frame origin's storage", exc_info=True)

    async def _stop_browser(self) -> None:
        await self._browser.close()
        await self._playwright.stop()

    async def _render(self, sketch: str, seed: int, deadline_s: float, retried: bool = False) -> RenderResult:
        started = time.perf_counter()
        if not retried:
            await self._calm.wait()  # no new render starts while lost ones are rendered again
        page = await self._pages.get()
        generation = page.generation
        url, nonce = self._library.add_frame(sketch, seed)
        page.nested_frames = 0
        self._in_flight += 1
        alone = self._in_flight == 1
        try:
            payload = await asyncio.wait_for(page.evaluate(RENDER_JS, [url, nonce]), timeout=deadline_s)
        except TimeoutError:
            alone = alone and self._in_flight == 1
            self._in_flight -= 1
            self._library.forget(url)
            await self._replace(page)
            detail = f"no finished frame within {deadline_s:g} s"
            if await self._recover_gpu(generation):
                if not retried:
                    # the picture may have been lost to another sketch's stall: once more, fresh
                    return await self._again(sketch, seed, deadline_s, started)
                if not alone:  # cannot happen while retries run alone; never blame on a guess
                    detail += "; the GPU process stalled on both tries, with other renders in flight"
                    return self._result(RenderStatus.INFRA_ERROR, started, detail=detail)
                detail += ", twice, the second time alone, and the GPU process stalled both times"
            return self._result(RenderStatus.TIMEOUT, started, detail=detail)
        except Exception as err:  # noqa: BLE001 (the page or the browser died)
            self._in_flight -= 1
            self._library.forget(url)
            if page.generation != self._generation and not retried:
                # the browser was relaunched under it (another render found the GPU stalled)
                await self._replace(page)
                return await self._again(sketch, seed, deadline_s, started)
            message = f"{type(err).__name__}: {err}".splitlines()[0]
            page_crashed = "Page crashed" in message or "Target crashed" in message
            if not page_crashed:
                await asyncio.sleep(0.2)  # let a browser disconnect arrive before judging
            await self._replace(page)
            if page_crashed and self._browser.is_connected():
                # the sketch's own page died (a memory flood, most often): the sketch's fault
                return self._result(RenderStatus.SKETCH_ERROR, started, detail="the page crashed (out of memory?)")
            return self._result(RenderStatus.INFRA_ERROR, started, detail=message)
        self._in_flight -= 1
        await self._wipe_storage(page)
        if getattr(page, "generation", None) == self._generation:
            self._pages.put_nowait(page)
        result = self._decode(payload, started)
        if page.nested_frames and self.enforce:
            realms = f"{page.nested_frames} frame(s) of its own: a fresh JavaScript realm"
            result.violations.append(("tampering", realms))
        return result

    def _decode(self, payload: dict, started: float) -> RenderResult:
        guard = payload.get("guard", "on")
        if self.enforce and payload.get("reason") != "navigated" and guard != "on":
            # never a verdict on a render the allowlist did not watch
            log.error("renderer: the sandbox guard did not run: %s", guard)
            return self._result(
                RenderStatus.INFRA_ERROR, started, detail=f"the sandbox guard did not run: {guard}"[:500]
            )
        errors = [str(e) for e in payload.get("errors") or []]
        violations = _guard_violations(payload.get("violations"))
        png, detail = None, ""
        data_url = payload.get("png")
        if data_url:
            png, problem = check_png(data_url)
            if problem:
                # resizeCanvas, pixelDensity or a huge createCanvas: not the environment's canvas
                violations.append(("canvas_change" if problem.startswith("canvas is") else "invalid_frame", problem))
                detail = f"the reported picture is not a {CANVAS_PX}x{CANVAS_PX} PNG: {problem}"
        fraction = paint_fraction(png) if png else 0.0
        finished = payload.get("reason") == "drawn" and not errors and not detail
        status = RenderStatus.OK if finished else RenderStatus.SKETCH_ERROR
        if not detail and not finished:
            detail = "the sketch navigated away" if payload.get("reason") == "navigated" else "the sketch threw"
        return self._result(
            status,
            started,
            png=png,
            paint_fraction=fraction,
            finished=finished,
            js_errors=errors,
            detail=detail,
            violations=violations,
        )

    def _result(self, status: RenderStatus, started: float, **fields: object) -> RenderResult:
        elapsed_ms = (time.perf_counter() - started) * 1000.0
        return RenderResult(status, elapsed_ms=elapsed_ms, renderer=self.renderer_string, **fields)  # type: ignore[arg-type]

    async def _again(self, sketch: str, seed: int, deadline_s: float, started: float) -> RenderResult:
        """Renders once more, alone, a render whose picture a relaunched browser lost.

        Alone: no new render starts and the retry waits for those in flight, so a retry that
        stalls the GPU again is the sketch's own doing and one that does not was a bystander.
        The elapsed time counts from the first try.
        """
        async with self._retry_lock:
            self._calm.clear()
            try:
                while self._in_flight > 0:
                    await asyncio.sleep(0.05)
                result = await self._render(sketch, seed, deadline_s, retried=True)
            finally:
                self._calm.set()
        result.elapsed_ms = (time.perf_counter() - started) * 1000.0
        return result

    async def _recover_gpu(self, generation: int) -> bool:
        """After a timeout: is the GPU process that every page shares stalled? If so, restart.

        A sketch can stall it for every page (a shader that loops for minutes: the next renders
        all timed out and recovery took 70-80 s; docs/LOG.md, issue 12). A fresh page asks it for
        one WebGL pixel; no answer within GPU_PROBE_S means stalled, and the browser is
        relaunched. A sketch that merely hung its own page leaves the probe answering.

        Returns:
            True when the render's browser was relaunched, here or by another render meanwhile
            (its picture was lost and it deserves another try), False when the GPU is well.
        """
        async with self._gpu_lock:
            if self._generation != generation:
                return True
            try:
                context = await self._browser.new_context()
                try:
                    probe = await context.new_page()
                    answer = await asyncio.wait_for(probe.evaluate(GPU_PROBE_JS), timeout=GPU_PROBE_S)
                finally:
                    asyncio.ensure_future(context.close())  # a stalled one may never close
                if answer == "ok":
                    return False
                log.warning("renderer: the GPU probe answered %r; relaunching the browser", answer)
            except Exception as err:  # noqa: BLE001 (a probe that does not answer is the finding)
                log.warning("renderer: the GPU process did not answer in %g s (%s); relaunching the browser",
                            GPU_PROBE_S, type(err).__name__)  # fmt: skip
            async with self._browser_lock:
                if self._generation == generation:
                    old = self._browser
                    await self._launch(self._flags)
                    asyncio.ensure_future(self._close_quietly(old))
            return True

    @staticmethod
    async def _close_quietly(browser) -> None:  # noqa: ANN001
        try:
            await asyncio.wait_for(browser.close(), timeout=10)
        except Exception:  # noqa: BLE001 (Playwright kills what does not close)
            log.debug("renderer: an old browser did not close cleanly", exc_info=True)

    async def _replace(self, page) -> None:  # noqa: ANN001
        """Closes a page that timed out or crashed and puts a fresh one in the pool."""
        if getattr(page, "generation", None) != self._generation:
            return  # its browser was relaunched and is closing with all its pages
        async with self._browser_lock:
            if not self._browser.is_connected():
                log.warning("renderer: browser died; relaunching")
                await self._launch(self._flags)
                return
            try:
                await asyncio.wait_for(page.context.close(), timeout=5)
            except Exception:  # noqa: BLE001 (a hung renderer is killed with its context)
                log.warning("renderer: page did not close in 5 s", exc_info=True)
            if getattr(page, "generation", None) == self._generation:
                self._pages.put_nowait(await self._new_page())
