"""Policy loading on real small weights: the embedded GGUF and a folder of a tiny random model."""

import pytest
import torch
from transformers import LlamaConfig, LlamaForCausalLM

from watercolour_trainer.training.policy import EMBEDDED_POLICY, load_policy, stop_at_closing_fence

pytestmark = [pytest.mark.slow, pytest.mark.train]


@pytest.fixture(scope="module")
def embedded():
    return load_policy(EMBEDDED_POLICY)


def test_the_embedded_gguf_loads_as_a_trainable_model_with_a_chat_template(embedded):
    model, tokenizer = embedded
    assert getattr(model, "hf_quantizer", None) is None
    assert all(p.dtype == torch.float32 for p in model.parameters())
    assert 130e6 < sum(p.numel() for p in model.parameters()) < 140e6
    text = tokenizer.apply_chat_template(
        [{"role": "user", "content": "hi"}], tokenize=False, add_generation_prompt=True
    )
    assert "hi" in text and tokenizer.pad_token is not None


def test_a_model_folder_loads_through_from_pretrained(embedded, tmp_path):
    _, tokenizer = embedded
    config = LlamaConfig(
        vocab_size=len(tokenizer), hidden_size=32, intermediate_size=64, num_hidden_layers=2, num_attention_heads=4
    )
    LlamaForCausalLM(config).save_pretrained(tmp_path)
    tokenizer.save_pretrained(tmp_path)
    model, loaded_tokenizer = load_policy(str(tmp_path))
    assert model.config.num_hidden_layers == 2
    assert loaded_tokenizer("```")["input_ids"] == tokenizer("```")["input_ids"]


def test_generation_stops_at_the_closing_fence(embedded):
    model, tokenizer = embedded
    fence = tokenizer("```", add_special_tokens=False)["input_ids"][0]
    assert stop_at_closing_fence(model, tokenizer)
    assert fence in model.generation_config.eos_token_id
    assert tokenizer.eos_token_id in model.generation_config.eos_token_id
