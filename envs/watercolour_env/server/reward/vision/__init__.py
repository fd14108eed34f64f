"""What the embedded scorer sees: learned image features (EfficientNet-Lite0 as ONNX, no torch)."""
