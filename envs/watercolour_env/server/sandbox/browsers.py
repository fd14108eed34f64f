"""Several browsers behind one render call: each its own Chromium, GPU process and page pool.

Every page of a `Renderer` draws its WebGL through its browser's one GPU process. `Browsers`
splits the render workers over several `Renderer`s (`WATERCOLOUR_RENDER_BROWSERS`) and sends each
render to the one with the fewest renders waiting or running per page. Besides the time (issue 55:
`bench/render_browsers.py` measures a batch on one browser against several, on the same machine),
a GPU process that a sketch stalls is restarted within its own browser while the others' pages
go on rendering.

The renders a `Browsers` is given are judged as a `Renderer` judges them (each browser has the same
flags, guard, deadlines and recovery); only which browser draws a render differs, and with the
same renderer string the pixels do not depend on it.
"""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

from watercolour_env.errors import RenderError
from watercolour_env.server.sandbox.picture import RenderResult
from watercolour_env.server.sandbox.renderer import Renderer

SUMMED = ("workers", "busy", "free", "replacing", "queued", "max_queue")
"""The counts of `Renderer.stats` that add up over browsers; the rest are the first browser's."""


class Browsers:
    """`Renderer`s used as one, through what the server calls: `render`, `start`, `close`, `stats`, `workers`.

    It has none of a `Renderer`'s other attributes (`deadline_s`, `renderer_string`, ...): each
    browser holds its own, and `start` refuses browsers that differ in what decides a picture.

    Args:
        renderers: one or more renderers, not yet started; each keeps its own pages and queue.

    Example:
        >>> with Browsers.split(workers=8, browsers=2) as pool:  # doctest: +SKIP
        ...     pool.render(sketch, seed=7).status
        <RenderStatus.OK: 'ok'>
    """

    def __init__(self, renderers: list[Renderer]) -> None:
        if not renderers:
            raise ValueError("Browsers needs at least one renderer")
        self.renderers = list(renderers)
        self._sent = [0] * len(self.renderers)  # renders given to each and not yet returned
        self._choosing = threading.Lock()

    @classmethod
    def split(
        cls, workers: int, browsers: int, max_queue: int = 64, settings: object = None, **kwargs: object
    ) -> Browsers:
        """`browsers` renderers sharing `workers` pages as evenly as whole numbers go, and `max_queue` by pages.

        Renders go by pages (`render`), so the waiting renders are shared in proportion to the
        pages, largest remainders first: an even split of the queue would leave the browser with
        fewer pages room it is never sent.

        Args:
            workers: pages over all browsers, >= `browsers`.
            browsers: how many browsers, >= 1.
            max_queue: renders allowed to wait over all browsers, >= 0.
            settings: the server's settings, read as `Renderer.from_settings` reads them; None
                builds each `Renderer(workers=..., max_queue=..., **kwargs)`.
            **kwargs: the rest of each `Renderer`'s arguments (`deadline_s`, `chromium_path`, ...).

        Raises:
            ValueError: fewer workers than browsers, or fewer than one of either.
        """
        if browsers < 1 or workers < browsers:
            raise ValueError(f"{workers} render workers cannot be split over {browsers} browsers (a page each)")
        pages = [workers // browsers + (i < workers % browsers) for i in range(browsers)]
        queues = [max_queue * p // workers for p in pages]
        by_remainder = sorted(range(browsers), key=lambda i: (-(max_queue * pages[i] % workers), i))
        for i in by_remainder[: max_queue - sum(queues)]:
            queues[i] += 1
        shares = list(zip(pages, queues, strict=True))
        if settings is not None:
            return cls([Renderer.from_settings(settings, workers=p, max_queue=q, **kwargs) for p, q in shares])
        return cls([Renderer(workers=p, max_queue=q, **kwargs) for p, q in shares])

    @property
    def workers(self) -> int:
        """Pages rendering in parallel, over all browsers."""
        return sum(r.workers for r in self.renderers)

    def __enter__(self) -> Browsers:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def start(self) -> None:
        """Launches every browser, side by side; idempotent.

        Raises:
            RenderError, ConfigError: as `Renderer.start`, or browsers whose WebGL renderer,
                Chromium version or network isolation differ; every browser is closed again.
        """
        with ThreadPoolExecutor(len(self.renderers)) as pool:
            started = [pool.submit(r.start) for r in self.renderers]
        try:
            for future in started:
                future.result()
            alike = {(r.renderer_string, r.browser_version, r.network_isolation) for r in self.renderers}
            if len(alike) > 1:  # one fell back to SwiftShader, or ran without its network namespace
                raise RenderError(
                    "the browsers started differently, so a picture would depend on which drew it: "
                    + "; ".join(sorted(" / ".join(a) for a in alike))
                    + ". Set WATERCOLOUR_RENDER_BROWSERS=1, or find why one browser fell back"
                )
        except Exception:
            self.close()
            raise

    def close(self) -> None:
        """Closes every browser; idempotent."""
        for renderer in self.renderers:
            renderer.close()

    def render(
        self, sketch: str, seed: int = 0, deadline_s: float | None = None, deadline_at: float | None = None
    ) -> RenderResult:
        """Renders one sketch on the least loaded browser; the arguments and result are `Renderer.render`'s."""
        with self._choosing:
            i = min(range(len(self.renderers)), key=lambda k: self._sent[k] / self.renderers[k].workers)
            self._sent[i] += 1
        try:
            return self.renderers[i].render(sketch, seed, deadline_s, deadline_at)
        finally:
            with self._choosing:
                self._sent[i] -= 1

    def stats(self) -> dict:
        """`Renderer.stats` over all browsers: the counts summed, `browsers` their number.

        `started` holds when every browser started, `closed` when any is closed.
        """
        each = [r.stats() for r in self.renderers]
        merged = {**each[0], **{key: sum(s[key] for s in each) for key in SUMMED}}
        merged["started"] = all(s["started"] for s in each)
        merged["closed"] = any(s["closed"] for s in each)
        merged["browsers"] = len(each)
        return merged


def from_settings(settings: object) -> Renderer | Browsers:
    """The server's renderer as its settings say: one browser, or `render_browsers` of them.

    The settings are read by name (the sandbox imports nothing above it): `render_workers` pages
    split over `render_browsers` browsers, the rest as `Renderer.from_settings`.
    """
    browsers = getattr(settings, "render_browsers", 1)
    if browsers == 1:
        return Renderer.from_settings(settings)
    workers, queue = settings.render_workers, settings.render_max_queue  # type: ignore[attr-defined]
    return Browsers.split(workers=workers, browsers=browsers, max_queue=queue, settings=settings)
