"""Turn a p5.brush sketch into a 600x600 PNG in headless Chromium, fast and contained.

Configuration measured before it was written (docs/decisions/0003, "Rendering p5.brush in
Chromium"): WebGL on Mesa llvmpipe through ANGLE's EGL backend, a software 2D canvas, one long-lived browser, one
long-lived page per worker and a fresh iframe per render from a loopback library server.
Readiness comes from a p5 `postdraw` hook (static/harness.js) awaited with one evaluate.

What the sandbox covers and does not: the package docstring (`watercolour_env.server.sandbox`).
"""

from __future__ import annotations

import asyncio
import logging
import os
import shutil
import threading
import time
from concurrent.futures import Future
from pathlib import Path

from watercolour_env.errors import RenderError
from watercolour_env.limits import DEFAULT_RENDER_DEADLINE_S
from watercolour_env.server.sandbox import netns, pages
from watercolour_env.server.sandbox.chromium import (
    CHROMIUM_FLAGS,
    RECORDER_FLAGS,
    RENDER_JS,
    RENDERER_JS,
    SWIFTSHADER_FLAGS,
    launch_failure,
    launch_options,
)
from watercolour_env.server.sandbox.fair_queue import FairQueue
from watercolour_env.server.sandbox.library_server import DEFAULT_JS_DIR, LibraryServer
from watercolour_env.server.sandbox.picture import RenderResult, RenderStatus, read_report
from watercolour_env.server.sandbox.recovery import PageRecovery
from watercolour_env.server.sandbox.sealed import Sealing

log = logging.getLogger(__name__)

# Beyond the render deadline: time to replace a page or relaunch the browser, then give up.
HARD_MARGIN_S = 120.0
# Beyond an episode's deadline and one more render deadline (a retry after a GPU stall may need
# it): the render stops itself by then; this catches a wedged browser.
CANCEL_GRACE_S = 5.0


class Renderer(PageRecovery, Sealing):
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
        recorder: a recorder of sketches' calls (decision 0007, sealed.py): no WebGL in the
            browser, no p5.brush in its frames, results that carry `recording` and no picture.
        sealed: paint only what a recorder of the same size recorded (`render`, decision 0007);
            off, the sketch paints in these pages itself, watched by the guard (decision 0001).

    Example:
        >>> with Renderer(workers=1) as renderer:  # doctest: +SKIP
        ...     result = renderer.render(open("examples/sketches/trivial.js").read(), seed=7)
        ...     result.status, round(result.paint_fraction, 2)
        (<RenderStatus.OK: 'ok'>, 0.09)
    """

    def __init__(
        self,
        workers: int | None = None,
        deadline_s: float = DEFAULT_RENDER_DEADLINE_S,
        max_queue: int = 64,
        chromium_path: str = "/usr/bin/chromium",
        js_dir: Path = DEFAULT_JS_DIR,
        browser_env: dict[str, str] | None = None,
        enforce: bool = True,
        network_namespace: str = "auto",
        recorder: bool = False,
        sealed: bool = False,
    ) -> None:
        if network_namespace not in netns.MODES:
            raise ValueError(f"network_namespace must be one of {', '.join(netns.MODES)}, not {network_namespace!r}")
        self.enforce, self.network_namespace, self.recorder = enforce, network_namespace, recorder
        self.network_isolation = ""  # "namespace" or "flags", once started
        self._wrapper_dir: Path | None = None
        self.browser_env = dict(browser_env or {})
        self.workers = max(1, workers or os.cpu_count() or 1)
        self.deadline_s, self.max_queue, self.chromium_path = deadline_s, max_queue, chromium_path
        self.renderer_string = self.browser_version = ""
        self._js_dir = js_dir
        self._recorder = self._recorder_for(sealed and not recorder)
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name="renderer", daemon=True)
        self._started = self._closed = False
        self._waiting = 0  # renders waiting for a worker or rendering
        self._waiting_lock, self._start_lock = threading.Lock(), threading.Lock()

    @classmethod
    def from_settings(cls, settings: object, **overrides: object) -> Renderer:
        """A renderer, not yet started, as the server's `Settings` describe it.

        The settings are read by name (the sandbox imports nothing above it); `overrides` replace
        any `__init__` argument (e.g. `workers=1`).
        """
        names = {
            "workers": "render_workers",
            "deadline_s": "render_deadline_s",
            "max_queue": "render_max_queue",
            "chromium_path": "chromium_path",
            "network_namespace": "render_network_namespace",
        }
        return cls(**({arg: getattr(settings, name) for arg, name in names.items()} | overrides))

    def __enter__(self) -> Renderer:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def start(self) -> None:
        """Launches the library server, the browser and the worker pages; idempotent.

        Raises:
            RenderError: Chromium could not be launched (the renderer is then closed).
            ConfigError: p5 or p5.brush is not installed.
        """
        with self._start_lock:
            if self._started:
                return
            self._library = LibraryServer(self._js_dir, enforce=self.enforce, recorder=self.recorder)
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
                raise launch_failure(self.chromium_path, err) from err
            self._started = True
        if self._recorder is not None:
            try:
                self._recorder.start()
            except Exception:
                self.close()
                raise

    def _isolate_network(self) -> None:
        self._wrapper = netns.isolate(self.network_namespace, self._library, self.chromium_path)
        self._wrapper_dir = self._wrapper.parent if self._wrapper else None
        self.network_isolation = "namespace" if self._wrapper else "flags"

    def close(self) -> None:
        """Closes the browser and the library server; idempotent."""
        if self._recorder is not None:
            self._recorder.close()
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

    def _render_here(self, sketch: str, seed: int, deadline_s: float | None, deadline_at: float | None) -> RenderResult:
        """One phase on this renderer's pages: `render` unsealed."""
        if self._closed:
            return RenderResult(RenderStatus.INFRA_ERROR, detail="the renderer is closed")
        self.start()
        deadline = self.deadline_s if deadline_s is None else deadline_s
        with self._waiting_lock:
            if self._waiting >= self.max_queue + self.workers:
                return RenderResult(RenderStatus.INFRA_ERROR, detail="render queue is full")
            self._waiting += 1
        # the render enforces its own deadlines; this bound only catches a wedged browser
        bound_s = deadline + HARD_MARGIN_S
        if deadline_at is not None:  # a render ends by the episode's deadline; a GPU retry may take one more
            bound_s = min(bound_s, max(0.0, deadline_at - time.monotonic()) + deadline + CANCEL_GRACE_S)
        future: Future = asyncio.run_coroutine_threadsafe(self._render(sketch, seed, deadline, deadline_at), self._loop)
        try:
            return future.result(timeout=bound_s)
        except TimeoutError:
            future.cancel()  # the render's page is replaced (`_render`), not left rendering for nobody
            log.error("renderer: a render outlived its bound of %.1f s and was cancelled", bound_s)
            return RenderResult(RenderStatus.INFRA_ERROR, detail=f"the renderer did not answer within {bound_s:.1f} s")
        except Exception as err:  # noqa: BLE001 (any failure here is the infrastructure's)
            log.exception("renderer: infrastructure failure")
            return RenderResult(RenderStatus.INFRA_ERROR, detail=f"{type(err).__name__}: {err}")
        finally:
            with self._waiting_lock:
                self._waiting -= 1

    def stats(self) -> dict:
        """For `/health`: workers, pages busy / free / replacing, queued, max_queue, GPU, Chromium...

        Pages are counted, not assumed: busy + free + replacing is `workers` unless one was lost;
        sealed, `recorder` holds the recorder's counts (`sealed`: whether the sketches record first).
        """
        running = min(getattr(self, "_in_flight", 0), self.workers)
        free = len(self._pages) if hasattr(self, "_pages") else 0
        replacing = len(getattr(self, "_replacing", ()))
        return {
            "workers": self.workers,
            "browsers": 1,
            "busy": running,
            "free": free,
            "replacing": replacing,
            "queued": max(0, self._waiting - running),
            "max_queue": self.max_queue,
            "renderer": self.renderer_string,
            "chromium": self.browser_version,
            "started": self._started,
            "closed": self._closed,
            "network": self.network_isolation,
            "sealed": self._recorder is not None,
        } | ({"recorder": self._recorder.stats()} if self._recorder is not None else {})

    def _call(self, coro, timeout_s: float | None):  # noqa: ANN001, ANN202
        future: Future = asyncio.run_coroutine_threadsafe(coro, self._loop)
        return future.result(timeout=timeout_s)

    async def _start_browser(self) -> None:
        from playwright.async_api import async_playwright

        self._playwright = await async_playwright().start()
        self._pages: FairQueue = FairQueue()  # not asyncio.Queue: see fair_queue.py
        self._browser_lock = asyncio.Lock()
        self._gpu_lock = asyncio.Lock()
        self._retry_lock = asyncio.Lock()
        self._calm = asyncio.Event()
        self._calm.set()
        self._in_flight = 0
        self._replacing: set[asyncio.Task] = set()  # pages being replaced, held so they finish
        self._gpu_well_at = 0.0  # when the last GPU probe found it well (time.monotonic)
        await self._launch(RECORDER_FLAGS if self.recorder else CHROMIUM_FLAGS)
        if not self.recorder and "llvmpipe" not in self.renderer_string:
            log.warning(
                "WebGL runs on %r, not Mesa llvmpipe: install libegl-mesa0 and libgl1-mesa-dri. "
                "Falling back to SwiftShader with a software 2D canvas (slower, less deterministic).",
                self.renderer_string,
            )
            await self._browser.close()
            await self._launch([f for f in CHROMIUM_FLAGS if not f.startswith("--use-")] + SWIFTSHADER_FLAGS)

    async def _launch(self, flags: list[str]) -> None:
        self._flags = flags
        executable = str(self._wrapper) if self.network_isolation == "namespace" else self.chromium_path
        origins = (self._library.host_origin, self._library.origin)
        self._browser = await self._playwright.chromium.launch(
            executable_path=executable, headless=True, **launch_options(flags, origins, self.workers, self.browser_env)
        )
        self._generation = getattr(self, "_generation", 0) + 1
        self._browser.on("disconnected", self._on_disconnected)
        while not self._pages.empty():
            self._pages.get_nowait()
        for _ in range(self.workers):
            self._pages.put_nowait(await pages.new_page(self._browser, self._library, self._generation))
        probe = await self._pages.get()
        self.renderer_string = await probe.evaluate(RENDERER_JS)
        self.browser_version = self._browser.version
        self._pages.put_nowait(probe)
        log.info(
            "renderer: %d workers on %s, network closed by %s",
            self.workers,
            self.renderer_string,
            self.network_isolation,
        )

    async def _stop_browser(self) -> None:
        for task in list(self._replacing):  # a page replaced now would relaunch a closed browser
            task.cancel()
        await self._browser.close()
        await self._playwright.stop()

    async def _render(
        self, sketch: str, seed: int, deadline_s: float, deadline_at: float | None = None, retried: bool = False
    ) -> RenderResult:
        started = time.perf_counter()
        late = "the episode's deadline ran out in the render queue (%.1f s waiting for a worker; "
        late += "%.1f s left, under the render deadline of %g s)"
        # A render starts only with its whole deadline left, so the episode's deadline never cuts
        # one short: a cut hang would be the infrastructure's (reward None) where a quicker
        # sketch in its place is scored, and a verdict must not depend on the sketch that way
        # (docs/LOG.md, issue 15, the red team). The wait for a worker ends when that time is up.
        try:
            async with asyncio.timeout(None if deadline_at is None else max(0.0, _left(deadline_at) - deadline_s)):
                if not retried:
                    await self._calm.wait()  # no new render starts while lost ones are rendered again
                page = await self._pages.get()  # not wait_for: 3.11's can drop the page it got
        except TimeoutError:
            detail = late % (time.perf_counter() - started, _left(deadline_at), deadline_s)
            return self._result(RenderStatus.INFRA_ERROR, started, detail=detail)
        left = _left(deadline_at)
        if left is not None and left < deadline_s:  # the page came as the time ran out
            self._pages.put_nowait(page)
            detail = late % (time.perf_counter() - started, left, deadline_s)
            return self._result(RenderStatus.INFRA_ERROR, started, detail=detail)
        queued_s = time.perf_counter() - started
        result = await self._render_on(page, sketch, seed, deadline_s, retried, started, queued_s)
        result.queued_ms = result.queued_ms or queued_s * 1000.0  # a retry keeps its own
        return result

    async def _render_on(
        self,
        page,  # noqa: ANN001 (a Playwright page with the pool's attributes)
        sketch: str,
        seed: int,
        deadline_s: float,
        retried: bool,
        started: float,
        queued_s: float,
    ) -> RenderResult:
        generation = page.generation
        url, nonce = self._library.add_frame(sketch, seed)
        page.nested_frames = 0
        self._in_flight += 1
        alone = self._in_flight == 1
        try:
            payload = await asyncio.wait_for(page.evaluate(RENDER_JS, [url, nonce]), timeout=deadline_s)
        except asyncio.CancelledError:
            self._in_flight -= 1
            self._library.forget(url)
            self._replace_soon(page)  # it may be mid-render: a fresh page takes its place
            raise
        except TimeoutError:
            alone = alone and self._in_flight == 1
            timed_out_at = time.monotonic()
            self._in_flight -= 1
            self._library.forget(url)
            self._replace_soon(page)  # meanwhile: the verdict does not wait for a fresh page
            detail = f"no finished frame within {deadline_s:g} s"
            if not self.recorder and await self._recover_gpu(generation, timed_out_at):
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
                return await self._again(sketch, seed, deadline_s, started)
            message = f"{type(err).__name__}: {err}".splitlines()[0]
            page_crashed = "Page crashed" in message or "Target crashed" in message
            if not page_crashed:
                await asyncio.sleep(0.2)  # let a browser disconnect arrive before judging
            self._replace_soon(page)
            if page_crashed and self._browser.is_connected():
                # the sketch's own page died (a memory flood, most often): the sketch's fault
                return self._result(RenderStatus.SKETCH_ERROR, started, detail="the page crashed (out of memory?)")
            return self._result(RenderStatus.INFRA_ERROR, started, detail=message)
        self._in_flight -= 1
        try:
            await pages.wipe_storage(page, self._library.origin)
        except asyncio.CancelledError:
            self._replace_soon(page)
            raise
        if getattr(page, "generation", None) == self._generation:
            self._pages.put_nowait(page)
        result = self._decode(payload, started)
        if page.nested_frames and self.enforce:
            realms = f"{page.nested_frames} frame(s) of its own: a fresh JavaScript realm"
            result.violations.append(("tampering", realms))
        return result

    def _decode(self, payload: dict, started: float) -> RenderResult:
        status, fields = read_report(payload, self.enforce)
        if status is RenderStatus.INFRA_ERROR:
            log.error("renderer: %s", fields["detail"])
        return self._result(status, started, **fields)

    def _result(self, status: RenderStatus, started: float, **fields: object) -> RenderResult:
        elapsed_ms = (time.perf_counter() - started) * 1000.0
        return RenderResult(status, elapsed_ms=elapsed_ms, renderer=self.renderer_string, **fields)  # type: ignore[arg-type]


def _left(deadline_at: float | None) -> float | None:
    """Seconds until a `time.monotonic()` deadline, >= 0; None for no deadline."""
    return None if deadline_at is None else max(0.0, deadline_at - time.monotonic())
