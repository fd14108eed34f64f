"""The micro-batcher.

Images of concurrent requests gathered into one batch, one batch prepared on a CPU thread while
the one before it runs on the GPU thread, a failed batch rescored image by image.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from fastapi import HTTPException

log = logging.getLogger("hpsv3_space")


@dataclass
class _Item:
    image: Any  # PIL.Image.Image, RGB
    prompt: str
    future: asyncio.Future


@dataclass
class Counters:
    """What the batcher has done since start-up."""

    requests: int = 0
    images: int = 0
    batches: int = 0
    largest_batch: int = 0

    def as_dict(self) -> dict[str, int]:
        """JSON-ready counters."""
        return dict(self.__dict__)


def _fail(item: _Item, err: Exception) -> None:
    if not item.future.done():
        item.future.set_exception(HTTPException(500, f"scoring failed: {type(err).__name__}: {err}"))


class MicroBatcher:
    """Gathers images from concurrent requests into GPU batches, preparing one while another runs.

    A batch closes when it holds `max_batch` images or `max_wait_ms` has passed since its first
    image arrived. Its preprocessing (resize, normalise, tokenise: `prepare`) runs on a CPU
    thread while the previous batch's forward pass (`forward`) runs on the GPU thread, so the
    GPU sees one batch at a time and the CPU work hides behind it. At most two batches are in
    flight; requests that arrive meanwhile wait in the queue and make the next batch bigger.

    Args:
        prepare: (images, prompts) -> model inputs, on the CPU thread.
        forward: model inputs -> list of (mu, log sigma), on the GPU thread.
        max_batch: images per batch, >= 1.
        max_wait_ms: longest wait for company, >= 0.
        in_flight: batches between gathering and result, >= 1; 1 runs prepare and forward in
            turn, with no overlap.
    """

    def __init__(
        self,
        prepare: Callable[[list[Any], list[str]], Any],
        forward: Callable[[Any], list[tuple[float, float]]],
        max_batch: int,
        max_wait_ms: float,
        in_flight: int = 2,
    ) -> None:
        self.prepare = prepare
        self.forward = forward
        self.max_batch = max_batch
        self.max_wait_s = max_wait_ms / 1000
        self.queue: asyncio.Queue[_Item] = asyncio.Queue()
        self.counters = Counters()
        self._cpu = ThreadPoolExecutor(max_workers=1, thread_name_prefix="hpsv3-prepare")
        self._gpu = ThreadPoolExecutor(max_workers=1, thread_name_prefix="hpsv3-gpu")
        self._in_flight = asyncio.Semaphore(in_flight)
        self._task: asyncio.Task | None = None
        self._batches: set[asyncio.Task] = set()

    def start(self) -> None:
        """Starts the gathering loop on the running event loop."""
        self._task = asyncio.get_running_loop().create_task(self._loop())

    async def stop(self) -> None:
        """Stops gathering; images still queued fail with 503."""
        if self._task is not None:
            self._task.cancel()
        while not self.queue.empty():
            self.queue.get_nowait().future.set_exception(HTTPException(503, "the scorer is shutting down"))
        for executor in (self._cpu, self._gpu):
            executor.shutdown(wait=False, cancel_futures=True)

    async def score(self, images: list[Any], prompt: str) -> list[tuple[float, float]]:
        """Queues `images` and waits for their (mu, log sigma), in order."""
        loop = asyncio.get_running_loop()
        items = [_Item(image, prompt, loop.create_future()) for image in images]
        for item in items:
            self.queue.put_nowait(item)
        self.counters.requests += 1
        return list(await asyncio.gather(*(item.future for item in items)))

    async def _gather(self) -> list[_Item]:
        """The next batch; images whose request went away (future cancelled) are dropped."""
        loop = asyncio.get_running_loop()
        batch = []
        while not batch:
            batch = [item for item in [await self.queue.get()] if not item.future.done()]
        deadline = loop.time() + self.max_wait_s
        while len(batch) < self.max_batch:
            try:
                item = self.queue.get_nowait()
            except asyncio.QueueEmpty:
                remaining = deadline - loop.time()
                if remaining <= 0:
                    break
                try:
                    item = await asyncio.wait_for(self.queue.get(), remaining)
                except TimeoutError:
                    break
            if not item.future.done():
                batch.append(item)
        return batch

    def waiting(self) -> int:
        """Images queued and not yet in a batch."""
        return self.queue.qsize()

    async def _loop(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            await self._in_flight.acquire()
            batch = await self._gather()
            self._note(len(batch))
            prepared = loop.run_in_executor(
                self._cpu, self.prepare, [i.image for i in batch], [i.prompt for i in batch]
            )
            task = loop.create_task(self._finish(batch, prepared))
            self._batches.add(task)
            task.add_done_callback(self._batches.discard)

    async def _finish(self, batch: list[_Item], prepared: asyncio.Future) -> None:
        loop = asyncio.get_running_loop()
        try:
            try:
                results = await loop.run_in_executor(self._gpu, self.forward, await prepared)
            except Exception:  # noqa: BLE001 (one bad item must not fail its neighbours)
                if len(batch) == 1:
                    raise
                log.warning("HPSv3 batch of %d failed; scoring its images one by one", len(batch), exc_info=True)
                for item in batch:
                    await self._one(item)
                return
        except Exception as err:  # noqa: BLE001 (the waiting request hears why)
            log.exception("HPSv3 failed on an image")
            _fail(batch[0], err)
            return
        finally:
            self._in_flight.release()
        for item, result in zip(batch, results, strict=True):
            if not item.future.done():
                item.future.set_result(result)

    async def _one(self, item: _Item) -> None:
        loop = asyncio.get_running_loop()
        try:
            inputs = await loop.run_in_executor(self._cpu, self.prepare, [item.image], [item.prompt])
            (result,) = await loop.run_in_executor(self._gpu, self.forward, inputs)
        except Exception as err:  # noqa: BLE001 (this item alone fails)
            _fail(item, err)
            return
        if not item.future.done():
            item.future.set_result(result)

    def _note(self, size: int) -> None:
        c = self.counters
        c.batches += 1
        c.images += size
        c.largest_batch = max(c.largest_batch, size)
