"""What every shipped YAML config must hold, whatever its numbers (no model is loaded)."""

from pathlib import Path

import pytest
from trl import GRPOConfig, SFTConfig, TrlParser

from tests.conftest import REPO
from watercolour_env.pool import STARTER_POOL
from watercolour_trainer.training.sft import SFTArguments
from watercolour_trainer.training.train import WatercolourArguments

pytestmark = pytest.mark.train

CONFIGS = REPO / "trainer" / "configs"
GRPO_CONFIGS = sorted(p for p in CONFIGS.glob("*.yaml") if not p.name.startswith("sft"))
SFT_CONFIGS = sorted(CONFIGS.glob("sft*.yaml"))


def grpo(path: Path, *extra: str) -> tuple[WatercolourArguments, GRPOConfig]:
    # bf16 needs a GPU to parse; the other values are the file's
    return TrlParser((WatercolourArguments, GRPOConfig)).parse_args_and_config(
        args=["--config", str(path), "--bf16", "false", *extra]
    )


def test_the_configs_are_found():
    assert {p.stem for p in GRPO_CONFIGS} >= {"demo", "h200-learn", "hps-only"} and SFT_CONFIGS


@pytest.mark.parametrize("path", GRPO_CONFIGS, ids=lambda p: p.stem)
def test_a_grpo_config_parses_whole_groups_a_new_prompt_each_into_its_own_folder(path):
    args, config = grpo(path)
    completions = config.per_device_train_batch_size * config.gradient_accumulation_steps
    assert completions % config.num_generations == 0  # a step takes whole groups
    groups = completions // config.num_generations
    assert args.n_prompts >= groups * config.max_steps  # no prompt (seed) is trained on twice
    assert config.output_dir == f"runs/{path.stem}"  # one folder a run, never a shipped one


@pytest.mark.parametrize("path", SFT_CONFIGS, ids=lambda p: p.stem)
def test_an_sft_config_never_learns_from_the_rewards_pool_nor_writes_over_an_adapter(path):
    args, config = TrlParser((SFTArguments, SFTConfig)).parse_args_and_config(args=["--config", str(path)])
    assert (REPO / args.pool).resolve() != STARTER_POOL.resolve()  # the gate fails a copy of the pool
    assert config.output_dir.startswith("runs/")


def test_the_h200_run_says_how_it_treats_a_cut_sketch_and_leaves_room_for_the_warm_starts():
    args, config = grpo(CONFIGS / "h200-learn.yaml")
    assert config.mask_truncated_completions  # a cut sketch fails the gate: it teaches "shorter" only
    # the warm start's corpus runs to 947 tokens (docs/LOG.md, issue 34)
    assert config.max_completion_length >= 947 and args.adapter.endswith("smollm2_135m_starter")


def test_the_revisions_run_starts_from_the_adapter_sft_tools_leaves_and_has_room_for_three_sketches():
    args, config = grpo(CONFIGS / "h200-revisions.yaml")
    sft_args, sft_config = TrlParser((SFTArguments, SFTConfig)).parse_args_and_config(
        args=["--config", str(CONFIGS / "sft-tools.yaml")]
    )
    assert args.adapter == sft_config.output_dir and args.revisions == sft_args.revisions == 2
    assert config.max_completion_length >= 3 * 947  # three of the corpus's longest sketches (docs/LOG.md)
    # a turn has room for the 64-episode table's paint calls up to their 99th percentile, 1,108 tokens (docs/LOG.md)
    assert 1108 < args.max_turn_tokens and 3 * args.max_turn_tokens <= config.max_completion_length


def test_the_second_run_asks_for_each_of_the_pools_three_subjects_in_every_step_and_keeps_its_best():
    from watercolour_env.pool import Pool
    from watercolour_trainer.training.dataset import split_subjects

    args, config = grpo(CONFIGS / "h200-three.yaml")
    subjects = split_subjects(args.subject)
    declaration = Pool.load(str(STARTER_POOL)).declaration
    assert subjects == ["a hibiscus", "a jellyfish", "a songbird on a branch"]
    assert all(declaration.subject_hint(s) for s in subjects)  # each its own line, none the generic one
    # in order, 6 prompts a step: rows i..i+5 ask for subjects i mod 3, so each step holds 2 of each
    assert not config.shuffle_dataset and config.per_device_train_batch_size // config.num_generations == 6
    assert args.keep_best_gold and config.save_total_limit >= 2  # the best and the newest both kept
    assert config.beta > 0 and args.adapter.endswith("smollm2_135m_three")
