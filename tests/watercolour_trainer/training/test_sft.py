"""`watercolour sft`: the pool's sketches as chat examples, an adapter out, GRPO started from it."""

import json
import re

import pytest

from tests.conftest import WATERCOLOUR
from watercolour_env.errors import ConfigError
from watercolour_env.pool import STARTER_POOL, Pool, Tier
from watercolour_env.prompt import PETAL_HINT, SYSTEM_PROMPT, user_prompt
from watercolour_trainer.training.sft import at_most, main, parse_tiers, sketch_examples

pytestmark = pytest.mark.train


def starter_rows() -> list[dict]:
    """The starter's rows but the oracle its pool.toml holds out, which no one trains on."""
    rows = [json.loads(line) for line in (STARTER_POOL / "pool.jsonl").read_text().splitlines()]
    return [row for row in rows if row["id"] != "songbird-33"]


def test_each_painting_of_the_chosen_tiers_is_one_chat_example_with_the_environments_prompts():
    examples = sketch_examples(Pool.load(str(STARTER_POOL)), [Tier.LOVE, Tier.OKAY])
    expected = [r["id"] for r in starter_rows() if r["tier"] == "love"] + [
        r["id"] for r in starter_rows() if r["tier"] == "okay"
    ]
    assert [e["id"] for e in examples] == expected  # 19 love, then 27 okay
    first = examples[0]
    assert first["prompt"] == [
        {"role": "system", "content": SYSTEM_PROMPT},
        {"role": "user", "content": user_prompt("a hibiscus", hint=PETAL_HINT)},  # what the server asks
    ]
    sketch = (STARTER_POOL / "sketches" / f"{first['id']}.js").read_text().strip()
    assert first["completion"] == [{"role": "assistant", "content": f"```js\n{sketch}\n```"}]


def test_a_token_cap_keeps_only_the_short_sketches(embedded_tokenizer):
    tokenizer = embedded_tokenizer
    rows = sketch_examples(Pool.load(str(STARTER_POOL)), [Tier.LOVE, Tier.OKAY])
    kept = at_most(rows, 900, lambda t: len(tokenizer(t, add_special_tokens=False)["input_ids"]))
    # counted once by hand with the same tokenizer (docs/LOG.md): the okay "simple" sketches and
    # weak-dark are 771-884 tokens of sketch; the next, pair-03, is 987
    short = {
        "weak-dark",
        "simple-01",
        "simple-02",
        "simple-03",
        "simple-04",
        "simple-06",
        "simple-08",
        "simple-09",
        "simple-13",
        "simple-14",
    }
    assert {r["id"] for r in kept} == short
    with pytest.raises(ConfigError, match="no sketch of these tiers is that short"):
        at_most(rows, 100, lambda t: len(tokenizer(t)["input_ids"]))


def test_tiers_are_named_and_a_wrong_one_is_refused():
    assert parse_tiers("love, nope") == [Tier.LOVE, Tier.NOPE]
    with pytest.raises(ConfigError, match="tiers are love, okay and nope"):
        parse_tiers("love,great")


@pytest.mark.slow
def test_sft_writes_an_adapter_that_grpo_starts_from(tiny_policy, tmp_path):
    import subprocess

    out = tmp_path / "adapter"
    command = [
        WATERCOLOUR,
        "sft",
        "--model",
        str(tiny_policy),
        "--output_dir",
        str(out),
        "--max_steps",
        "2",
        "--per_device_train_batch_size",
        "1",
        "--max_length",
        "1024",
        "--use_cpu",
        "true",
        "--bf16",
        "false",
        "--report_to",
        "none",
        "--save_strategy",
        "no",
        "--lora_r",
        "4",
    ]
    run = subprocess.run(command, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr[-2000:]
    assert (out / "adapter_config.json").is_file() and (out / "adapter_model.safetensors").is_file()
    provenance = json.loads((out / "sft_provenance.json").read_text())
    assert provenance["steps"] == 2 and len(provenance["examples"]) == 96  # the warm-start corpus: 71 love + 25 okay
    assert provenance["command"].startswith("watercolour sft --model ")

    from watercolour_trainer.training.policy import load_policy
    from watercolour_trainer.training.train import load_adapter

    model, _ = load_policy(str(tiny_policy))
    tuned = load_adapter(model, str(out))
    trainable = [name for name, p in tuned.named_parameters() if p.requires_grad]
    assert trainable and all("lora_" in name for name in trainable)
    with pytest.raises(ConfigError, match="no adapter_config.json"):
        load_adapter(model, str(tmp_path))


def test_sft_without_lora_is_refused_with_a_reason(tmp_path):
    import subprocess

    run = subprocess.run(
        [WATERCOLOUR, "sft", "--output_dir", str(tmp_path), "--lora_r", "0"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 2 and "--lora_r must be above 0" in run.stderr


@pytest.mark.server
@pytest.mark.browser
def test_sft_refuses_revisions_the_server_or_the_range_does_not_allow_before_a_model_loads(server_url, tmp_path):
    import subprocess

    def sft(*flags: str) -> subprocess.CompletedProcess:
        # a model that does not exist: a refusal that came after loading would name it instead
        command = [WATERCOLOUR, "sft", "--model", str(tmp_path / "no-model"), "--output_dir", str(tmp_path / "out")]
        return subprocess.run([*command, *flags], capture_output=True, text=True, timeout=300)

    over = sft("--revisions", "5", "--env_url", server_url)  # the server allows 3 by default
    assert over.returncode == 2, over.stderr[-2000:]
    assert f"the environment at {server_url} refused --revisions 5" in over.stderr
    assert "WATERCOLOUR_MAX_REVISIONS" in over.stderr
    # the rest in this process: each command spends ~12 s importing TRL before it can refuse
    common = ["--model", str(tmp_path / "no-model"), "--output_dir", str(tmp_path / "out")]
    with pytest.raises(ConfigError, match=re.escape("--revisions must be in [0, 8] (got 9)")):
        main([*common, "--revisions", "9", "--env_url", server_url])
    with pytest.raises(ConfigError, match="--env_url is read only with --revisions"):
        main([*common, "--env_url", server_url])
    with pytest.raises(ConfigError, match="no environment server answered at http://127.0.0.1:9"):
        main([*common, "--revisions", "1", "--env_url", "http://127.0.0.1:9"])  # port 9: discard, nothing listens


@pytest.fixture
def two_sketch_corpus(tmp_path):
    """The warm-start corpus cut to its first two hibiscus (a pool folder of its own)."""
    import shutil

    from watercolour_trainer.training.sft import WARMSTART_CORPUS

    folder = tmp_path / "corpus"
    shutil.copytree(WARMSTART_CORPUS, folder, ignore=shutil.ignore_patterns("sheets"))
    lines = [line for line in (folder / "pool.jsonl").read_text().splitlines() if '"warm-0' in line][:2]
    (folder / "pool.jsonl").write_text("".join(line + "\n" for line in lines))
    return folder


@pytest.mark.slow
@pytest.mark.server
@pytest.mark.browser
def test_sft_with_revisions_teaches_tool_calls_and_leaves_the_critiques_out_of_the_loss(
    server_url, tiny_policy, two_sketch_corpus, tmp_path
):
    from trl.chat_template_utils import qwen2_5_chat_template

    from watercolour_trainer.episodes.revisions import tool_examples

    pool = Pool.load(str(two_sketch_corpus))
    rows = tool_examples(sketch_examples(pool, [Tier.LOVE, Tier.OKAY]), revisions=1, env_url=server_url)
    assert [r["id"] for r in rows] == ["warm-02+warm-01", "warm-01+warm-02"]  # love first, then okay; wrapping
    first = rows[0]
    assert "may paint it once more; your last painting is the one judged" in first["prompt"][1]["content"]
    roles = [m["role"] for m in first["completion"]]
    assert roles == ["assistant", "tool", "assistant", "tool", "assistant"]
    call = first["completion"][0]["tool_calls"][0]["function"]
    assert call["name"] == "paint" and call["arguments"]["sketch"] == pool.tier(Tier.LOVE)[0].sketch.strip()
    assert first["completion"][1]["content"].endswith("You may revise it 1 more time.")
    assert first["completion"][3]["content"].endswith("That was the last painting of this episode.")
    assert json.loads(first["tools"])[0]["function"]["name"] == "paint"

    import subprocess

    out = tmp_path / "adapter"
    command = [WATERCOLOUR, "sft", "--model", str(tiny_policy), "--pool", str(two_sketch_corpus)]
    command += ["--revisions", "1", "--env_url", server_url, "--output_dir", str(out), "--max_steps", "1"]
    command += ["--per_device_train_batch_size", "1", "--report_to", "none", "--save_strategy", "no", "--lora_r", "4"]
    run = subprocess.run(command, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr[-3000:]
    assert json.loads((out / "sft_provenance.json").read_text())["revisions"] == 1

    # what the loss covers: TRL's own tokenization of the first example, with its training template
    from transformers import AutoTokenizer
    from trl.chat_template_utils import get_training_chat_template

    tokenizer = AutoTokenizer.from_pretrained(tiny_policy)
    tokenizer.chat_template = qwen2_5_chat_template
    messages = first["prompt"] + first["completion"]
    encoded = tokenizer.apply_chat_template(
        messages,
        tools=json.loads(first["tools"]),
        chat_template=get_training_chat_template(tokenizer),
        return_assistant_tokens_mask=True,
        return_dict=True,
    )
    trained = tokenizer.decode([t for t, m in zip(encoded["input_ids"], encoded["assistant_masks"], strict=True) if m])
    assert trained.count("<tool_call>") == 2 and "Done." in trained
    assert "You may revise it" not in trained and "paint fraction" not in trained.lower()
