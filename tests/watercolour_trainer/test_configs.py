"""The shipped YAML configs parse to what their comments promise (no model is loaded)."""

import pytest
from trl import GRPOConfig, SFTConfig, TrlParser

from tests.conftest import REPO
from watercolour_trainer.sft import SFTArguments
from watercolour_trainer.train import WatercolourArguments

pytestmark = pytest.mark.train

CONFIGS = REPO / "trainer" / "configs"


def test_the_warm_start_recipe_is_48_epochs_of_batch_4_on_its_own_corpus_into_runs():
    args, config = TrlParser((SFTArguments, SFTConfig)).parse_args_and_config(
        args=["--config", str(CONFIGS / "sft-starter.yaml")]
    )
    assert (config.num_train_epochs, config.per_device_train_batch_size) == (48, 4)
    assert config.gradient_accumulation_steps == 1
    assert (config.learning_rate, args.lora_r, args.lora_alpha, config.seed) == (2e-4, 8, 16, 0)
    assert args.tiers == "love,okay" and args.model == "smollm2-135m-instruct"
    assert args.pool == "trainer/corpus/warmstart"  # never the reward's pool
    assert config.output_dir == "runs/sft-starter"  # a rerun never writes over a shipped adapter


def test_the_learning_run_is_40_steps_of_8_generations_that_checkpoint_every_2():
    args, config = TrlParser((WatercolourArguments, GRPOConfig)).parse_args_and_config(
        args=["--config", str(CONFIGS / "learn-cpu.yaml"), "--adapter", "trainer/adapters/smollm2_135m_demo"]
    )
    assert (config.max_steps, config.num_generations, config.per_device_train_batch_size) == (40, 8, 8)
    assert (config.save_strategy, config.save_steps, config.max_completion_length) == ("steps", 2, 950)
    assert args.n_prompts >= config.max_steps  # one new prompt (seed) per step
    assert not args.prime_reply and args.adapter.endswith("smollm2_135m_demo")


def test_the_demo_is_2_unprimed_steps_of_4_with_room_for_the_longest_passing_reply():
    args, config = TrlParser((WatercolourArguments, GRPOConfig)).parse_args_and_config(
        args=["--config", str(CONFIGS / "demo.yaml")]
    )
    assert (config.max_steps, config.num_generations, config.per_device_train_batch_size) == (2, 4, 4)
    # the demo adapter's longest passing reply was 891 tokens of 64 (its README); 950 holds it
    assert config.max_completion_length == 950 and config.gradient_checkpointing
    assert not args.prime_reply and not args.stop_at_closing_fence


def test_the_h200_run_starts_from_the_honest_warm_start_and_learns_nothing_from_cut_sketches():
    args, config = TrlParser((WatercolourArguments, GRPOConfig)).parse_args_and_config(
        args=["--config", str(CONFIGS / "h200-learn.yaml"), "--bf16", "false"]  # bf16 needs the GPU to parse
    )
    assert args.adapter.endswith("smollm2_135m_starter") and args.model == "smollm2-135m-instruct"
    # 4 prompts of 8 generations a step, one new prompt per group for 100 steps
    assert (config.per_device_train_batch_size // config.num_generations, config.max_steps) == (4, 100)
    assert args.n_prompts >= 4 * config.max_steps
    assert config.mask_truncated_completions and config.scale_rewards == "none"
    # the warm start's corpus runs to 947 tokens: the budget leaves room (a cut sketch fails the gate)
    assert config.max_completion_length >= 947
    assert config.cache_implementation == "static" and args.compile_generation
