"""On the GPU machine: joins the kit's parts, checks them, installs the wheels, unpacks Chromium.

    python3 bench/gpu_kit_up.py [--parts /tmp/kit]      # then: . /tmp/kit/env.sh

Runs with the image's own Python (3.12) and the standard library alone, from the root of the
working tree the call brought. `bench/gpu_kit.py` made the parts here; each call before this one
copied one of them (and `manifest.json`) into `--parts` (docs/gpu-run.md). It:

1. checks that every part is there with the manifest's sha256, naming those that are not;
2. joins them into the tar and extracts it, checking the tar's sha256;
3. installs the wheels with `pip install --no-deps --no-index --target <parts>/site`;
4. unpacks Chromium's Brotli files into `<parts>/chromium`, and Mesa's llvmpipe into
   `<parts>/chromium/mesa`, and writes `chromium.sh`, which points `LD_LIBRARY_PATH` and glvnd at
   them and starts Chromium (the server filters Chromium's environment, so the variables go in
   the wrapper, not in the server's environment); where Mesa does not load, the renderer falls
   back to SwiftShader and logs it;
5. links the checkout's two packages into `site`, puts p5 and p5.brush where the renderer reads
   them, writes a `watercolour` command and `env.sh` (PYTHONPATH, PATH, the server's Chromium
   settings);
6. writes the embedded scorer's image encoder (`vision.export`, from the kit's wheel of its
   weights; an ignored file, so the working tree does not carry it);
7. checks that Chromium starts and that the server and the trainer import.

A second run on a machine that has it all already does only steps 5 to 7 (a marker holds the tar's
sha256). Exit 0 when ready, 2 when a part is missing or damaged, 1 when a check fails.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
import tarfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
JS_DIR = REPO / "envs" / "watercolour_env" / "server" / "sandbox" / "js" / "node_modules"
CHECK = (
    "import trl, datasets, playwright, openenv, watercolour_env.server.app, watercolour_trainer.training.train; "
    "print('imports ok: trl', trl.__version__, 'datasets', datasets.__version__)"
)


def sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as stream:
        while block := stream.read(2**20):
            digest.update(block)
    return digest.hexdigest()


def check_parts(parts: Path, manifest: dict) -> list[str]:
    """What is wrong with the parts: one line per missing or damaged part."""
    wrong = []
    for part in manifest["parts"]:
        path = parts / part["name"]
        if not path.exists():
            wrong.append(f"{part['name']}: missing (copy it into {parts} first)")
        elif path.stat().st_size != part["bytes"] or sha256(path) != part["sha256"]:
            wrong.append(f"{part['name']}: damaged (its sha256 is not the manifest's)")
    return wrong


def join(parts: Path, manifest: dict) -> Path:
    """Joins the parts into `parts/kit.tar`, checks its sha256 and extracts it into `parts`."""
    tar = parts / "kit.tar"
    with tar.open("wb") as whole:
        for part in manifest["parts"]:
            whole.write((parts / part["name"]).read_bytes())
    if sha256(tar) != manifest["tar_sha256"]:
        raise SystemExit("the joined tar's sha256 is not the manifest's: pack the kit again")
    with tarfile.open(tar) as archive:
        archive.extractall(parts, filter="data")
    tar.unlink()
    for part in manifest["parts"]:
        (parts / part["name"]).unlink()  # /tmp holds each byte once
    return parts / "kit"


def unbrotli(site: Path, source: Path, target: Path) -> None:
    """Decompresses a Brotli file with the kit's `brotli` wheel, in a child process that has `site`."""
    code = "import brotli, sys; open(sys.argv[2], 'wb').write(brotli.decompress(open(sys.argv[1], 'rb').read()))"
    subprocess.run(
        [sys.executable, "-c", code, str(source), str(target)], env={**os.environ, "PYTHONPATH": str(site)}, check=True
    )


def unpack_chromium(kit: Path, site: Path, folder: Path) -> Path:
    """Decompresses Chromium and its libraries into `folder`; returns the wrapper script."""
    folder.mkdir(exist_ok=True)
    binary = folder / "chromium"
    unbrotli(site, kit / "chromium" / "chromium.br", binary)
    binary.chmod(0o755)
    for name in ("al2023.tar.br", "swiftshader.tar.br"):
        tar = folder / name.removesuffix(".br")
        unbrotli(site, kit / "chromium" / name, tar)
        with tarfile.open(tar) as archive:
            archive.extractall(folder, filter="data")
        tar.unlink()
    mesa = folder / "mesa"
    mesa.mkdir(exist_ok=True)
    with tarfile.open(kit / "mesa" / "mesa.tar.xz") as archive:
        archive.extractall(mesa, filter="data")
    wrapper = folder / "chromium.sh"
    wrapper.write_text(chromium_wrapper(binary, folder, mesa))
    wrapper.chmod(0o755)
    return wrapper


def chromium_wrapper(binary: Path, folder: Path, mesa: Path) -> str:
    """The shell script that starts `binary` with its own libraries and the kit's Mesa.

    glvnd reads the vendor file named by `__EGL_VENDOR_LIBRARY_FILENAMES` (written beside the
    libraries, with an absolute path), and Mesa its DRI driver from `LIBGL_DRIVERS_PATH`; the
    image's own folders are never searched for them.
    """
    vendor = mesa / "50_mesa.json"
    library = mesa / "libEGL_mesa.so.0"
    vendor.write_text(json.dumps({"file_format_version": "1.0.0", "ICD": {"library_path": str(library)}}))
    return (
        "#!/bin/sh\n"
        f'export LD_LIBRARY_PATH="{folder}/lib:{folder}:{mesa}"\n'
        f'export __EGL_VENDOR_LIBRARY_FILENAMES="{vendor}"\n'
        f'export LIBGL_DRIVERS_PATH="{mesa}/dri"\n'
        f'exec "{binary}" "$@"\n'
    )


def link_project(kit: Path, site: Path, parts: Path, wrapper: Path) -> Path:
    """The checkout's packages on `site`, p5 where the renderer reads it, `watercolour`, `env.sh`."""
    packages = {"watercolour_env": REPO / "envs" / "watercolour_env", "watercolour_trainer": REPO / "trainer"}
    for name, folder in packages.items():
        link = site / name
        if link.is_symlink() or link.exists():
            link.unlink()
        link.symlink_to(folder)
    for file in (kit / "js").rglob("*"):
        if file.is_file():
            target = JS_DIR / file.relative_to(kit / "js")
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(file.read_bytes())
    command = site / "bin" / "watercolour"
    command.parent.mkdir(exist_ok=True)
    command.write_text(f"#!{sys.executable}\nfrom watercolour_trainer.cli import main\nmain()\n")
    command.chmod(0o755)
    env = parts / "env.sh"
    env.write_text(
        f'export PYTHONPATH="{site}"\nexport PATH="{site}/bin:$PATH"\n'
        f'export WATERCOLOUR_CHROMIUM_PATH="{wrapper}"\nexport WATERCOLOUR_RENDER_NETWORK_NAMESPACE=off\n'
    )
    return env


def main() -> None:
    """Makes the machine ready (see the module docstring)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--parts", type=Path, default=Path("/tmp/kit"))
    args = parser.parse_args()
    parts = args.parts.resolve()
    manifest = json.loads((parts / "manifest.json").read_text())
    site, marker = parts / "site", parts / "ready"
    if not (marker.exists() and marker.read_text() == manifest["tar_sha256"]):
        wrong = check_parts(parts, manifest)
        if wrong:
            print("\n".join(wrong), file=sys.stderr)
            sys.exit(2)
        kit = join(parts, manifest)
        subprocess.run(
            [
                sys.executable,
                "-m",
                "pip",
                "install",
                "-q",
                "--no-deps",
                "--no-index",
                "--target",
                str(site),
                *map(str, sorted((kit / "wheels").glob("*.whl"))),
            ],
            check=True,
        )
        unpack_chromium(kit, site, parts / "chromium")
        marker.write_text(manifest["tar_sha256"])
    wrapper = parts / "chromium" / "chromium.sh"
    env = link_project(parts / "kit", site, parts, wrapper)
    encoder = subprocess.run(  # the embedded scorer's ONNX file, from the wheel's weights (ignored by git)
        [sys.executable, "-m", "watercolour_env.server.reward.vision.export"],
        env={**os.environ, "PYTHONPATH": str(site)},
        capture_output=True,
        text=True,
    )
    print(f"encoder: {(encoder.stdout or encoder.stderr).strip()[-300:]}")
    version = subprocess.run([str(wrapper), "--version"], capture_output=True, text=True)
    print(f"chromium: {(version.stdout or version.stderr).strip()[:120]}")
    imports = subprocess.run(
        [sys.executable, "-c", CHECK], env={**os.environ, "PYTHONPATH": str(site)}, capture_output=True, text=True
    )
    print(imports.stdout.strip() or imports.stderr.strip()[-2000:])
    if version.returncode or imports.returncode or encoder.returncode:
        sys.exit(1)
    print(f"ready: . {env}")


if __name__ == "__main__":
    main()
