"""The image encoder at run time: a painting in, 1280 learned features out, with onnxruntime only.

The network is EfficientNet-Lite0 with its ImageNet weights (`export.py` writes it as ONNX; no
torch here). A 600x600 painting is scaled to 224x224 (PIL's bilinear filter, which averages
over the pixels it shrinks), its RGB values to x/127.5 - 1, and the network's last feature map
is averaged over its 7x7 positions. One painting takes about 18 ms on one core of this
machine, 224 px (bench/encoder.py, docs/LOG.md).
"""

from __future__ import annotations

import hashlib
import io
import threading
from collections import OrderedDict
from pathlib import Path

import numpy as np
from PIL import Image

from watercolour_env.errors import ConfigError
from watercolour_env.server import derived
from watercolour_env.server.reward.vision import DEFAULT_OUT, ENCODER_MODULE, FEATURES, INPUT_SIZE

EXPORT_COMMAND = f"python {ENCODER_MODULE}"
BATCH = 8
"""Paintings per run of the network (see `ImageEncoder.features`)."""
CACHED = 1024
"""Paintings whose features an encoder keeps (5 MB): a pool and a gold pool, and the steps in flight."""


def pixels(png: bytes) -> np.ndarray:
    """The encoder's input for one painting: [3, 224, 224] float32 in [-1, 1], RGB.

    A transparent pixel counts as its colour (the renderer's paintings are opaque).
    """
    image = Image.open(io.BytesIO(png)).convert("RGB").resize((INPUT_SIZE, INPUT_SIZE), Image.Resampling.BILINEAR)
    return (np.asarray(image, dtype=np.float32) / 127.5 - 1.0).transpose(2, 0, 1)


class ImageEncoder:
    """EfficientNet-Lite0 features of paintings, one onnxruntime session shared by every caller.

    Args:
        path: the ONNX file `export.py` wrote; the one `make install` writes when None.
        threads: onnxruntime's threads per painting (1: sessions of the server score side by
            side on the other cores).

    Raises:
        ConfigError: the file is missing or not the encoder; the message says how to make it.
    """

    def __init__(self, path: Path | None = None, threads: int = 1) -> None:
        import onnxruntime

        self.path = Path(path or DEFAULT_OUT)
        if not self.path.is_file():
            raise ConfigError(
                f"the image encoder {self.path} is missing: make it with `{EXPORT_COMMAND}` "
                "(make install does), or set WATERCOLOUR_EMBEDDED_ENCODER to the file"
            )
        options = onnxruntime.SessionOptions()
        options.intra_op_num_threads, options.inter_op_num_threads = threads, 1
        options.enable_cpu_mem_arena = False  # memory goes back after each run, not kept at its peak
        try:
            self._session = onnxruntime.InferenceSession(str(self.path), options, providers=["CPUExecutionProvider"])
        except Exception as err:  # noqa: BLE001 (onnxruntime raises its own untyped errors)
            raise ConfigError(
                f"the image encoder {self.path} cannot be loaded ({err}); make it: {EXPORT_COMMAND}"
            ) from err
        self.digest = hashlib.sha256(self.path.read_bytes()).digest()
        """sha256 of the ONNX file: what the features of `pool_features` are kept under, beside the code."""
        self._cache: OrderedDict[bytes, np.ndarray] = OrderedDict()
        self._lock = threading.Lock()
        shapes = [o.shape for o in self._session.get_outputs()]
        if [s[-1] for s in shapes] != [FEATURES]:
            raise ConfigError(f"{self.path} is not the image encoder (outputs {shapes}); make it: {EXPORT_COMMAND}")

    def features(self, pngs: list[bytes]) -> np.ndarray:
        """[len(pngs), 1280] float32 features, each >= 0 (an empty list gives [0, 1280]).

        Paintings go through the network `BATCH` at a time: onnxruntime keeps the largest
        activations it has allocated, and a pool's 165 paintings in one batch held about 1 GB.
        The last `CACHED` paintings' features are kept by their bytes' sha256: the copy guard
        and the scorer of one step, and the pool's fits, encode a painting once.
        """
        out = np.zeros((len(pngs), FEATURES), np.float32)
        keys = [hashlib.sha256(png).digest() for png in pngs]
        with self._lock:
            known = {i: self._cache[k] for i, k in enumerate(keys) if k in self._cache}
        for i, row in known.items():
            out[i] = row
        todo = [i for i in range(len(pngs)) if i not in known]
        for start in range(0, len(todo), BATCH):
            chunk = todo[start : start + BATCH]
            batch = np.stack([pixels(pngs[i]) for i in chunk])
            out[chunk] = self._session.run(["features"], {"pixels": batch})[0]
        with self._lock:
            for i in todo:
                self._cache[keys[i]] = out[i].copy()
            while len(self._cache) > CACHED:
                self._cache.popitem(last=False)
        return out

    def pool_features(self, pngs: list[bytes]) -> np.ndarray:
        """[len(pngs), 1280] as `features`, for a pool's paintings: kept on disk (`derived`) between starts."""
        if not pngs:
            return np.zeros((0, FEATURES), np.float32)
        return np.stack(derived.rows("encoder-features", pngs, self.features, salt=self.digest))

    def feature(self, png: bytes) -> np.ndarray:
        """[1280] float32 features of one painting."""
        return self.features([png])[0]


_SHARED: dict[Path, ImageEncoder] = {}
_SHARED_LOCK = threading.Lock()


def shared_encoder(path: Path | None = None) -> ImageEncoder:
    """One `ImageEncoder` per file for the whole process (the embedded and gold terms, every app).

    Raises:
        ConfigError: as `ImageEncoder`.
    """
    key = Path(path or DEFAULT_OUT).resolve()
    with _SHARED_LOCK:
        if key not in _SHARED:
            _SHARED[key] = ImageEncoder(key)
        return _SHARED[key]
