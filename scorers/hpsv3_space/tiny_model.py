"""Randomly initialised HPSv3 models of the real architecture, built from a config (no download).

Two uses, both offline:
- `write_tiny_model(folder)`: a ~1 MB Qwen2-VL with a small byte-level BPE tokenizer and the
  Qwen2-VL chat template, saved with a matching HPSv3 YAML and a random reward-head checkpoint,
  so `HPSv3RewardInferencer(config_path, checkpoint_path, device="cpu")` runs its real loading
  code (AutoProcessor, `Qwen2VLRewardModelBT.from_pretrained`, strict state-dict load) in tests.
- `random_inferencer(size="7b")`: the real 7B shapes (Qwen2-VL-7B-Instruct's config.json:
  28 layers of width 3584, a 32-layer vision tower of width 1280, vocabulary 152,064) with random
  weights, built straight on the GPU for `bench/hps_scorer.py`. Scores are meaningless; speed and
  memory are those of the real model.

The tokenizer is trained here on the HPSv3 instruction, so text token counts differ from
Qwen's; the 256 image tokens per 448x448 image, which dominate the sequence, are the same.
"""

from __future__ import annotations

import json
from pathlib import Path

QWEN2VL_CHAT_TEMPLATE = (
    "{% set image_count = namespace(value=0) %}{% set video_count = namespace(value=0) %}"
    "{% for message in messages %}{% if loop.first and message['role'] != 'system' %}"
    "<|im_start|>system\nYou are a helpful assistant.<|im_end|>\n{% endif %}"
    "<|im_start|>{{ message['role'] }}\n"
    "{% if message['content'] is string %}{{ message['content'] }}<|im_end|>\n"
    "{% else %}{% for content in message['content'] %}"
    "{% if content['type'] == 'image' or 'image' in content or 'image_url' in content %}"
    "{% set image_count.value = image_count.value + 1 %}"
    "<|vision_start|><|image_pad|><|vision_end|>"
    "{% elif content['type'] == 'video' or 'video' in content %}"
    "{% set video_count.value = video_count.value + 1 %}"
    "<|vision_start|><|video_pad|><|vision_end|>"
    "{% elif 'text' in content %}{{ content['text'] }}{% endif %}{% endfor %}<|im_end|>\n"
    "{% endif %}{% endfor %}{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}"
)
"""Qwen2-VL-7B-Instruct's chat template, as its tokenizer_config.json ships it (vision ids left out)."""

SPECIAL_TOKENS = [
    "<|endoftext|>",
    "<|im_start|>",
    "<|im_end|>",
    "<|vision_start|>",
    "<|vision_end|>",
    "<|image_pad|>",
    "<|video_pad|>",
]

SIZES = {
    "tiny": dict(
        text=dict(
            hidden_size=64,
            intermediate_size=128,
            num_hidden_layers=2,
            num_attention_heads=4,
            num_key_value_heads=2,
            mrope_section=[2, 3, 3],
        ),
        vision=dict(depth=2, embed_dim=32, num_heads=2),
        vocab_size=None,  # the tokenizer's
    ),
    "7b": dict(  # Qwen/Qwen2-VL-7B-Instruct config.json
        text=dict(
            hidden_size=3584,
            intermediate_size=18944,
            num_hidden_layers=28,
            num_attention_heads=28,
            num_key_value_heads=4,
            mrope_section=[16, 24, 24],
        ),
        vision=dict(depth=32, embed_dim=1280, num_heads=16),
        vocab_size=152064,
    ),
}


def build_processor():
    """A Qwen2VLProcessor with a small byte-level BPE tokenizer (special tokens as Qwen's)."""
    from hpsv3.dataset.data_collator_qwen import INSTRUCTION, prompt_with_special_token
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import Qwen2TokenizerFast, Qwen2VLImageProcessor, Qwen2VLProcessor

    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=600, special_tokens=SPECIAL_TOKENS, initial_alphabet=pre_tokenizers.ByteLevel.alphabet()
    )
    corpus = [INSTRUCTION + prompt_with_special_token, "a loose watercolour flower", "You are a helpful assistant."]
    tok.train_from_iterator(corpus, trainer)
    tokenizer = Qwen2TokenizerFast(
        tokenizer_object=tok,
        unk_token=None,
        bos_token=None,
        eos_token="<|im_end|>",
        pad_token="<|endoftext|>",
        additional_special_tokens=SPECIAL_TOKENS[1:],
        padding_side="right",
    )
    tokenizer.chat_template = QWEN2VL_CHAT_TEMPLATE
    image_processor = Qwen2VLImageProcessor(min_pixels=56 * 56, max_pixels=28 * 28 * 1280)
    return Qwen2VLProcessor(image_processor=image_processor, tokenizer=tokenizer, chat_template=QWEN2VL_CHAT_TEMPLATE)


def build_config(size: str, tokenizer):  # noqa: ANN001, ANN201 (transformers types, imported lazily)
    """A Qwen2VLConfig of `size` ("tiny" or "7b") whose vision token ids match `tokenizer`."""
    from transformers import Qwen2VLConfig

    spec = SIZES[size]
    text = dict(spec["text"])
    mrope = text.pop("mrope_section")
    ids = {t: tokenizer.convert_tokens_to_ids(t) for t in SPECIAL_TOKENS}
    return Qwen2VLConfig(
        vocab_size=spec["vocab_size"] or len(tokenizer),
        **text,
        hidden_act="silu",
        max_position_embeddings=32768,
        rope_theta=1000000.0,
        rms_norm_eps=1e-6,
        rope_scaling={"type": "mrope", "mrope_section": mrope},
        tie_word_embeddings=False,
        vision_config=dict(
            **spec["vision"],
            hidden_size=text["hidden_size"],
            mlp_ratio=4,
            in_channels=3,
            patch_size=14,
            spatial_merge_size=2,
            temporal_patch_size=2,
        ),
        bos_token_id=ids["<|endoftext|>"],
        eos_token_id=ids["<|im_end|>"],
        pad_token_id=ids["<|endoftext|>"],
        image_token_id=ids["<|image_pad|>"],
        video_token_id=ids["<|video_pad|>"],
        vision_start_token_id=ids["<|vision_start|>"],
        vision_end_token_id=ids["<|vision_end|>"],
        torch_dtype="float32",
    )


def write_tiny_model(folder: Path, seed: int = 0) -> tuple[Path, Path]:
    """Writes a tiny random HPSv3 model; returns (config_path, checkpoint_path) for the inferencer.

    The folder gets `base/` (config.json, weights, tokenizer, processor), `HPSv3_tiny.yaml` (the
    packaged HPSv3_7B.yaml with the base swapped and float32 for the CPU) and
    `HPSv3_tiny.safetensors` (the whole reward model's state dict, as `MizzenAI/HPSv3` ships it).
    Takes about 2 s on one CPU core.
    """
    import safetensors.torch
    import torch
    import yaml
    from hpsv3.inference import _MODEL_CONFIG_PATH
    from hpsv3.model.qwen2vl_trainer import Qwen2VLRewardModelBT
    from transformers import Qwen2VLForConditionalGeneration

    folder = Path(folder)
    base = folder / "base"
    base.mkdir(parents=True, exist_ok=True)
    processor = build_processor()
    config = build_config("tiny", processor.tokenizer)
    torch.manual_seed(seed)
    Qwen2VLForConditionalGeneration(config).save_pretrained(base)  # the base, as Qwen ships it
    processor.save_pretrained(base)

    hps = yaml.safe_load((Path(_MODEL_CONFIG_PATH) / "HPSv3_7B.yaml").read_text())
    hps.update(model_name_or_path=str(base), bf16=False, torch_dtype="float32", deepspeed=None, report_to="none")
    config_path = folder / "HPSv3_tiny.yaml"
    config_path.write_text(yaml.safe_dump(hps))

    special = processor.tokenizer
    special.add_special_tokens({"additional_special_tokens": ["<|Reward|>"]})
    model = Qwen2VLRewardModelBT.from_pretrained(
        base,
        output_dim=hps["output_dim"],
        reward_token=hps["reward_token"],
        special_token_ids=special.convert_tokens_to_ids(["<|Reward|>"]),
        rm_head_type=hps["rm_head_type"],
    )
    model.resize_token_embeddings(len(special))
    checkpoint_path = folder / "HPSv3_tiny.safetensors"
    state = {k: v.contiguous() for k, v in model.state_dict().items()}
    safetensors.torch.save_file(state, checkpoint_path)
    (folder / "README.json").write_text(json.dumps({"what": "tiny random HPSv3 for tests", "seed": seed}))
    return config_path, checkpoint_path


def random_inferencer(size: str = "7b", device: str = "cuda", dtype: str = "bfloat16", block_diagonal: bool = True):  # noqa: ANN201, E501
    """The real `HPSv3RewardInferencer` around a random model of `size`, built on `device`.

    The packaged constructor loads the base from the Hub, which cannot be reached on the
    benchmark machine; this builds the same `Qwen2VLRewardModelBT` from a config directly on the
    device (seconds, not minutes) and fills in the fields the constructor would have set.
    """
    import torch
    from hpsv3.inference import HPSv3RewardInferencer
    from hpsv3.model.qwen2vl_trainer import Qwen2VLRewardModelBT

    from hpsv3_space.model import use_block_diagonal_vision_attention

    use_block_diagonal_vision_attention(block_diagonal)
    processor = build_processor()
    processor.tokenizer.add_special_tokens({"additional_special_tokens": ["<|Reward|>"]})
    reward_ids = processor.tokenizer.convert_tokens_to_ids(["<|Reward|>"])
    config = build_config(size, processor.tokenizer)
    config._attn_implementation = "sdpa"
    torch_dtype = getattr(torch, dtype)
    previous = torch.get_default_dtype()
    torch.set_default_dtype(torch_dtype)
    try:
        with torch.device(device):
            model = Qwen2VLRewardModelBT(
                config, output_dim=2, reward_token="special", special_token_ids=reward_ids, rm_head_type="ranknet"
            )
    finally:
        torch.set_default_dtype(previous)
    model.rm_head.to(torch.float32)
    model.eval()
    inferencer = HPSv3RewardInferencer.__new__(HPSv3RewardInferencer)
    inferencer.model, inferencer.processor, inferencer.device = model, processor, device
    inferencer.use_special_tokens, inferencer.data_config = True, None
    return inferencer


def main() -> None:
    """`python -m hpsv3_space.tiny_model DIR` (in `.venv-hpsv3`)."""
    import argparse

    parser = argparse.ArgumentParser(
        prog="python -m hpsv3_space.tiny_model",
        description="Write a tiny random HPSv3 model; print HPSV3_CONFIG_PATH and HPSV3_CHECKPOINT_PATH as JSON.",
    )
    parser.add_argument("folder", type=Path, help="where to write it (created if missing)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    config_path, checkpoint_path = write_tiny_model(args.folder, args.seed)
    print(json.dumps({"HPSV3_CONFIG_PATH": str(config_path), "HPSV3_CHECKPOINT_PATH": str(checkpoint_path)}))


if __name__ == "__main__":
    main()
