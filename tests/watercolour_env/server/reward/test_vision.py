"""The image encoder: EfficientNet-Lite0 read without torch, written as ONNX, run by onnxruntime."""

import pickle
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from tests.conftest import png_of
from watercolour_env.errors import ConfigError
from watercolour_env.pool import STARTER_POOL
from watercolour_env.server.reward.vision import export
from watercolour_env.server.reward.vision.encoder import ImageEncoder, pixels
from watercolour_env.server.reward.vision.pth import MAGIC_NUMBER, PROTOCOL_VERSION, read_state_dict

BLOOM = (STARTER_POOL / "images" / "bloom-03.png").read_bytes()


@pytest.mark.parametrize(
    ("size", "kernel", "stride", "pads"),
    [
        (224, 3, 2, [0, 0, 1, 1]),  # (112 - 1) * 2 + 3 - 224 = 1: the extra pixel bottom and right
        (56, 5, 2, [1, 1, 2, 2]),  # (28 - 1) * 2 + 5 - 56 = 3
        (112, 3, 1, [1, 1, 1, 1]),  # stride 1 keeps the size: k - 1 = 2 in all
        (7, 5, 1, [2, 2, 2, 2]),
    ],
)
def test_same_padding_is_tensorflows(size, kernel, stride, pads):
    assert export.same_padding(size, kernel, stride) == pads


def test_the_checkpoint_reads_without_torch_into_the_networks_shapes():
    state = read_state_dict(export.weights_path())
    assert len(state) == 296  # 16 blocks; the stem, head and classifier; every batch norm's 5 tensors
    assert state["_conv_stem.weight"].shape == (32, 3, 3, 3)
    assert state["_blocks.15._project_conv.weight"].shape == (320, 1152, 1, 1)  # 192 * 6 in
    assert state["_conv_head.weight"].shape == (1280, 320, 1, 1)
    assert state["_bn0.num_batches_tracked"].shape == ()
    assert all(t.dtype in (np.float32, np.int64) for t in state.values())


def _checkpoint(tmp_path, payload: bytes):
    path = tmp_path / "evil.pth"
    header = b"".join(pickle.dumps(x, protocol=2) for x in (MAGIC_NUMBER, PROTOCOL_VERSION, {"little_endian": True}))
    path.write_bytes(header + payload)
    return path


SHELL = b"\x80\x02cos\nsystem\nX\x1c\x00\x00\x00touch /tmp/watercolour-pwned\x85R."
"""A pickle that calls os.system("touch /tmp/watercolour-pwned") when loaded, written by hand."""


def test_a_checkpoint_that_calls_anything_but_a_tensor_is_refused_unrun(tmp_path):
    with pytest.raises(ValueError, match="names os.system"):
        read_state_dict(_checkpoint(tmp_path, SHELL))
    assert not Path("/tmp/watercolour-pwned").exists()
    plain = tmp_path / "plain.pth"
    plain.write_bytes(pickle.dumps({"a": 1}, protocol=2))
    with pytest.raises(ValueError, match="not a PyTorch checkpoint of the legacy format"):
        read_state_dict(plain)


def test_the_export_writes_the_same_bytes_twice(tmp_path):
    first, second = export.export(tmp_path / "a.onnx"), export.export(tmp_path / "b.onnx")
    assert first.read_bytes() == second.read_bytes()
    assert not list(tmp_path.glob("*.partial"))


def test_pixels_are_rgb_at_224_scaled_to_plus_minus_one():
    x = pixels(png_of("blank"))  # paper (250, 246, 238) everywhere
    assert x.shape == (3, 224, 224) and x.dtype == np.float32
    assert x[:, 0, 0] == pytest.approx([250 / 127.5 - 1, 246 / 127.5 - 1, 238 / 127.5 - 1])


def test_the_encoder_gives_1280_features_per_painting_and_none_for_none():
    encoder = ImageEncoder()
    features = encoder.features([BLOOM, png_of("blank")])
    assert features.shape == (2, 1280) and features.dtype == np.float32
    assert np.all(features >= 0)  # after ReLU6 and a mean
    assert not np.allclose(features[0], features[1])
    assert encoder.feature(BLOOM) == pytest.approx(features[0], abs=1e-5)
    assert encoder.features([]).shape == (0, 1280)


def test_a_missing_or_foreign_encoder_refuses_naming_how_to_make_it(tmp_path):
    with pytest.raises(
        ConfigError, match=r"missing: make it with `python -m watercolour_env\.server\.reward\.vision\.export`"
    ):
        ImageEncoder(tmp_path / "none.onnx")
    junk = tmp_path / "junk.onnx"
    junk.write_bytes(b"not a network")
    with pytest.raises(ConfigError, match="cannot be loaded"):
        ImageEncoder(junk)


@pytest.mark.cli
def test_the_encoder_runs_where_torch_cannot_be_imported():
    code = (
        "import sys; sys.modules['torch'] = None\n"  # `import torch` now raises ImportError
        "from pathlib import Path\n"
        "from watercolour_env.pool import STARTER_POOL\n"
        "from watercolour_env.server.reward.vision.encoder import ImageEncoder\n"
        "f = ImageEncoder().feature((STARTER_POOL / 'images' / 'bloom-03.png').read_bytes())\n"
        "print(f.shape, 'torch' in sys.modules and sys.modules['torch'] is not None)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "(1280,) False"


@pytest.mark.train
def test_the_onnx_encoder_computes_what_the_pytorch_model_does():
    torch = pytest.importorskip("torch")
    from efficientnet_lite_pytorch import EfficientNet

    model = EfficientNet.from_pretrained("efficientnet-lite0", weights_path=str(export.weights_path())).eval()
    x = np.stack([pixels(BLOOM), np.random.default_rng(0).uniform(-1, 1, (3, 224, 224)).astype(np.float32)])
    with torch.no_grad():
        expected = model.extract_features(torch.from_numpy(x)).mean(dim=(2, 3)).numpy()
    got = ImageEncoder()._session.run(["features"], {"pixels": x})[0]
    assert np.abs(got - expected).max() < 1e-4  # measured 7.6e-6 (docs/LOG.md)
