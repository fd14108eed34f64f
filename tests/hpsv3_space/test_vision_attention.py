"""The per-image vision attention gives what transformers' masked square gives, batch or not."""

from __future__ import annotations

import pytest
import torch
from PIL import Image

from hpsv3_space.model import use_block_diagonal_vision_attention


@pytest.fixture(autouse=True)
def _restore() -> None:
    yield
    use_block_diagonal_vision_attention(True)


@pytest.mark.parametrize("lengths", [[16, 16, 16], [12, 20, 4], [9]])
def test_attention_blocks_match_the_masked_square(lengths: list[int]) -> None:
    from transformers.models.qwen2_vl.modeling_qwen2_vl import VisionSdpaAttention

    torch.manual_seed(0)
    attention = VisionSdpaAttention(dim=32, num_heads=2).eval()
    hidden = torch.randn(sum(lengths), 32)
    cu_seqlens = torch.tensor([0, *lengths]).cumsum(0).to(torch.int32)
    rotary = torch.randn(sum(lengths), 8)  # [patches, head_dim / 2] angles
    use_block_diagonal_vision_attention(False)
    expected = attention(hidden, cu_seqlens, rotary)
    use_block_diagonal_vision_attention(True)
    got = attention(hidden, cu_seqlens, rotary)
    torch.testing.assert_close(got, expected, atol=1e-5, rtol=1e-5)


def test_tiny_hpsv3_scores_are_the_same_either_way(tiny_model: tuple) -> None:
    from hpsv3 import HPSv3RewardInferencer

    config_path, checkpoint_path = tiny_model
    inferencer = HPSv3RewardInferencer(str(config_path), str(checkpoint_path), device="cpu")
    images = [Image.new("RGB", (600, 600), c) for c in [(200, 50, 80), (20, 150, 80), (240, 200, 40)]]
    images[1].paste((0, 0, 0), (100, 100, 300, 300))
    prompts = ["a loose watercolour flower"] * 3
    with torch.inference_mode():
        use_block_diagonal_vision_attention(False)
        expected = inferencer.reward(images, prompts)
        use_block_diagonal_vision_attention(True)
        got = inferencer.reward(images, prompts)
    torch.testing.assert_close(got, expected, atol=1e-5, rtol=1e-4)
