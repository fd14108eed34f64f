"""The policies the trainer's tests run: the embedded policy's tokenizer, a tiny random policy
for the run's plumbing, and a tiny policy taught to paint by the `paint` tool. Fixtures, loaded by
the root conftest (`pytest_plugins`)."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="session")
def embedded_tokenizer():
    """The embedded policy's tokenizer (SmolLM2-135M-Instruct's, read from its GGUF: ~4 s), without the model."""
    from transformers import AutoTokenizer

    from watercolour_trainer.training.policy import embedded_gguf

    gguf = embedded_gguf()
    return AutoTokenizer.from_pretrained(gguf.parent, gguf_file=gguf.name)


def tiny_llama(tokenizer, **config):  # noqa: ANN001, ANN003, ANN201
    """A random 2-layer Llama (hidden 32) sized to `tokenizer`'s vocabulary; `config` overrides."""
    from transformers import LlamaConfig, LlamaForCausalLM

    shape = {"hidden_size": 32, "intermediate_size": 64, "num_hidden_layers": 2, "num_attention_heads": 4}
    ids = {"bos_token_id": tokenizer.bos_token_id, "eos_token_id": tokenizer.eos_token_id}
    return LlamaForCausalLM(LlamaConfig(vocab_size=len(tokenizer), num_key_value_heads=2, **shape, **(ids | config)))


@pytest.fixture(scope="session")
def tiny_policy(embedded_tokenizer, tmp_path_factory):
    """A 2-layer random Llama with the embedded policy's tokenizer and chat template, saved as a
    folder that `--model` takes: for tests of the trainer's plumbing (resume, stop, time, push,
    trackio, processes), where what the policy writes does not matter and the 135M policy spent
    most of a minute per step (docs/LOG.md, issue 53)."""
    folder = tmp_path_factory.mktemp("tiny-policy")
    tiny_llama(embedded_tokenizer).save_pretrained(folder)
    embedded_tokenizer.save_pretrained(folder)
    return folder


# A tiny policy that paints by the `paint` tool (issue 37): a 2-layer random Llama with
# SmolLM2's tokenizer and TRL's ChatML template with tools, taught one exchange by heart in
# about a hundred plain optimiser steps (paint a short wash circle, read the critique, paint it again,
# say "Done."), so a test goes through TRL's parsing of `<tool_call>`, the tool and the critique
# as a warm-started policy's rollouts would.


TOOL_SKETCH = (
    "function setup() { createCanvas(600, 600, WEBGL); noLoop(); }\n"
    "function draw() { translate(-300, -300); background(250, 246, 238); brush.noStroke();\n"
    '  brush.fill("#d94f70", 150); brush.circle(300, 300, 200); }\n'
)
"""The one sketch the tiny tool policy paints: a wash circle, short so that learning it is quick."""


def exchange(server_url: str, tool) -> list[dict]:  # noqa: ANN001 (the episode's bound paint method)
    """The conversation the tiny policy learns: the server's prompts, two paint calls, the critiques."""
    from watercolour_env import WatercolourEnv

    with WatercolourEnv(base_url=server_url).sync() as env:
        start = env.reset(seed=0, subject="a peach hibiscus", revisions=1).observation
    messages = [{"role": "system", "content": start.system_prompt}, {"role": "user", "content": start.prompt}]
    tool.__self__.reset(seed=0, subject="a peach hibiscus")
    for _ in range(2):
        call = {"type": "function", "function": {"name": "paint", "arguments": {"sketch": TOOL_SKETCH}}}
        messages.append({"role": "assistant", "content": "", "tool_calls": [call]})
        messages.append({"role": "tool", "name": "paint", "content": tool(TOOL_SKETCH)})
    messages.append({"role": "assistant", "content": "Done."})
    return messages


def assistant_spans(tokenizer, messages: list[dict], tools: list) -> list[tuple[int, int]]:  # noqa: ANN001
    """[start, end) token positions of each assistant turn of `messages` in its chat-template text."""

    def length(upto: int, prompt: bool) -> int:
        text = tokenizer.apply_chat_template(messages[:upto], tools=tools, add_generation_prompt=prompt, tokenize=False)
        return len(tokenizer(text, add_special_tokens=False)["input_ids"])

    return [(length(i, True), length(i + 1, False)) for i, m in enumerate(messages) if m["role"] == "assistant"]


@pytest.fixture(scope="session")
def tool_policy(server_url, tmp_path_factory):
    """A folder with the tiny policy that paints by the tool (model, tokenizer, ChatML template with tools)."""
    import torch
    from transformers import AutoTokenizer
    from trl.chat_template_utils import qwen2_5_chat_template

    from watercolour_trainer.episodes.painter import PaintingEpisode
    from watercolour_trainer.training.policy import embedded_gguf

    gguf = embedded_gguf()
    tokenizer = AutoTokenizer.from_pretrained(gguf.parent, gguf_file=gguf.name)
    tokenizer.chat_template = qwen2_5_chat_template
    episode = PaintingEpisode(server_url, revisions=1, token="")
    try:
        messages = exchange(server_url, episode.paint)
        text = tokenizer.apply_chat_template(messages, tools=[episode.paint], tokenize=False)
        asked = tokenizer.apply_chat_template(
            messages[:2], tools=[episode.paint], add_generation_prompt=True, tokenize=False
        )
    finally:
        episode._close()
    assert text.startswith(asked)
    ids = torch.tensor([tokenizer(text, add_special_tokens=False)["input_ids"]])
    # the loss is on what the policy writes (its turns), not on the prompts and critiques it reads
    targets = torch.cat([torch.arange(*span) for span in assistant_spans(tokenizer, messages, tools=[episode.paint])])
    torch.manual_seed(0)
    eos = tokenizer.convert_tokens_to_ids("<|im_end|>")
    model = tiny_llama(tokenizer, eos_token_id=eos, max_position_embeddings=4096, tie_word_embeddings=True)
    optimiser = torch.optim.AdamW(model.parameters(), lr=1e-2)
    for _ in range(400):
        logits = model.lm_head(model.model(input_ids=ids).last_hidden_state[0, targets - 1])
        # learnt when every written token leads the next best by 2 nats: at the tests' temperature
        # of 0.05 that is 40 nats, so sampling writes the exchange as taught (92 steps, ~20 s)
        right = logits.detach().gather(1, ids[0, targets, None])[:, 0]
        rival = logits.detach().scatter(1, ids[0, targets, None], float("-inf")).max(dim=1).values
        margin = (right - rival).min().item()
        if margin > 2:
            break
        torch.nn.functional.cross_entropy(logits, ids[0, targets]).backward()
        optimiser.step()
        optimiser.zero_grad()
    assert margin > 2, f"the tiny policy did not learn its exchange (margin {margin:.2f} nats)"
    folder = tmp_path_factory.mktemp("tool-policy")
    model.generation_config.eos_token_id = eos
    model.save_pretrained(folder)
    tokenizer.save_pretrained(folder)
    return folder
