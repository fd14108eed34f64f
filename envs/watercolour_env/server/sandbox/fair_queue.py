"""A first-come, first-served hand-off of worker pages to the renders waiting for them.

`asyncio.Queue` is not fair under load: `put_nowait` wakes the longest waiter, but a render that
calls `get` before that waiter runs takes the page, and the waiter goes back to the end of the
line. With 64 sessions on 2 workers that starved a few renders for 115 s while the median waited
26 s (docs/LOG.md, issue 15). Here a returned page goes straight to the longest waiter.
"""

from __future__ import annotations

import asyncio
from collections import deque
from typing import Generic, TypeVar

T = TypeVar("T")


class FairQueue(Generic[T]):
    """Items handed to waiters in the order they started waiting; one event loop only.

    The subset of `asyncio.Queue` the renderer uses: `get`, `put_nowait`, `get_nowait`, `empty`,
    and `len` for the items free now.
    """

    def __init__(self) -> None:
        self._items: deque[T] = deque()
        self._waiters: deque[asyncio.Future[T]] = deque()

    def __len__(self) -> int:
        """Items free now."""
        return len(self._items)

    def empty(self) -> bool:
        """Whether no item is free now."""
        return not self._items

    def get_nowait(self) -> T:
        """A free item. Raises: asyncio.QueueEmpty when there is none."""
        if not self._items:
            raise asyncio.QueueEmpty
        return self._items.popleft()

    def put_nowait(self, item: T) -> None:
        """Gives `item` to the longest waiter still waiting, else keeps it free."""
        while self._waiters:
            waiter = self._waiters.popleft()
            if not waiter.done():
                waiter.set_result(item)
                return
        self._items.append(item)

    async def get(self) -> T:
        """The next item, after every earlier waiter has had one; cancellable without losing it."""
        if self._items and not self._waiters:
            return self._items.popleft()
        waiter: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        self._waiters.append(waiter)
        try:
            return await waiter
        except asyncio.CancelledError:
            if waiter.done() and not waiter.cancelled():
                self.put_nowait(waiter.result())  # handed over as the wait was cancelled: pass it on
            raise
