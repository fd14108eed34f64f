"""What the embedded scorer sees: learned image features (EfficientNet-Lite0 as ONNX, no torch).

The shapes and paths both sides share live here, so that `python -m ...vision.export` does not
import its own module twice (the encoder, which the package's users import, reads them too).
"""

from pathlib import Path

INPUT_SIZE = 224
"""Pixels a side of the encoder's input (the graph fixes it: export.py)."""
FEATURES = 1280
"""Numbers in a painting's feature vector."""
ENCODER_MODULE = "-m watercolour_env.server.reward.vision.export"
DEFAULT_OUT = Path(__file__).resolve().parent / "efficientnet-lite0.onnx"
"""Where `make install` and the image build write the encoder, and where the server looks first."""
