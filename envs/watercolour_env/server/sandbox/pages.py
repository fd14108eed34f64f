"""The renderer's pages.

How one is made and vetted, what is wiped after each render, and the probe that tells a stalled
GPU process from a sketch that hung its own page: functions of a Playwright browser and page,
so the renderer (renderer.py) keeps only the pool, the deadlines and the retries.
"""

from __future__ import annotations

import asyncio
import logging

from watercolour_env.server.sandbox.chromium import GPU_PROBE_JS, GPU_PROBE_S, WIPED_STORAGE
from watercolour_env.server.sandbox.library_server import LibraryServer
from watercolour_env.server.sandbox.picture import CANVAS_PX

log = logging.getLogger(__name__)


def count_nested(page, frame) -> None:  # noqa: ANN001
    """Counts a frame attached below the sketch's frame (the host page's frame is the sketch's)."""
    parent = frame.parent_frame
    if parent is not None and parent != page.main_frame:
        page.nested_frames += 1


async def new_page(browser, library: LibraryServer, generation: int):  # noqa: ANN001, ANN201
    """A worker page on the host page, its navigations vetted, tagged with the browser's generation."""
    context = await browser.new_context(viewport={"width": CANVAS_PX, "height": CANVAS_PX})
    page = await context.new_page()
    page.on("dialog", lambda dialog: asyncio.ensure_future(dialog.dismiss()))
    # A frame inside the sketch's frame is a fresh JavaScript realm, whose pristine WebGL
    # methods would paint past the guard: counted here, where the sketch cannot reach.
    page.nested_frames = 0
    page.on("frameattached", lambda frame: count_nested(page, frame))
    await vet_navigations(context, page, library)
    await page.goto(f"{library.host_origin}/host.html")
    await page.cdp.send("Page.resetNavigationHistory")  # every render starts with one entry
    page.generation = generation
    return page


async def vet_navigations(context, page, library: LibraryServer) -> None:  # noqa: ANN001
    """Lets the page and its frames load only the library server's host and frame pages.

    Every document request is paused (CDP Fetch); any other navigation, such as a sketch
    sending its frame to another loopback port, fails before a request is made.

    Only documents are paused (one round trip per render, ~1 ms), so the libraries still come
    from the HTTP cache; Playwright's own routing would disable that cache.
    """
    allowed = (f"{library.host_origin}/host.html", f"{library.origin}/frame/")
    cdp = await context.new_cdp_session(page)
    page.cdp = cdp

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


async def wipe_storage(page, origin: str) -> None:  # noqa: ANN001
    """Clears everything the frame's origin may have stored, before the page renders again.

    The harness takes the storage APIs away from the sketch's frame, but a frame of the
    sketch's own (about:blank, same origin) has working ones, and the origin private file
    system lives outside them: without this, a sketch could count the renders before it.
    The tab's session history is reset too (`history.length` outlives frames). The HTTP
    cache is left alone (the libraries' exact URLs only; see the library server).
    """
    try:
        await page.cdp.send("Storage.clearDataForOrigin", {"origin": origin, "storageTypes": WIPED_STORAGE})
        # the tab's session history (a child frame's pushState counts renders otherwise)
        await page.cdp.send("Page.resetNavigationHistory")
    except Exception:  # noqa: BLE001 (a page that died is replaced, its storage with it)
        log.debug("renderer: could not wipe the frame origin's storage", exc_info=True)


async def gpu_stalled(browser) -> bool:  # noqa: ANN001
    """Whether the GPU process every page shares is stalled (or WebGL is gone).

    A fresh page asks it for one WebGL pixel; no answer within GPU_PROBE_S, or a wrong one,
    means stalled. A sketch that merely hung its own page leaves the probe answering.
    """
    try:
        context = await browser.new_context()
        try:
            probe = await context.new_page()
            answer = await asyncio.wait_for(probe.evaluate(GPU_PROBE_JS), timeout=GPU_PROBE_S)
        finally:
            asyncio.ensure_future(context.close())  # a stalled one may never close
        if answer == "ok":
            return False
        log.warning("renderer: the GPU probe answered %r; relaunching the browser", answer)
    except Exception as err:  # noqa: BLE001 (a probe that does not answer is the finding)
        log.warning(
            "renderer: the GPU process did not answer in %g s (%s); relaunching the browser",
            GPU_PROBE_S,
            type(err).__name__,
        )
    return True


async def close_quietly(browser) -> None:  # noqa: ANN001
    """Closes a browser that may be stalled, giving up after 10 s (Playwright kills it then)."""
    try:
        await asyncio.wait_for(browser.close(), timeout=10)
    except Exception:  # noqa: BLE001 (Playwright kills what does not close)
        log.debug("renderer: an old browser did not close cleanly", exc_info=True)
