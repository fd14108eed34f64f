"""What the server computes from the pool's paintings at start, kept on disk: a restart takes seconds.

At start the server fits the embedded scorer and the witness on every painting of the pool and
readies the copy guard: learned features, hand features, presence maps and code shingles of
each. On this machine that took 13 s of the 17 s to serve, and over 30 s under load, past
`openenv validate`'s fixed startup deadline (docs/LOG.md, twenty-first session). Each result is
kept under `WATERCOLOUR_CACHE_DIR` (default `$XDG_CACHE_HOME/watercolour_env`, else
`~/.cache/watercolour_env`; `off` keeps nothing), in a file named by the sha256 of what it was
computed from and of the code that computed it: the package's every `.py` file and, for learned
features, the encoder's bytes. An edit to either makes a new folder; folders unused for
`STALE_DAYS` are removed. A file that cannot be read is computed again; a folder that cannot be
written (the image's read-only root under `openenv validate`) is only read. The environment's
image fills it for the starter pool when it is built (`watercolour warm`).

Only the pool's paintings go here, never a reply's: a painting's file is about 80 KB.
"""

from __future__ import annotations

import functools
import hashlib
import logging
import os
import shutil
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

log = logging.getLogger(__name__)

ENV = "WATERCOLOUR_CACHE_DIR"
OFF = ("", "off", "none", "0", "false")
STALE_DAYS = 7
"""A code version's folder not used for this long is removed when another is written."""
PACKAGE = Path(__file__).resolve().parents[1]


_configured: list[str] = []
TALLY: dict = {"read": 0, "computed": 0, "kept": 0, "unwritable": None}
"""This process's rows read from the cache, computed, kept; why it could not keep them (None: it could)."""


def default_cache_dir() -> str:
    """`$XDG_CACHE_HOME/watercolour_env`, else `~/.cache/watercolour_env`."""
    return str(Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "watercolour_env")


def configure(value: str) -> None:
    """Sets the cache's folder for this process (the server's `WATERCOLOUR_CACHE_DIR`; "off": none)."""
    _configured[:] = [value]


def cache_root() -> Path | None:
    """The cache's folder: as configured, else `WATERCOLOUR_CACHE_DIR`, else the default; None when off."""
    value = _configured[0] if _configured else os.environ.get(ENV, default_cache_dir())
    return None if value.strip().lower() in OFF else Path(value).expanduser()


@functools.cache
def code_digest() -> str:
    """sha256 (hex, 16 characters) of the package's `.py` files, by path and content."""
    digest = hashlib.sha256()
    for path in sorted(PACKAGE.rglob("*.py")):
        if "node_modules" in path.parts:
            continue
        digest.update(str(path.relative_to(PACKAGE)).encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


def rows(
    kind: str,
    inputs: Sequence[bytes],
    compute: Callable[[list[bytes]], np.ndarray | Sequence[np.ndarray]],
    salt: bytes = b"",
) -> list[np.ndarray]:
    """`compute`'s row for each input, read from the cache where kept, the rest computed and kept.

    Args:
        kind: what is computed, a folder name ("hand-features"); one kind, one function.
        inputs: the bytes each row is computed from (a PNG, a sketch's UTF-8).
        compute: the rows of a list of inputs, in order (called once, with the inputs not kept).
        salt: bytes beside the code that the result depends on (the encoder's digest).

    Returns:
        One array per input, as `compute` returned it (kept with `np.save`, no pickle).
    """
    folder = _folder(kind)
    names = [hashlib.sha256(salt + b"\0" + data).hexdigest() + ".npy" for data in inputs]
    out: list[np.ndarray | None] = [_read(folder / name) if folder else None for name in names]
    todo = [i for i, row in enumerate(out) if row is None]
    TALLY["read"] += len(inputs) - len(todo)
    TALLY["computed"] += len(todo)
    if todo:
        fresh = compute([inputs[i] for i in todo])
        kept = 0
        for i, row in zip(todo, fresh, strict=True):
            out[i] = np.asarray(row)
            kept += folder is not None and _write(folder / names[i], out[i])
        TALLY["kept"] += kept
        where = f"kept in {folder}" if kept == len(todo) else "not kept"
        log.info("%s: %d of %d computed, %s", kind, len(todo), len(inputs), where)
    return [row for row in out if row is not None]


def _folder(kind: str) -> Path | None:
    root = cache_root()
    return None if root is None else root / code_digest() / kind


def _read(path: Path) -> np.ndarray | None:
    try:
        return np.load(path, allow_pickle=False)
    except FileNotFoundError:
        return None
    except (OSError, ValueError, EOFError) as err:  # truncated or not an array: computed again
        log.debug("unreadable cache file %s (%s)", path, err)
        return None


def _write(path: Path, row: np.ndarray) -> bool:
    """Keeps one row; False (said once, at INFO) when the folder cannot be written."""
    try:
        if not path.parent.is_dir():
            path.parent.mkdir(parents=True, exist_ok=True)
            _prune(path.parents[1])
        with tempfile.NamedTemporaryFile(dir=path.parent, suffix=".tmp", delete=False) as handle:
            np.save(handle, row, allow_pickle=False)
        os.chmod(handle.name, 0o644)  # as a file written the usual way: another user may read it
        os.replace(handle.name, path)  # whole or absent: a reader never sees half a file
        return True
    except OSError as err:
        TALLY["unwritable"] = f"{path.parents[2]} cannot be written here ({err.strerror or err})"
        _unwritable(TALLY["unwritable"])
        return False


@functools.cache
def _unwritable(said: str) -> None:
    log.info(
        "the cache %s: what is missing from it is computed at each start; set WATERCOLOUR_CACHE_DIR to a folder "
        "this user can write (or off)",
        said,
    )


def _prune(current: Path) -> None:
    """Removes the code versions beside `current` unused for `STALE_DAYS`."""
    cutoff = time.time() - STALE_DAYS * 86400
    for other in current.parent.iterdir():
        if other != current and other.is_dir() and other.stat().st_mtime < cutoff:
            shutil.rmtree(other, ignore_errors=True)
