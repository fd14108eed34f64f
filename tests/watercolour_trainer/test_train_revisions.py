"""`watercolour train --revisions 1`: one real GRPO step on TRL's tool path, against the real server.

The policy is a tiny random Llama with SmolLM2's tokenizer, first taught (a few hundred plain
optimiser steps here) one exchange by heart: paint the trivial sketch, read the critique, paint
it again, say "Done.". So the step's rollouts go through TRL's parsing of `<tool_call>`, the
`paint` tool, the critique fed back and the second painting, as a warm-started policy's would.
"""

import json

import pytest
import torch

from tests.conftest import example
from watercolour_trainer.train import main

pytestmark = [pytest.mark.slow, pytest.mark.server, pytest.mark.browser, pytest.mark.train]

SUBJECT = "a peach hibiscus"


def exchange(server_url: str, tool) -> list[dict]:  # noqa: ANN001 (the episode's bound paint method)
    """The conversation the tiny policy learns: the server's prompts, two paint calls, the critiques."""
    from watercolour_env import WatercolourEnv

    with WatercolourEnv(base_url=server_url).sync() as env:
        start = env.reset(seed=0, subject=SUBJECT, revisions=1).observation
    messages = [{"role": "system", "content": start.system_prompt}, {"role": "user", "content": start.prompt}]
    tool.__self__.reset(seed=0, subject=SUBJECT)
    for _ in range(2):
        call = {"type": "function", "function": {"name": "paint", "arguments": {"sketch": example("trivial.js")}}}
        messages.append({"role": "assistant", "content": "", "tool_calls": [call]})
        messages.append({"role": "tool", "name": "paint", "content": tool(example("trivial.js"))})
    messages.append({"role": "assistant", "content": "Done."})
    return messages


@pytest.fixture(scope="module")
def tool_policy(server_url, tmp_path_factory):
    """A folder with the tiny policy that paints by the tool (model, tokenizer, ChatML template with tools)."""
    from transformers import AutoTokenizer, LlamaConfig, LlamaForCausalLM
    from trl.chat_template_utils import qwen2_5_chat_template

    from watercolour_trainer.painter import PaintingEpisode
    from watercolour_trainer.policy import embedded_gguf

    gguf = embedded_gguf()
    tokenizer = AutoTokenizer.from_pretrained(gguf.parent, gguf_file=gguf.name)
    tokenizer.chat_template = qwen2_5_chat_template
    episode = PaintingEpisode(server_url, revisions=1, token="")
    try:
        messages = exchange(server_url, episode.paint)
        text = tokenizer.apply_chat_template(messages, tools=[episode.paint], tokenize=False)
    finally:
        episode._close()
    ids = torch.tensor([tokenizer(text, add_special_tokens=False)["input_ids"]])
    torch.manual_seed(0)
    config = LlamaConfig(
        vocab_size=len(tokenizer),
        hidden_size=64,
        intermediate_size=128,
        num_hidden_layers=2,
        num_attention_heads=4,
        num_key_value_heads=2,
        max_position_embeddings=4096,
        bos_token_id=tokenizer.bos_token_id,
        eos_token_id=tokenizer.convert_tokens_to_ids("<|im_end|>"),
        tie_word_embeddings=True,
    )
    model = LlamaForCausalLM(config)
    optimiser = torch.optim.AdamW(model.parameters(), lr=3e-3)
    for _ in range(300):
        loss = model(input_ids=ids, labels=ids).loss
        loss.backward()
        optimiser.step()
        optimiser.zero_grad()
        if loss.item() < 0.01:
            break
    assert loss.item() < 0.05, f"the tiny policy did not learn its exchange (loss {loss.item():.3f})"
    folder = tmp_path_factory.mktemp("tool-policy")
    model.generation_config.eos_token_id = config.eos_token_id
    model.save_pretrained(folder)
    tokenizer.save_pretrained(folder)
    return folder


def test_one_grpo_step_with_revisions_paints_through_the_tool_and_logs_each_turn(server_url, tool_policy, tmp_path):
    main(
        [
            "--config",
            "trainer/configs/demo.yaml",
            "--env_url",
            server_url,
            "--model",
            str(tool_policy),
            "--output_dir",
            str(tmp_path),
            "--max_steps",
            "1",
            "--num_generations",
            "2",
            "--per_device_train_batch_size",
            "2",
            "--n_prompts",
            "2",
            "--max_completion_length",
            "700",
            "--temperature",
            "0.05",
            "--revisions",
            "1",
        ]
    )
    rows = [json.loads(line) for line in (tmp_path / "rollouts" / "rollouts.jsonl").read_text().splitlines()]
    assert len(rows) == 2 and len({r["seed"] for r in rows}) == 1
    for row in rows:
        assert [t["status"] for t in row["turns"]] == ["revise", "scored"]  # both painted by the tool
        assert row["turns"][0]["critique"] and row["status"] == "scored" and row["reward"] > 0
        assert row["completion"].count("[paint]") == 2 and row["completion"].count("[critique]") == 2
    paintings = sorted(p.name for p in (tmp_path / "rollouts" / "paintings").iterdir())
    assert paintings == [
        "step0001-g00-p00-t1.png",
        "step0001-g00-p00.png",
        "step0001-g00-p01-t1.png",
        "step0001-g00-p01.png",
    ]
    page = (tmp_path / "rollouts" / "gallery.html").read_text()
    assert page.count('class="turn"') == 4 and 'src="paintings/step0001-g00-p00-t1.png"' in page
