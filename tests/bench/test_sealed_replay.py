"""bench/sealed_replay.py runs: three pool paintings come out of the sealed render byte for byte."""

import pytest

from tests.conftest import bench_module

sealed = bench_module("sealed_replay")


@pytest.mark.browser
def test_three_pool_paintings_are_the_same_bytes_sealed():
    chosen = [(name, sketch) for name, sketch in sealed.sketches() if name in ("bloom-01", "jelly-09", "bird-03")]
    assert len(chosen) == 3
    differ, plain_s, sealed_s = sealed.compare(chosen, seed=0, workers=1)
    assert differ == []
    assert len(plain_s) == len(sealed_s) == 3
