"""GRPO on TRL against a watercolour environment server.

    watercolour train --config trainer/configs/demo.yaml [--env_url URL] [--max_steps N] ...

Arguments are `WatercolourArguments` plus TRL's `GRPOConfig`, parsed by `TrlParser`
(defaults < YAML `--config` < command line); the seed project's flag names work too
(`watercolour_trainer.training.arguments.SEED_FLAGS`).
"""

from __future__ import annotations

import json
import logging
import sys
import time
from pathlib import Path

from peft import LoraConfig
from tqdm.auto import tqdm
from transformers import TrainerCallback
from trl import GRPOTrainer

from watercolour_env.client import parse_reward_weights
from watercolour_env.errors import ConfigError
from watercolour_trainer.episodes.revisions import RevisionReward, give_tools
from watercolour_trainer.episodes.rewards import EnvironmentReward
from watercolour_trainer.record.rollouts import curve_rows
from watercolour_trainer.training.arguments import WatercolourArguments, parse_arguments
from watercolour_trainer.training.dataset import build_dataset, split_subjects
from watercolour_trainer.training.grpo_tools import ConcurrentToolsTrainer
from watercolour_trainer.training.policy import load_policy, stop_at_closing_fence
from watercolour_trainer.training.processes import SharedRolloutLog
from watercolour_trainer.training.stopping import KeepBestGold, StopWhenAsked, room_for_the_best

log = logging.getLogger(__name__)

ROOM_PER_PAINTING = 1100
"""Completion tokens an episode with revisions wants a painting, below which `train` warns: the
warm start's longest sketch (947 tokens), a tenth more as a JSON argument, and its critique
(about 80). docs/LOG.md, 2026-12-05."""


def main(argv: list[str] | None = None) -> None:
    """Parses a command line (sys.argv[1:] when None) and trains (`run`).

    Raises:
        ConfigError: as `parse_arguments` and `run`.
    """
    run(*parse_arguments(argv))


def run(args: WatercolourArguments, config) -> None:  # noqa: ANN001 (a GRPOConfig)
    """Trains with parsed arguments (`parse_arguments`'), then prints where the gallery and the curve are.

    `watercolour train` parses before it imports this module, so a refused command line costs
    TRL's config alone, not this module's peft, TRL trainer and OpenEnv client (~5 s, docs/LOG.md).

    Raises:
        ConfigError: a server that refuses the configuration, a missing adapter or checkpoint, a
            push without a repo; each before the model loads.
    """
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s", force=True)
    rank, processes = config.process_index, config.world_size  # (0, 1) unless started by accelerate launch
    if (config.push_to_hub or args.hub_dry_run) and not config.hub_model_id:
        raise ConfigError("--push-to-hub needs the repo to push to: --out <you>/<name> (or --hub_model_id)")
    started = time.perf_counter()
    judge = RevisionReward if args.revisions else EnvironmentReward
    revising = (
        {"revisions": args.revisions, "revision_reward": args.revision_reward, "images": args.revision_images}
        if args.revisions
        else {}
    )
    reward = judge(
        args.replica_urls(),
        config.num_generations,
        timeout_s=args.episode_timeout_s,
        weights=parse_reward_weights(args.env_reward_weights),
        max_unscored_share=args.max_unscored_share,
        references=args.references,
        max_parallel=args.max_parallel,
        **revising,
    )
    for subject in split_subjects(args.subject):  # a refused configuration stops here, before the model loads
        reward.check_configuration(subject)
    if args.revisions:
        reward.check_sessions(config.generation_batch_size)
    args.episode_timeout_s = reward.timeout_s  # the server's deadline plus a margin, unless given
    checkpoint = resume_checkpoint(config.resume_from_checkpoint, config.output_dir)
    if args.adapter:
        adapter_folder(args.adapter)  # before the model loads (~20 s on 2 cores)
    model, tokenizer = load_policy(args.model)
    if args.stop_at_closing_fence and stop_at_closing_fence(model, tokenizer):
        config.generation_kwargs = {
            **(config.generation_kwargs or {}),
            "eos_token_id": model.generation_config.eos_token_id,
        }
    if args.revisions:
        log.info("%s", give_tools(tokenizer, args.chat_template_path))
        if config.max_completion_length < ROOM_PER_PAINTING * (1 + args.revisions):
            log.warning(
                "--max_completion_length %d leaves %d tokens a painting of %d; the warm start's sketches run to 947 "
                "(a tenth more as the tool's argument) and a critique about 80: the exchange will be cut (docs/LOG.md)",
                config.max_completion_length,
                config.max_completion_length // (1 + args.revisions),
                1 + args.revisions,
            )
        if config.max_tool_calling_iterations is None:  # a call past the last painting is refused anyway
            config.max_tool_calling_iterations = args.revisions + 1
    if "enable_thinking" in (tokenizer.chat_template or ""):  # Qwen3 templates think unless told not to
        config.chat_template_kwargs = {"enable_thinking": False, **(config.chat_template_kwargs or {})}
    dataset = build_dataset(args, tokenizer, config.chat_template_kwargs)
    rollouts = SharedRolloutLog(
        Path(args.rollouts_dir or Path(config.output_dir) / "rollouts"),
        rank,
        processes,
        resume_after=checkpoint_step(checkpoint) if checkpoint else None,
    )
    reward.log, reward.process_index = rollouts, rank
    reward.count_tokens = lambda text: len(tokenizer(text, add_special_tokens=False)["input_ids"])
    publishing = (config.push_to_hub or args.hub_dry_run) and rank == 0
    callbacks = [publisher(args, config, reward, rollouts)] if publishing else []
    config.push_to_hub = False  # the publisher uploads the adapter and the rollouts itself
    if args.keep_best_gold or args.stop_on_over_optimisation:
        room_for_the_best(config)
    peft_config = None
    if args.adapter:
        model = load_adapter(model, args.adapter)
    elif args.lora:
        peft_config = LoraConfig(
            r=args.lora_r, lora_alpha=args.lora_alpha, target_modules=args.lora_target_modules, task_type="CAUSAL_LM"
        )
    trainer = ConcurrentToolsTrainer(
        model=model,
        reward_funcs=[reward],
        args=config,
        train_dataset=dataset,
        processing_class=tokenizer,
        peft_config=peft_config,
        callbacks=callbacks,
        environment_factory=reward.episode if args.revisions else None,
    )
    trainer.tool_workers = args.max_parallel  # a turn's tool calls at once, as many as the reward's
    if args.max_turn_tokens:  # each turn's generate, not only the last, stops at the cap
        cap = min(args.max_turn_tokens, config.max_completion_length)
        trainer.generation_config.max_new_tokens = trainer.generation_kwargs["max_new_tokens"] = cap
    if args.compile_generation:  # TRL sets disable_compile; a static cache on CUDA then decodes in eager Python
        trainer.generation_config.disable_compile = False
    log.info("%s", describe_training(trainer.model))
    StepLine(reward, rollouts).attach(trainer)
    if args.stop_after_s is not None or args.stop_file:
        trainer.add_callback(StopWhenAsked(args.stop_after_s, args.stop_file))
    if args.keep_best_gold or args.stop_on_over_optimisation:
        trainer.add_callback(KeepBestGold(rollouts, stop=args.stop_on_over_optimisation))
    trainer.train(resume_from_checkpoint=str(checkpoint) if checkpoint else None)
    rollouts.flush()
    if rank == 0:
        summary(rollouts, time.perf_counter() - started)


class StepLine(TrainerCallback):
    """After each logged step, one line: the reward, the environment's shares, and the time split.

    `step 3/110: reward 0.431 (std 0.120), gate failures 12%, unscored 0% | generation 44 s,
    environment 6 s, optimisation 4 s`. Generation is the time in TRL's generate-and-score minus
    the reward function's; optimisation is the rest of the step. Under `accelerate launch` it also
    sends each generation round's rollouts to the first process (`SharedRolloutLog.share`), which
    alone prints. The three times also go into the step's entry of `trainer_state.json`
    (`time/generation_s`, `time/environment_s`, `time/step_s`), which `watercolour analyze` reads.
    """

    def __init__(self, reward: EnvironmentReward, rollouts: SharedRolloutLog | None = None) -> None:
        self.reward, self.rollouts = reward, rollouts
        self.generating = self.rewarding = 0.0
        self.started = time.perf_counter()

    def attach(self, trainer: GRPOTrainer) -> None:
        """Adds itself to `trainer` and times its generate-and-score calls."""
        generate = trainer._generate_and_score_completions

        def timed(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202
            started, in_reward = time.perf_counter(), self.reward.seconds
            try:
                return generate(*args, **kwargs)
            finally:
                self.generating += time.perf_counter() - started
                self.rewarding += self.reward.seconds - in_reward
                if self.rollouts is not None:
                    self.rollouts.share()

        trainer._generate_and_score_completions = timed
        trainer.add_callback(self)

    def on_step_begin(self, args, state, control, **kwargs) -> None:  # noqa: ANN001, ANN003
        """Starts the step's clock."""
        self.started, self.generating, self.rewarding = time.perf_counter(), 0.0, 0.0

    def on_log(self, args, state, control, logs=None, **kwargs) -> None:  # noqa: ANN001, ANN003
        """Prints the line for a step's log (not for the run's closing summary)."""
        if not logs or "reward" not in logs or not state.is_world_process_zero:
            return
        step_s = time.perf_counter() - self.started

        def share(name: str) -> str:
            value = logs.get(f"env/{name}_share")
            return "n/a" if value is None else f"{float(value):.0%}"

        reward = "n/a" if logs.get("reward") is None else f"{float(logs['reward']):.3f}"
        std = "n/a" if logs.get("reward_std") is None else f"{float(logs['reward_std']):.3f}"
        generation = self.generating - self.rewarding
        if state.log_history and state.log_history[-1].get("step") == state.global_step:  # into trainer_state.json
            state.log_history[-1].update(
                {
                    "time/generation_s": round(generation, 2),
                    "time/environment_s": round(self.rewarding, 2),
                    "time/step_s": round(step_s, 2),
                }
            )
        tqdm.write(
            f"step {state.global_step}/{state.max_steps}: reward {reward} (std {std}), gate failures "
            f"{share('gate_fail')}, unscored {share('unscored')} | generation {generation:.0f} s, "
            f"environment {self.rewarding:.0f} s, optimisation {max(0.0, step_s - self.generating):.0f} s"
        )


def publisher(args: WatercolourArguments, config, reward: EnvironmentReward, rollouts: SharedRolloutLog):  # noqa: ANN001, ANN201
    """The `HubPublisher` of a run with `--push-to-hub` or `--hub-dry-run` (`main` checked the repo)."""
    from watercolour_trainer.training.publish import HubPublisher

    identity = reward.replicas.reference or {}
    about = {
        "base_model": args.model,
        "environments": ", ".join(reward.replicas.urls),
        "pool_source": identity.get("pool source", "unknown"),
        "pool_revision": identity.get("pool revision", "?"),
        "weights": args.env_reward_weights or identity.get("reward weights", "the deployment's"),
        "run_name": config.run_name or "unnamed",
        "num_generations": config.num_generations,
    }
    dry_run = Path(args.hub_dry_run) if args.hub_dry_run else None
    return HubPublisher(config.hub_model_id, rollouts.folder, about, dry_run=dry_run, token=config.hub_token)


def describe_training(model) -> str:  # noqa: ANN001 (a transformers or peft model)
    """One line: trainable and total parameters, LoRA's modules, and whether fused experts got any.

    The line counts the modules that got LoRA adapters by name and, on a mixture-of-experts
    model, how many expert blocks did. Transformers 5 builds Qwen3-MoE's experts fused (one
    module holding every expert's weights as 3-D parameters); peft 0.21's `all-linear` adapts
    them through a parameter wrapper (`experts.gate_up_proj`, `experts.down_proj`), which older
    versions did not (the seed's run left them frozen). Measured: docs/LOG.md, issue 16.
    """
    import re
    from collections import Counter

    trainable = sum(p.numel() for p in model.parameters() if p.requires_grad)
    total = sum(p.numel() for p in model.parameters())
    adapted: Counter[str] = Counter()
    wrapped: set[str] = set()  # modules holding an adapter, ".base_layer" links removed
    experts: list[str] = []
    for name, module in model.named_modules():
        plain = re.sub(r"(\.base_layer)+", "", name)
        if hasattr(module, "lora_A") and hasattr(module, "base_layer"):
            # a peft ParamWrapper adapts one parameter of a module (a fused experts tensor)
            parameter = getattr(module, "parameter_name", None)
            label = plain.rsplit(".", 1)[-1] + (f".{parameter}" if parameter else "")
            adapted[label] += 1
            wrapped.add(plain)
        if type(module).__name__.endswith("Experts"):
            experts.append(plain)
    line = f"trainable parameters: {trainable:,} of {total:,} ({100 * trainable / max(total, 1):.2f}%)"
    if adapted:
        line += "; LoRA on " + ", ".join(f"{n} x{k}" for n, k in sorted(adapted.items()))
    if experts:
        with_adapter = sum(1 for e in experts if e in wrapped)
        line += f"; fused experts: {with_adapter} of {len(experts)} blocks adapted"
        if not with_adapter:
            line += " (their 3-D weights are not nn.Linear: all-linear passed them by)"
    return line


def resume_checkpoint(value: str | None, output_dir: str) -> Path | None:
    """The checkpoint folder `--resume_from_checkpoint` names, or None when it names none.

    `value` is a checkpoint folder, or `true`/`last` for the newest complete `checkpoint-<step>`
    in `output_dir` (checkpoints come from `--save_strategy steps --save_steps N`); one whose
    `trainer_state.json` is missing or does not read, as a save cut short leaves it, is passed over.

    Raises:
        ConfigError: the folder, or any checkpoint in `output_dir`, is missing.
    """
    if not value:
        return None
    if value.lower() in {"true", "last"}:
        found = [p for p in Path(output_dir).glob("checkpoint-*") if p.name.split("-", 1)[1].isdigit()]
        for folder in sorted(found, key=lambda p: int(p.name.split("-", 1)[1]), reverse=True):
            try:
                json.loads((folder / "trainer_state.json").read_text(encoding="utf-8"))
            except (OSError, ValueError):  # a save cut short (the machine went back): the one before
                log.warning("%s is incomplete (no trainer_state.json that reads): passed over", folder)
                continue
            return folder
        raise ConfigError(f"--resume_from_checkpoint {value}: no checkpoint-<step> folder in {output_dir}")
    if not (Path(value) / "trainer_state.json").is_file():
        raise ConfigError(f"--resume_from_checkpoint {value}: not a checkpoint folder (no trainer_state.json)")
    return Path(value)


def checkpoint_step(checkpoint: Path) -> int:
    """The optimiser step a checkpoint was saved at (its trainer_state.json's `global_step`)."""
    return int(json.loads((checkpoint / "trainer_state.json").read_text())["global_step"])


def adapter_folder(adapter: str) -> Path:
    """`adapter` as a folder that holds a LoRA adapter (its `adapter_config.json` and its weights).

    Raises:
        ConfigError: the folder holds no adapter, or its config without the weights (peft would
            then look for them on the Hub and say the folder is not a repository id).
    """
    if not (Path(adapter) / "adapter_config.json").is_file():
        raise ConfigError(f"--adapter {adapter}: no adapter_config.json there (make one with `watercolour sft`)")
    if not any((Path(adapter) / name).is_file() for name in ADAPTER_WEIGHTS):
        raise ConfigError(f"--adapter {adapter}: adapter_config.json but no {' or '.join(ADAPTER_WEIGHTS)} beside it")
    return Path(adapter)


ADAPTER_WEIGHTS = ("adapter_model.safetensors", "adapter_model.bin")
"""The names peft saves an adapter's weights under."""


def load_adapter(model, adapter: str):  # noqa: ANN001, ANN201 (a transformers model in, a PeftModel out)
    """The model with a trainable LoRA adapter from `adapter` (a folder written by `watercolour sft`).

    Raises:
        ConfigError: the folder holds no adapter.
    """
    from peft import PeftModel

    return PeftModel.from_pretrained(model, str(adapter_folder(adapter)), is_trainable=True)


def summary(rollouts: SharedRolloutLog, elapsed_s: float) -> None:
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


# `accelerate launch -m watercolour_trainer.training.train ...`: errors as `watercolour train`'s
if __name__ == "__main__":
    from watercolour_env.failures import one_line

    try:
        main(sys.argv[1:])
    except (Exception, KeyboardInterrupt) as err:  # noqa: BLE001 - one line and the table's code, as the CLI
        line, code = one_line(err)
        print(f"error: {line}", file=sys.stderr)
        raise SystemExit(int(code)) from None
