"""How the renderer's page pool heals: pages replaced, a stalled GPU process restarted.

A hung or crashed page is replaced; a stalled GPU process is restarted; a render whose picture a
restart lost is rendered once more, alone.

`Renderer` inherits these; they run on its event loop and use its pool state (`_pages`,
`_browser`, `_generation`, `_in_flight` and the locks made in `_start_browser`).
"""

from __future__ import annotations

import asyncio
import logging
import time

from watercolour_env.server.sandbox import pages
from watercolour_env.server.sandbox.picture import RenderResult

log = logging.getLogger(__name__)


class PageRecovery:
    """The page pool's recovery, mixed into `Renderer` (see the module docstring)."""

    async def _again(self, sketch: str, seed: int, deadline_s: float, started: float) -> RenderResult:
        """Renders once more, alone, a render whose picture a relaunched browser lost.

        Alone: no new render starts and the retry waits for those in flight, so a retry that
        stalls the GPU again is the sketch's own doing and one that does not was a bystander.
        Alone in its browser: other browsers (browsers.py) go on rendering beside it, on the same
        cores but not through its GPU process, so the verdict on the stall holds; the retry may
        render slower than alone on the machine.
        The elapsed time counts from the first try. The retry has its whole render deadline (the
        episode's deadline may be passed by then: the episode ends infra_error at the rubric).
        """
        async with self._retry_lock:
            self._calm.clear()
            try:
                while self._in_flight > 0:
                    await asyncio.sleep(0.05)
                result = await self._render(sketch, seed, deadline_s, None, retried=True)
            finally:
                self._calm.set()
        result.elapsed_ms = (time.perf_counter() - started) * 1000.0
        return result

    async def _recover_gpu(self, generation: int, timed_out_at: float) -> bool:
        """After a timeout at `timed_out_at` (time.monotonic): is the shared GPU process stalled?

        If so, it is restarted.

        A sketch can stall it for every page (a shader that loops for minutes: the next renders
        all timed out and recovery took 70-80 s; docs/LOG.md, issue 12); `pages.gpu_stalled`
        tells that from a sketch that hung its own page. A probe that found the GPU well with an
        answer given after this render timed out answers for it too (a stall that held the render
        for its whole deadline was not holding the GPU process at that moment): many hangs at once
        probe once, not one after another. Probes in a row outlived the render's bound under load
        (6 hangs on 6 workers, 2026-12-03 and again 2026-12-07; docs/LOG.md).

        Returns:
            True when the render's browser was relaunched, here or by another render meanwhile
            (its picture was lost and it deserves another try), False when the GPU is well.
        """
        async with self._gpu_lock:
            if self._generation != generation:
                return True
            if self._gpu_well_at >= timed_out_at:
                return False
            if not await pages.gpu_stalled(self._browser):
                self._gpu_well_at = time.monotonic()
                return False
            async with self._browser_lock:
                if self._generation == generation:
                    old = self._browser
                    await self._launch(self._flags)
                    asyncio.ensure_future(pages.close_quietly(old))
            return True

    def _on_disconnected(self, browser) -> None:  # noqa: ANN001
        """A browser that died between renders is relaunched at once, not by the next render's failure.

        Its pages leave the pool now, so a render waits for the fresh ones instead of taking a dead
        one (a sealed render's idle recorder, killed beside the painter, lost the next render).
        """
        if self._closed or browser is not self._browser:
            return
        while not self._pages.empty():
            self._pages.get_nowait()

        async def relaunch() -> None:
            async with self._browser_lock:
                if not self._closed and browser is self._browser:
                    log.warning("renderer: browser died; relaunching")
                    await self._launch(self._flags)

        task = asyncio.ensure_future(relaunch())
        self._replacing.add(task)
        task.add_done_callback(self._replacing.discard)

    def _replace_soon(self, page) -> None:  # noqa: ANN001
        """Replaces a page in a task of its own, which a cancelled render cannot stop half-way.

        A cancellation inside an awaited `_replace` lost the page for good (docs/LOG.md, issue 15).
        """
        task = asyncio.ensure_future(self._replace(page))
        self._replacing.add(task)
        task.add_done_callback(self._replacing.discard)

    async def _replace(self, page) -> None:  # noqa: ANN001
        """Closes a page that timed out or crashed and puts a fresh one in the pool.

        The page is closed at once, beside other closings, and only the fresh page waits for the
        browser lock: a hung page spins a core until closed, and six closed one after another
        (each waiting for the fresh page before it) starved the GPU probe under load (docs/LOG.md).
        """
        if getattr(page, "generation", None) != self._generation:
            return  # its browser was relaunched and is closing with all its pages
        if self._browser.is_connected():
            try:
                await asyncio.wait_for(page.context.close(), timeout=5)
            except Exception:  # noqa: BLE001 (a hung renderer is killed with its context)
                log.warning("renderer: page did not close in 5 s", exc_info=True)
        async with self._browser_lock:
            if self._closed:
                return  # the renderer is closing: its browser goes with every page
            if not self._browser.is_connected():
                log.warning("renderer: browser died; relaunching")
                await self._launch(self._flags)
                return
            if getattr(page, "generation", None) == self._generation:
                self._pages.put_nowait(await pages.new_page(self._browser, self._library, self._generation))
