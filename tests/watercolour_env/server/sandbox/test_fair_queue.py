"""The renderer's page hand-off: first come, first served, and nothing lost to a cancelled wait."""

import asyncio

from watercolour_env.server.sandbox.fair_queue import FairQueue


def test_a_returned_page_goes_to_the_longest_waiter_not_to_a_newcomer():
    async def scenario() -> list[str]:
        queue: FairQueue[str] = FairQueue()
        order: list[str] = []

        async def render(name: str) -> None:
            order.append(f"{name} got {await queue.get()}")

        first = asyncio.ensure_future(render("first"))
        await asyncio.sleep(0)  # first is waiting
        newcomer = asyncio.ensure_future(render("newcomer"))  # scheduled, not yet run...
        queue.put_nowait("page")  # ...so it runs before the woken first does
        await asyncio.sleep(0)
        queue.put_nowait("page 2")
        await asyncio.gather(first, newcomer)
        return order

    # asyncio.Queue gives "newcomer got page" first here: the woken waiter loses its place
    assert asyncio.run(scenario()) == ["first got page", "newcomer got page 2"]


def test_a_page_handed_to_a_wait_that_was_then_cancelled_passes_to_the_next():
    async def scenario() -> tuple[str, bool]:
        queue: FairQueue[str] = FairQueue()
        doomed = asyncio.ensure_future(queue.get())
        patient = asyncio.ensure_future(queue.get())
        await asyncio.sleep(0)
        queue.put_nowait("page")  # handed to doomed...
        doomed.cancel()  # ...which is cancelled before it runs
        got = await asyncio.wait_for(patient, timeout=1)
        return got, queue.empty()

    assert asyncio.run(scenario()) == ("page", True)


def test_a_timed_out_wait_leaves_the_line_and_later_pages_wait_on_the_shelf():
    async def scenario() -> tuple[bool, str]:
        queue: FairQueue[str] = FairQueue()
        try:
            async with asyncio.timeout(0.01):
                await queue.get()
        except TimeoutError:
            pass
        queue.put_nowait("page")
        return queue.empty(), queue.get_nowait()

    assert asyncio.run(scenario()) == (False, "page")
