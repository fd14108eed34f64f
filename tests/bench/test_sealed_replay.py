"""Decision 0007's premise: a painting recorded as plain values and replayed is the same picture."""

import pytest

from tests.conftest import bench_module

sealed = bench_module("sealed_replay")


@pytest.mark.browser
def test_three_pool_paintings_replayed_from_their_plain_calls_are_the_same_bytes():
    chosen = [(name, sketch) for name, sketch in sealed.sketches() if name in ("bloom-01", "jelly-09", "bird-03")]
    assert len(chosen) == 3
    differ, lengths, _ = sealed.compare(chosen, seed=0)
    assert differ == []
    assert min(lengths) > 10  # each recorded its canvas, its transforms and its brush calls
