"""Supervised fine-tuning on a pool's sketches: the first stage of the recipe, before GRPO.

    watercolour sft [--pool PATH] [--tiers love,okay] [--model ...] --output_dir runs/sft [SFTConfig flags]

Each painting of the chosen tiers becomes one conversational prompt-completion example: the
environment's own system prompt and user prompt for the painting's subject, and the sketch as
the assistant's reply in a ```js block, so the policy learns the exact shape a reply must have.
The loss is on the completion only (TRL's default for prompt-completion data). The output is a
LoRA adapter (peft) in `output_dir`, which `watercolour train --adapter DIR` starts GRPO from.

Arguments are `SFTArguments` plus TRL's `SFTConfig`, parsed by `TrlParser` (defaults < YAML
`--config` < command line), as in `watercolour train`.
"""

from __future__ import annotations

import json
import logging
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from trl import SFTConfig, TrlParser

from watercolour_env.errors import ConfigError
from watercolour_env.limits import MAX_REVISIONS
from watercolour_env.pool import Pool, Tier
from watercolour_env.prompt import system_prompt, user_prompt
from watercolour_trainer import PACKAGE
from watercolour_trainer.training.arguments import with_config_flag
from watercolour_trainer.training.policy import EMBEDDED_POLICY

log = logging.getLogger(__name__)

WARMSTART_CORPUS = PACKAGE / "corpus" / "warmstart"
"""The warm start's own 48 hibiscus sketches (its README), kept apart from the reward's pool: a policy
fine-tuned on the pool it is judged against learns its answers, and the copy guard fails them."""


@dataclass
class SFTArguments:
    """Which pool, which tiers, which model, and the adapter's shape."""

    pool: str = field(
        default=str(WARMSTART_CORPUS),
        metadata={"help": "Sketches to learn from: a pool folder or user/name@revision; not the reward's pool."},
    )
    tiers: str = field(default="love,okay", metadata={"help": "Comma-separated tiers to learn from."})
    model: str = field(default=EMBEDDED_POLICY, metadata={"help": "Model id, folder, .gguf, or the embedded policy."})
    lora_r: int = field(default=16, metadata={"help": "LoRA rank (> 0)."})
    lora_alpha: int = field(default=32, metadata={"help": "LoRA alpha."})
    lora_target_modules: str = field(default="all-linear", metadata={"help": "peft target_modules."})
    revisions: int = field(
        default=0,
        metadata={
            "help": "Teach the form of `watercolour train --revisions K`: each example paints 1 + K sketches "
            "through the paint tool, with the critiques of the server at --env_url (0: one reply in a code block)."
        },
    )
    env_url: str | None = field(default=None, metadata={"help": "With --revisions: the server that critiques."})
    max_sketch_tokens: int = field(
        default=0,
        metadata={
            "help": "Learn only from sketches of at most this many tokens (0: all); shorter replies decode sooner."
        },
    )


def sketch_examples(pool: Pool, tiers: list[Tier]) -> list[dict]:
    """One prompt-completion example per painting of `tiers`, in pool order.

    The system prompt carries the pool's hint and the user prompt the painting's own subject
    (`pool.toml` and each row's `subject`), so a pool of jellyfish teaches jellyfish.

    Returns:
        Rows with `prompt` ([system, user] messages), `completion` ([assistant] message, the
        sketch in a ```js block), and `id` / `tier` / `subject` for provenance.

    Raises:
        ConfigError: no painting of these tiers has a sketch.
    """
    rows = []
    for tier in tiers:
        for ref in pool.tier(tier):
            if not ref.sketch.strip():
                continue
            rows.append(
                {
                    "prompt": [
                        {"role": "system", "content": system_prompt(pool.declaration.hint)},
                        {
                            "role": "user",
                            "content": user_prompt(ref.subject, hint=pool.declaration.subject_hint(ref.subject)),
                        },
                    ],
                    "completion": [{"role": "assistant", "content": f"```js\n{ref.sketch.strip()}\n```"}],
                    "id": ref.id,
                    "tier": tier.value,
                    "subject": ref.subject,
                }
            )
    if not rows:
        raise ConfigError(f"the pool {pool.source} has no sketches in tiers {', '.join(t.value for t in tiers)}")
    return rows


def at_most(rows: list[dict], max_tokens: int, count_tokens: Callable[[str], int]) -> list[dict]:
    """The rows whose sketch (the whole reply, fences included) is at most `max_tokens` tokens.

    Raises:
        ConfigError: none is that short.
    """
    kept = [r for r in rows if count_tokens(r["completion"][0]["content"]) <= max_tokens]
    if not kept:
        raise ConfigError(f"--max_sketch_tokens {max_tokens}: no sketch of these tiers is that short")
    return kept


def parse_tiers(text: str) -> list[Tier]:
    """`love,okay` -> [Tier.LOVE, Tier.OKAY].

    Raises:
        ConfigError: an unknown tier name.
    """
    try:
        return [Tier(name.strip()) for name in text.split(",") if name.strip()]
    except ValueError as err:
        raise ConfigError(f"--tiers {text!r}: tiers are love, okay and nope ({err})") from err


def _jinja(path: str | None) -> str | None:
    """`--chat_template_path` for the tool form: a Jinja file, read before the examples are built.

    TRL's `SFTTrainer` reads a `.jinja` or `.j2` file as the template (again, the same text) and
    takes any other path as a tokenizer to clone a template from, after the tool form would have
    been checked.

    Raises:
        ConfigError: a path that is not a `.jinja` or `.j2` file.
    """
    if path is None or path.endswith((".jinja", ".j2")):
        return path
    raise ConfigError(f"--chat_template_path with --revisions takes a .jinja or .j2 file (got {path})")


def cpu_defaults() -> list[str]:
    """Flags put before the user's on a machine without a GPU: SFTConfig's bf16 default cannot run there.

    The user's own flags come later on the command line and win.
    """
    import torch

    return [] if torch.cuda.is_available() else ["--use_cpu", "true", "--bf16", "false"]


def main(argv: list[str] | None = None) -> Path:
    """Fine-tunes and saves the adapter; returns its folder.

    Raises:
        ConfigError: an unknown tier, a pool without sketches in them, or `--lora_r 0`.
    """
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s", force=True)
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = with_config_flag(TrlParser((SFTArguments, SFTConfig), prog="watercolour sft"))
    args, config = parser.parse_args_and_config(args=cpu_defaults() + argv)
    if args.lora_r <= 0:
        raise ConfigError("--lora_r must be above 0: sft writes a LoRA adapter for `watercolour train --adapter`")
    if not 0 <= args.revisions <= MAX_REVISIONS:
        raise ConfigError(f"--revisions must be in [0, {MAX_REVISIONS}] (got {args.revisions})")
    if args.revisions and not args.env_url:
        raise ConfigError("--revisions needs --env_url: the critiques an example's paintings get come from a server")
    if args.env_url and not args.revisions:
        raise ConfigError("--env_url is read only with --revisions K (the critiques of a tool-form example)")
    # what a refusal above did not need: peft, datasets, TRL's trainer, the OpenEnv client (~5 s, docs/LOG.md)
    from datasets import Dataset
    from peft import LoraConfig
    from trl import SFTTrainer

    from watercolour_trainer.episodes.revisions import check_revisions, give_tools, tool_examples
    from watercolour_trainer.training.policy import load_policy

    if args.revisions:
        check_revisions(args.env_url, args.revisions)  # before the model loads (~20 s on 2 cores)
    template = _jinja(config.chat_template_path) if args.revisions else None
    started = time.perf_counter()
    pool = Pool.load(args.pool)
    rows = sketch_examples(pool, parse_tiers(args.tiers))
    log.info("SFT on %d sketches of %s (%s)", len(rows), pool.source, args.tiers)
    model, tokenizer = load_policy(args.model)
    if args.max_sketch_tokens > 0:
        rows = at_most(rows, args.max_sketch_tokens, lambda t: len(tokenizer(t, add_special_tokens=False)["input_ids"]))
        log.info("%d of them are at most %d tokens", len(rows), args.max_sketch_tokens)
    if args.revisions:
        rows = tool_examples(rows, args.revisions, args.env_url)
        config.assistant_only_loss = True  # the critiques are read, not written: no loss on them
        log.info("%s; %d examples of %d paintings each", give_tools(tokenizer, template), len(rows), 1 + args.revisions)
    peft_config = LoraConfig(
        r=args.lora_r, lora_alpha=args.lora_alpha, target_modules=args.lora_target_modules, task_type="CAUSAL_LM"
    )
    trainer = SFTTrainer(
        model=model,
        args=config,
        train_dataset=Dataset.from_list(rows).remove_columns(["id", "tier", "subject"]),
        processing_class=tokenizer,
        peft_config=peft_config,
    )
    result = trainer.train()
    out = Path(config.output_dir)
    trainer.save_model(str(out))
    provenance = {
        "model": args.model,
        "pool": pool.source,
        "tiers": args.tiers,
        "max_sketch_tokens": args.max_sketch_tokens,
        "revisions": args.revisions,
        "examples": [r["id"] for r in rows],
        "train_loss": result.training_loss,
        "steps": result.global_step,
        "seconds": round(time.perf_counter() - started, 1),
        "command": "watercolour sft " + " ".join(argv),
    }
    (out / "sft_provenance.json").write_text(json.dumps(provenance, indent=2) + "\n")
    seconds, loss = provenance["seconds"], result.training_loss
    print(f"\nSFT finished in {seconds:.0f} s, {result.global_step} steps, loss {loss:.3f}.")
    print(f"Adapter: {out.resolve()}  (start GRPO from it: watercolour train --adapter {out} ...)")
    return out


if __name__ == "__main__":
    main(sys.argv[1:])
