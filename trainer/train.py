"""GRPO on TRL against a watercolour environment server.

    watercolour train --config trainer/configs/demo.yaml [--env_url URL] [--max_steps N] ...

Arguments are `WatercolourArguments` plus TRL's `GRPOConfig`, parsed by `TrlParser`
(defaults < YAML `--config` < command line).
"""

from __future__ import annotations

import json
import logging
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from datasets import Dataset
from peft import LoraConfig
from transformers.trainer_utils import get_last_checkpoint
from trl import GRPOConfig, GRPOTrainer, TrlParser

from watercolour_env import WatercolourEnv
from watercolour_env.client import parse_reward_weights
from watercolour_env.errors import ConfigError
from watercolour_env.server.prompt import DEFAULT_SUBJECT, REPLY_PRIMER
from watercolour_trainer.policy import EMBEDDED_POLICY, load_policy, stop_at_closing_fence
from watercolour_trainer.rewards import EnvironmentReward
from watercolour_trainer.rollouts import RolloutLog, curve_rows

log = logging.getLogger(__name__)


@dataclass
class WatercolourArguments:
    """What to train, against which environment, and where the rollouts go."""

    env_url: str = field(default="http://127.0.0.1:8000", metadata={"help": "Environment server URL."})
    model: str = field(default=EMBEDDED_POLICY, metadata={"help": "Model id, folder, .gguf, or the embedded policy."})
    subject: str = field(default=DEFAULT_SUBJECT, metadata={"help": "What every prompt asks to paint."})
    n_prompts: int = field(default=64, metadata={"help": "Dataset rows, each with its own render seed."})
    base_seed: int = field(default=0, metadata={"help": "Seed of the first row; row i uses base_seed + i."})
    prime_reply: bool = field(default=False, metadata={"help": "Start every completion after the sketch boilerplate."})
    stop_at_closing_fence: bool = field(default=False, metadata={"help": "End generation at the first ``` token."})
    adapter: str | None = field(
        default=None, metadata={"help": "A LoRA adapter folder (from `watercolour sft`) to start from and train on."}
    )
    lora_r: int = field(default=16, metadata={"help": "LoRA rank; 0 trains the full model (ignored with --adapter)."})
    lora_alpha: int = field(default=32, metadata={"help": "LoRA alpha."})
    lora_target_modules: str = field(default="all-linear", metadata={"help": "peft target_modules."})
    rollouts_dir: str | None = field(default=None, metadata={"help": "Rollouts folder; <output_dir>/rollouts."})
    episode_timeout_s: float | None = field(
        default=None,
        metadata={"help": "Seconds to wait for one episode; default: the server's episode deadline (/health) + 30 s."},
    )
    max_unscored_share: float = field(
        default=0.25, metadata={"help": "Share of a step's rollouts that may go unscored before it logs an error."}
    )
    env_reward_weights: str | None = field(
        default=None,
        metadata={
            "help": "Per-episode reward weights: a preset (hps-only, judge-led, hps-led, embedded) or JSON, "
            'e.g. {"gate": 0.1, "embedded": 0.9}.'
        },
    )


def build_dataset(args: WatercolourArguments, tokenizer) -> Dataset:  # noqa: ANN001
    """One row per prompt from the environment's own `reset` (system prompt + subject).

    With `prime_reply`, the prompt is the chat-templated text followed by the reply primer and
    the primer travels in column `reply_primer` so the reward sends primer + completion.
    """
    rows = []
    with WatercolourEnv(base_url=args.env_url, message_timeout_s=args.episode_timeout_s).sync() as env:
        for i in range(args.n_prompts):
            obs = env.reset(seed=args.base_seed + i, subject=args.subject).observation
            messages = [{"role": "system", "content": obs.system_prompt}, {"role": "user", "content": obs.prompt}]
            if args.prime_reply:
                text = tokenizer.apply_chat_template(messages, add_generation_prompt=True, tokenize=False)
                rows.append(
                    {
                        "prompt": text + REPLY_PRIMER,
                        "reply_primer": REPLY_PRIMER,
                        "seed": obs.seed,
                        "subject": obs.subject,
                    }
                )
            else:
                rows.append({"prompt": messages, "reply_primer": "", "seed": obs.seed, "subject": obs.subject})
    return Dataset.from_list(rows)


def main(argv: list[str] | None = None) -> None:
    """Trains, then prints where the gallery and the curve are."""
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s", force=True)
    parser = TrlParser((WatercolourArguments, GRPOConfig))
    args, config = parser.parse_args_and_config(args=argv)
    started = time.perf_counter()
    reward = EnvironmentReward(
        args.env_url,
        config.num_generations,
        timeout_s=args.episode_timeout_s,
        weights=parse_reward_weights(args.env_reward_weights),
        max_unscored_share=args.max_unscored_share,
    )
    reward.check_configuration(args.subject)  # a refused configuration stops here, before the model loads
    args.episode_timeout_s = reward.timeout_s  # the server's deadline plus a margin, unless given
    checkpoint = resume_checkpoint(config.resume_from_checkpoint, config.output_dir)
    model, tokenizer = load_policy(args.model)
    if args.stop_at_closing_fence and stop_at_closing_fence(model, tokenizer):
        config.generation_kwargs = {
            **(config.generation_kwargs or {}),
            "eos_token_id": model.generation_config.eos_token_id,
        }
    dataset = build_dataset(args, tokenizer)
    rollouts = RolloutLog(
        Path(args.rollouts_dir or Path(config.output_dir) / "rollouts"),
        resume_after=checkpoint_step(checkpoint) if checkpoint else None,
    )
    reward.log = rollouts
    reward.count_tokens = lambda text: len(tokenizer(text, add_special_tokens=False)["input_ids"])
    peft_config = None
    if args.adapter:
        model = load_adapter(model, args.adapter)
    elif args.lora_r > 0:
        peft_config = LoraConfig(
            r=args.lora_r, lora_alpha=args.lora_alpha, target_modules=args.lora_target_modules, task_type="CAUSAL_LM"
        )
    trainer = GRPOTrainer(
        model=model,
        reward_funcs=[reward],
        args=config,
        train_dataset=dataset,
        processing_class=tokenizer,
        peft_config=peft_config,
    )
    trainable = sum(p.numel() for p in trainer.model.parameters() if p.requires_grad)
    log.info("trainable parameters: %d", trainable)
    trainer.train(resume_from_checkpoint=str(checkpoint) if checkpoint else None)
    rollouts.flush()
    summary(rollouts, time.perf_counter() - started)


def resume_checkpoint(value: str | None, output_dir: str) -> Path | None:
    """The checkpoint folder `--resume_from_checkpoint` names, or None when it names none.

    `value` is a checkpoint folder, or `true`/`last` for the newest `checkpoint-<step>` in
    `output_dir` (checkpoints come from `--save_strategy steps --save_steps N`).

    Raises:
        ConfigError: the folder, or any checkpoint in `output_dir`, is missing.
    """
    if not value:
        return None
    if value.lower() in {"true", "last"}:
        last = get_last_checkpoint(output_dir) if Path(output_dir).is_dir() else None
        if last is None:
            raise ConfigError(f"--resume_from_checkpoint {value}: no checkpoint-<step> folder in {output_dir}")
        return Path(last)
    if not (Path(value) / "trainer_state.json").is_file():
        raise ConfigError(f"--resume_from_checkpoint {value}: not a checkpoint folder (no trainer_state.json)")
    return Path(value)


def checkpoint_step(checkpoint: Path) -> int:
    """The optimiser step a checkpoint was saved at (its trainer_state.json's `global_step`)."""
    return int(json.loads((checkpoint / "trainer_state.json").read_text())["global_step"])


def load_adapter(model, adapter: str):  # noqa: ANN001, ANN201 (a transformers model in, a PeftModel out)
    """The model with a trainable LoRA adapter from `adapter` (a folder written by `watercolour sft`).

    Raises:
        ConfigError: the folder holds no adapter.
    """
    from peft import PeftModel

    if not (Path(adapter) / "adapter_config.json").is_file():
        raise ConfigError(f"--adapter {adapter}: no adapter_config.json there (make one with `watercolour sft`)")
    return PeftModel.from_pretrained(model, adapter, is_trainable=True)


def summary(rollouts: RolloutLog, elapsed_s: float) -> None:
    """Prints the per-step reward means and where the outputs are."""
    print(f"\nTraining finished in {elapsed_s:.0f} s.")
    for row in curve_rows(rollouts.rollouts):
        mean = "n/a" if row["reward_mean"] == "" else f"{row['reward_mean']:.3f}"
        std = "n/a" if row["reward_std"] == "" else f"{row['reward_std']:.3f}"
        print(
            f"  step {row['step']}: reward mean {mean} std {std}, "
            f"gate failures {row['gate_fail_fraction']}, infra failures {row['infra_fail_fraction']}"
        )
    print(f"Gallery: {(rollouts.folder / 'gallery.html').resolve()}")
    print(f"Curve:   {(rollouts.folder / 'curve.csv').resolve()}")
    print(f"Rollouts: {(rollouts.folder / 'rollouts.jsonl').resolve()}")


if __name__ == "__main__":
    main(sys.argv[1:])
