"""The micro-batcher alone: batches form, and one bad image fails only its own request."""

from __future__ import annotations

import asyncio

import pytest
from fastapi import HTTPException

from hpsv3_space.app import MicroBatcher


def run(coro):  # noqa: ANN001, ANN201
    return asyncio.run(coro)


def batcher(batches: list[list[str]], max_batch: int = 8) -> MicroBatcher:
    def prepare(images: list[str], prompts: list[str]) -> list[str]:
        return images

    def forward(images: list[str]) -> list[tuple[float, float]]:
        batches.append(list(images))
        if "poison" in images:
            raise ValueError("this image breaks the model")
        return [(float(len(i)), 0.0) for i in images]

    return MicroBatcher(prepare, forward, max_batch=max_batch, max_wait_ms=50)


def test_one_bad_image_fails_only_its_own_request() -> None:
    async def main() -> list:
        seen: list[list[str]] = []
        b = batcher(seen)
        b.start()
        calls = [b.score(["a"], "p"), b.score(["poison"], "p"), b.score(["ccc", "dd"], "p")]
        results = await asyncio.gather(*calls, return_exceptions=True)
        await b.stop()
        return results, seen

    (first, bad, third), seen = run(main())
    assert first == [(1.0, 0.0)] and third == [(3.0, 0.0), (2.0, 0.0)]
    assert isinstance(bad, HTTPException) and bad.status_code == 500 and "breaks the model" in bad.detail
    assert seen[0] == ["a", "poison", "ccc", "dd"]  # one batch, then one by one
    assert seen[1:] == [["a"], ["poison"], ["ccc"], ["dd"]]


def test_requests_that_went_away_are_not_scored() -> None:
    async def main() -> list[list[str]]:
        seen: list[list[str]] = []
        b = batcher(seen)
        gone = asyncio.ensure_future(b.score(["gone"], "p"))
        await asyncio.sleep(0)
        gone.cancel()
        await asyncio.sleep(0)
        b.start()
        assert await b.score(["kept"], "p") == [(4.0, 0.0)]
        await b.stop()
        return seen

    assert run(main()) == [["kept"]]


@pytest.mark.parametrize("max_batch", [1, 3])
def test_batches_never_exceed_the_cap(max_batch: int) -> None:
    async def main() -> list[list[str]]:
        seen: list[list[str]] = []
        b = batcher(seen, max_batch)
        b.start()
        await asyncio.gather(*(b.score([str(i)], "p") for i in range(7)))
        await b.stop()
        return seen

    seen = run(main())
    assert sum(len(x) for x in seen) == 7 and max(len(x) for x in seen) <= max_batch
