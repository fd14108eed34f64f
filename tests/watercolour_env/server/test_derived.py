"""The start-up cache: computed once, read back, never trusted when broken, never fatal."""

import json
import subprocess
import sys

import numpy as np
import pytest

from watercolour_env.server import derived


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setattr(derived, "_configured", [str(tmp_path / "cache")])
    return tmp_path / "cache"


class Counting:
    """A row of (length, first byte) per input, counting the inputs it was asked for."""

    def __init__(self) -> None:
        self.asked: list[bytes] = []

    def __call__(self, inputs: list[bytes]) -> list[np.ndarray]:
        self.asked += inputs
        return [np.array([len(data), data[0]], dtype=np.float64) for data in inputs]


def test_a_row_is_computed_once_and_read_back_the_same(cache):
    compute = Counting()
    first = derived.rows("kind", [b"abc", b"z"], compute)
    again = derived.rows("kind", [b"z", b"abc", b"new!"], compute)
    assert [r.tolist() for r in first] == [[3, 97], [1, 122]]
    assert [r.tolist() for r in again] == [[1, 122], [3, 97], [4, 110]]
    assert compute.asked == [b"abc", b"z", b"new!"]
    assert len(list(cache.rglob("*.npy"))) == 3


def test_kinds_and_salts_are_kept_apart(cache):
    compute = Counting()
    derived.rows("one", [b"abc"], compute)
    derived.rows("two", [b"abc"], compute)
    derived.rows("one", [b"abc"], compute, salt=b"other encoder")
    assert compute.asked == [b"abc"] * 3


def test_a_broken_file_is_computed_again_and_replaced(cache):
    compute = Counting()
    derived.rows("kind", [b"abc"], compute)
    (kept,) = cache.rglob("*.npy")
    kept.write_bytes(b"\x93NUMPY truncated")
    assert derived.rows("kind", [b"abc"], compute)[0].tolist() == [3, 97]
    assert derived.rows("kind", [b"abc"], compute)[0].tolist() == [3, 97]
    assert compute.asked == [b"abc", b"abc"]


def test_a_pickled_object_in_the_cache_is_not_loaded(cache):
    compute = Counting()
    derived.rows("kind", [b"abc"], compute)
    (kept,) = cache.rglob("*.npy")
    np.save(kept, np.array([{"run": "me"}], dtype=object), allow_pickle=True)
    assert derived.rows("kind", [b"abc"], compute)[0].tolist() == [3, 97]
    assert compute.asked == [b"abc", b"abc"]


def test_a_folder_that_cannot_be_written_is_only_read(tmp_path, monkeypatch, caplog):
    (tmp_path / "a-file").write_text("not a folder")
    monkeypatch.setattr(derived, "_configured", [str(tmp_path / "a-file" / "cache")])
    compute = Counting()
    with caplog.at_level("INFO"):
        assert derived.rows("kind", [b"abc"], compute)[0].tolist() == [3, 97]
        assert derived.rows("kind", [b"abc"], compute)[0].tolist() == [3, 97]
    assert compute.asked == [b"abc", b"abc"]
    assert "cannot be written here" in caplog.text and "set WATERCOLOUR_CACHE_DIR" in caplog.text


@pytest.mark.parametrize("value", ["off", "OFF", ""])
def test_off_keeps_nothing(tmp_path, monkeypatch, value):
    monkeypatch.setattr(derived, "_configured", [value])
    monkeypatch.chdir(tmp_path)
    compute = Counting()
    derived.rows("kind", [b"abc"], compute)
    derived.rows("kind", [b"abc"], compute)
    assert compute.asked == [b"abc", b"abc"]
    assert list(tmp_path.iterdir()) == []


def test_a_code_version_unused_for_a_week_is_removed_when_another_is_written(cache):
    import os
    import time

    old, recent = cache / "0123456789abcdef", cache / "fedcba9876543210"
    for folder in (old, recent):
        (folder / "kind").mkdir(parents=True)
    week_and_a_day = time.time() - 8 * 86400
    os.utime(old, (week_and_a_day, week_and_a_day))
    derived.rows("kind", [b"abc"], Counting())
    assert not old.exists() and recent.exists()
    assert (cache / derived.code_digest() / "kind").is_dir()


def test_the_default_folder_is_the_users_cache(monkeypatch, tmp_path):
    monkeypatch.setattr(derived, "_configured", [])
    monkeypatch.delenv("WATERCOLOUR_CACHE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert derived.cache_root() == tmp_path / "watercolour_env"
    monkeypatch.setenv("WATERCOLOUR_CACHE_DIR", "off")
    assert derived.cache_root() is None


@pytest.mark.cli
def test_a_sketchs_shingles_are_the_same_in_every_process():
    probe = (
        "from watercolour_env.server.copies import shingles; "
        "print(sorted(shingles('function draw() { brush.circle(1, 2, 3); brush.fill(\"#fff\", 80); }'))[:4])"
    )
    seen = {
        subprocess.run(
            [sys.executable, "-c", probe],
            env={"PYTHONHASHSEED": seed, "PATH": "/usr/bin:/bin"},
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        for seed in ("1", "2", "3")
    }
    assert len(seen) == 1 and len(json.loads(seen.pop())) == 4


def test_a_second_start_on_the_same_pool_computes_nothing_and_scores_the_same(tmp_path, monkeypatch):
    from watercolour_env.server.app import build_scoring
    from watercolour_env.server.settings import load_settings

    settings = load_settings({"WATERCOLOUR_CACHE_DIR": str(tmp_path)})
    monkeypatch.setattr(derived, "_configured", [])
    cold = build_scoring(settings)
    kept = {kind.name: len(list(kind.iterdir())) for kind in (tmp_path / derived.code_digest()).iterdir()}
    # the starter pool's 165 paintings and its oracle; the witness fits on the 165 only
    assert kept == {
        "encoder-features": 166,
        "hand-features": 165,
        "shingles": 166,
        "presence": 166,
        "placed": 166,
        "common-shingles": 1,
    }

    def no_writes(*args):  # noqa: ANN002, ANN202
        raise AssertionError(f"computed again: {args[0]}")

    monkeypatch.setattr(derived, "_write", no_writes)
    warm = build_scoring(settings)
    for name in ("embedded", "witness"):
        assert warm.rubric.terms[name].scorer.holdout_accuracy == cold.rubric.terms[name].scorer.holdout_accuracy
    for array in ("_pictures", "_placed", "_features"):
        assert np.array_equal(getattr(warm.guard, array), getattr(cold.guard, array)), array
    assert warm.guard._sources == cold.guard._sources
    for scoring in (cold, warm):
        scoring.rubric.close()


def test_the_server_runs_numpy_on_one_blas_thread():
    from threadpoolctl import threadpool_info

    from watercolour_env.server.app import build_app
    from watercolour_env.server.settings import load_settings

    build_app(load_settings(), renderer=object())
    assert {pool["num_threads"] for pool in threadpool_info() if pool["user_api"] == "blas"} == {1}
