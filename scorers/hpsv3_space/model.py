"""Loading HPSv3.

The packaged inferencer, its weights, the block-diagonal vision attention, and the two halves of
its `reward` that the batcher runs on two threads.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from hpsv3_space.settings import Settings

log = logging.getLogger("hpsv3_space")


class Inferencer(Protocol):
    """What the app needs of a model: the two halves of hpsv3's `reward(images, prompts)`."""

    model: Any  # called as model(return_dict=True, **inputs)["logits"] -> tensor [B, 2]

    def prepare_batch(self, image_paths: list[Any], prompts: list[str]) -> Any:  # noqa: D102
        ...


@dataclass
class Loaded:
    """A loaded inferencer and what `/info` says about it."""

    inferencer: Inferencer
    info: dict[str, Any]


def _block_diagonal_forward(self, hidden_states, cu_seqlens, rotary_pos_emb=None):  # noqa: ANN001, ANN202
    """Qwen2-VL's SDPA vision attention, one image at a time instead of one masked square.

    transformers 4.45.2 runs the vision tower's SDPA attention over all images of a batch as one
    sequence with a block-diagonal [N, N] mask (N = 1,024 patches per 448x448 image times the
    batch), so time and memory grow with the square of the batch: measured on an H200 with the
    7B shapes, batch 32 took 10.8 s and 130 GiB against 0.105 s and 15.7 GiB at batch 1
    (docs/LOG.md). This computes the same blocks: images of one size as one batched SDPA call
    without a mask, others one by one. Flash-attention's varlen kernel does the same when the
    `flash-attn` package is installed, and then this is not used.
    """
    import torch
    import torch.nn.functional as F
    from transformers.models.qwen2_vl.modeling_qwen2_vl import apply_rotary_pos_emb_vision

    seq_length = hidden_states.shape[0]
    q, k, v = self.qkv(hidden_states).reshape(seq_length, 3, self.num_heads, -1).permute(1, 0, 2, 3).unbind(0)
    q = apply_rotary_pos_emb_vision(q.unsqueeze(0), rotary_pos_emb).squeeze(0)
    k = apply_rotary_pos_emb_vision(k.unsqueeze(0), rotary_pos_emb).squeeze(0)
    lengths = (cu_seqlens[1:] - cu_seqlens[:-1]).tolist()
    if len(set(lengths)) == 1:  # [seq, heads, d] -> [images, heads, patches, d]
        n, size = len(lengths), lengths[0]
        q, k, v = (t.reshape(n, size, self.num_heads, -1).transpose(1, 2) for t in (q, k, v))
        out = F.scaled_dot_product_attention(q, k, v).transpose(1, 2).reshape(seq_length, -1)
    else:
        blocks = [
            F.scaled_dot_product_attention(*(t[a:b].transpose(0, 1) for t in (q, k, v))).transpose(0, 1)
            for a, b in zip(cu_seqlens[:-1].tolist(), cu_seqlens[1:].tolist(), strict=True)
        ]
        out = torch.cat(blocks).reshape(seq_length, -1)
    return self.proj(out)


def use_block_diagonal_vision_attention(enabled: bool = True) -> None:
    """Installs (or removes) `_block_diagonal_forward` on transformers' `VisionSdpaAttention`."""
    from transformers.models.qwen2_vl import modeling_qwen2_vl as qwen

    original = qwen.__dict__.setdefault("_hpsv3_space_original_forward", qwen.VisionSdpaAttention.forward)
    qwen.VisionSdpaAttention.forward = _block_diagonal_forward if enabled else original


def load_hpsv3(settings: Settings) -> Loaded:
    """The real loading code: `hpsv3.HPSv3RewardInferencer`, checkpoint from the Hub when unset.

    Raises:
        Whatever hpsv3, huggingface_hub or torch raise; the app shows it on `/health`.
    """
    import hpsv3
    import huggingface_hub
    import torch
    import transformers
    from hpsv3 import HPSv3RewardInferencer

    device = settings.device if settings.device != "auto" else ("cuda" if torch.cuda.is_available() else "cpu")
    use_block_diagonal_vision_attention(settings.block_diagonal_vision)
    checkpoint = settings.checkpoint_path or huggingface_hub.hf_hub_download(
        settings.checkpoint_repo, "HPSv3.safetensors", revision=settings.checkpoint_revision
    )
    verbosity = transformers.logging.get_verbosity()
    transformers.logging.set_verbosity_error()  # the base loads without the reward head, which the checkpoint fills
    try:
        inferencer = HPSv3RewardInferencer(config_path=settings.config_path, checkpoint_path=checkpoint, device=device)
    finally:
        transformers.logging.set_verbosity(verbosity)
    model = inferencer.model
    info = {
        "model": model.config._name_or_path or "Qwen/Qwen2-VL-7B-Instruct",
        "checkpoint": settings.checkpoint_path or f"{settings.checkpoint_repo}/HPSv3.safetensors",
        "revision": None if settings.checkpoint_path else settings.checkpoint_revision,
        "device": str(next(model.parameters()).device),
        "dtype": str(next(model.parameters()).dtype).removeprefix("torch."),
        "parameters": sum(p.numel() for p in model.parameters()),
        "versions": {
            "hpsv3": getattr(hpsv3, "__version__", _dist_version("hpsv3")),
            "transformers": transformers.__version__,
            "torch": torch.__version__,
        },
    }
    return Loaded(inferencer, info)


def _dist_version(name: str) -> str | None:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(name)
    except PackageNotFoundError:
        return None


def split_reward(inferencer: Inferencer) -> tuple[Callable[[list[Any], list[str]], Any], Callable[[Any], list]]:
    """hpsv3's `reward()` as its two halves: (prepare on the CPU, forward on the GPU).

    `HPSv3RewardInferencer.reward` is `prepare_batch` then `model(return_dict=True, **batch)`;
    splitting it lets the batcher overlap them. Both run under `torch.inference_mode()`.
    """
    import torch

    def to_pairs(out: Any, size: int) -> list[tuple[float, float]]:
        if tuple(out.shape) != (size, 2):  # one reward token per image, or the rows misalign
            raise RuntimeError(f"HPSv3 returned {tuple(out.shape)} for {size} images, not ({size}, 2)")
        return [(float(row[0]), float(row[1])) for row in out.float().cpu().tolist()]

    def prepare(images: list[Any], prompts: list[str]) -> Any:
        with torch.inference_mode():
            return inferencer.prepare_batch(images, prompts)

    def forward(batch: Any) -> list[tuple[float, float]]:
        with torch.inference_mode():
            return to_pairs(inferencer.model(return_dict=True, **batch)["logits"], len(batch["image_grid_thw"]))

    return prepare, forward
