r"""The GRPO run's command line: our arguments, TRL's `GRPOConfig`, and the seed's flag names.

Three spellings reach the same setting, in this order of precedence: defaults < a YAML
`--config` file < the command line, where a flag may be TRL's name (`--learning_rate`), its
dashed form (`--learning-rate`), or the seed project's name (`--lr`, table `SEED_FLAGS`). So the
seed's published command runs as typed:

    trainer/watercolour_grpo.py --env-url https://you-watercolour-env.hf.space \
      --model Qwen/Qwen3.5-35B-A3B --lora --all-linear --bf16 --gradient-checkpointing \
      --subject 'a peach hibiscus' --references 4 --top-p 0.95 --top-k 20 \
      --lr 5e-5 --lr-scheduler constant_with_warmup --warmup-steps 5 --scale-rewards none \
      --steps 110 --n-episodes 240 --num-generations 8 \
      --per-device-batch-size 1 --gradient-accumulation-steps 8 --max-completion-length 8192 \
      --run-tag my-run --out you/watercolour-grpo --push-to-hub
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from watercolour_env.errors import ConfigError
from watercolour_env.limits import MAX_REVISIONS
from watercolour_trainer.training.policy import EMBEDDED_POLICY
from watercolour_trainer.training.processes import keep_multicast_off

SEED_FLAGS: dict[str, tuple[str, ...]] = {
    "--lr": ("--learning_rate",),
    "--lr-scheduler": ("--lr_scheduler_type",),
    "--steps": ("--max_steps",),
    "--per-device-batch-size": ("--per_device_train_batch_size",),
    "--run-tag": ("--run_name",),
    "--out": ("--hub_model_id",),
    "--all-linear": ("--lora_target_modules", "all-linear"),
    "--trackio-space": ("--trackio_space_id",),
}
"""The seed's flags that TRL spells differently: seed flag -> the tokens it stands for.

`--all-linear` takes no value. The seed's other flags are TRL's own dashed names (`--top-p`,
`--warmup-steps`, `--scale-rewards`, `--push-to-hub` ...) or ours (`--env-url`, `--model`,
`--subject`, `--references`, `--n-episodes`, `--lora`), which the parser knows already.
"""


@dataclass
class WatercolourArguments:
    """What to train, against which environment, and where the rollouts go."""

    env_url: str = field(default="http://127.0.0.1:8000", metadata={"help": "Environment server URL."})
    env_urls: list[str] | None = field(
        default=None,
        metadata={"help": "Several environment servers (replicas of one deployment); rollouts go to the least busy."},
    )
    env_replicas: int = field(
        default=1,
        metadata={
            "help": "With one https://<name>.hf.space URL: use the N Spaces <name>-1 .. <name>-N that "
            "`watercolour deploy --replicas N` makes."
        },
    )
    model: str = field(default=EMBEDDED_POLICY, metadata={"help": "Model id, folder, .gguf, or the embedded policy."})
    subject: str | None = field(
        default=None,
        metadata={"help": "What to paint; 'a; b; c': each in turn, row by row (each one the pool covers)."},
    )
    references: int | None = field(
        default=None,
        metadata={"help": "Pool references the judge compares each painting with, 1-32; the deployment's when unset."},
    )
    n_prompts: int = field(
        default=64,
        metadata={"help": "Dataset rows (episodes), each with its own render seed.", "aliases": ["--n-episodes"]},
    )
    base_seed: int = field(default=0, metadata={"help": "Seed of the first row; row i uses base_seed + i."})
    prime_reply: bool = field(default=False, metadata={"help": "Start every completion after the sketch boilerplate."})
    revisions: int = field(
        default=0,
        metadata={
            "help": "Paintings after the first in each episode (0: one painting). The policy paints with a tool, "
            "reads a critique and may paint again; max_completion_length covers all of it. docs/training.md"
        },
    )
    revision_reward: str = field(
        default="last", metadata={"help": "With --revisions: the episode pays its last painting's reward, or best."}
    )
    revision_images: bool = field(
        default=False,
        metadata={"help": "With --revisions: the policy sees each painting with its critique (a vision-language one)."},
    )
    chat_template_path: str | None = field(
        default=None,
        metadata={
            "help": "With --revisions: a Jinja file of a chat template that can call tools, for a policy whose own "
            "cannot (SmolLM2's ChatML is swapped for TRL's Qwen2.5 without it)."
        },
    )
    max_turn_tokens: int | None = field(
        default=None,
        metadata={
            "help": "With --revisions: the most tokens one turn may generate (a sketch in its call). TRL lets every "
            "turn run to max_completion_length and cuts the excess after. docs/training.md"
        },
    )
    stop_at_closing_fence: bool = field(default=False, metadata={"help": "End generation at the first ``` token."})
    compile_generation: bool = field(
        default=False,
        metadata={
            "help": "Let transformers compile the policy's forward for generation (with cache_implementation "
            "static, on CUDA); TRL turns it off. docs/gpu-run.md"
        },
    )
    adapter: str | None = field(
        default=None, metadata={"help": "A LoRA adapter folder (from `watercolour sft`) to start from and train on."}
    )
    lora: bool = field(default=True, metadata={"help": "Train a LoRA adapter; --no-lora trains the whole model."})
    lora_r: int = field(default=16, metadata={"help": "LoRA rank (ignored with --adapter)."})
    lora_alpha: int = field(default=32, metadata={"help": "LoRA alpha."})
    lora_target_modules: str = field(
        default="all-linear", metadata={"help": "peft target_modules: all-linear, or comma-separated module names."}
    )
    rollouts_dir: str | None = field(default=None, metadata={"help": "Rollouts folder; <output_dir>/rollouts."})
    episode_timeout_s: float | None = field(
        default=None,
        metadata={"help": "Seconds to wait for one episode; default: the server's episode deadline (/health) + 30 s."},
    )
    max_parallel: int = field(
        default=16,
        metadata={
            "help": "Episodes in flight at once, over all replicas (one socket each); with --revisions, also a "
            "turn's tool calls at once, in each process."
        },
    )
    stop_after_s: float | None = field(
        default=None,
        metadata={
            "help": "Wall-clock seconds after which the run saves a checkpoint at the end of the step it is in "
            "and stops (a machine lent by the call: resume with --resume_from_checkpoint last)."
        },
    )
    stop_file: str | None = field(
        default=None,
        metadata={
            "help": "A file whose appearance ends the run at the end of the step in progress, with a checkpoint; "
            "removed when the run has ended (bench/gpu_learn.sh --stop)."
        },
    )
    keep_best_gold: bool = field(
        default=True,
        metadata={
            "help": "With a gold scorer served, keep the checkpoint of its best window of 10 steps (training.md)."
        },
    )
    stop_on_over_optimisation: bool = field(
        default=False,
        metadata={"help": "End the run, with a checkpoint, when the gold turns (analyze's over-optimisation verdict)."},
    )
    max_unscored_share: float = field(
        default=0.25, metadata={"help": "Share of a step's rollouts that may go unscored before it logs an error."}
    )
    hub_dry_run: str | None = field(
        default=None,
        metadata={"help": "With --push-to-hub: write what would be uploaded to this folder instead of the Hub."},
    )
    env_reward_weights: str | None = field(
        default=None,
        metadata={
            "help": "Per-episode reward weights: a preset (hps-only, judge-led, hps-led, embedded) or JSON, "
            'e.g. {"gate": 0.1, "embedded": 0.9}.'
        },
    )

    def __post_init__(self) -> None:
        if self.lora_r <= 0:
            raise ConfigError(f"--lora_r must be above 0 (got {self.lora_r}); --no-lora trains the whole model")
        if self.references is not None and not 1 <= self.references <= 32:
            raise ConfigError(f"--references must be in [1, 32] (got {self.references})")
        if self.env_replicas < 1:
            raise ConfigError(f"--env-replicas must be at least 1 (got {self.env_replicas})")
        if self.max_parallel < 1:
            raise ConfigError(f"--max-parallel must be at least 1 (got {self.max_parallel})")
        if not 0 <= self.revisions <= MAX_REVISIONS:
            raise ConfigError(f"--revisions must be in [0, {MAX_REVISIONS}] (got {self.revisions})")
        if self.revision_reward not in ("last", "best"):
            raise ConfigError(f"--revision_reward must be last or best (got {self.revision_reward!r})")
        if self.revision_reward == "best" and not self.revisions:
            raise ConfigError("--revision_reward best needs --revisions K: one painting is its own best")
        if self.chat_template_path and not self.revisions:
            raise ConfigError("--chat_template_path needs --revisions K: the template is for calling the paint tool")
        if self.chat_template_path and not Path(self.chat_template_path).is_file():
            raise ConfigError(f"--chat_template_path {self.chat_template_path}: no such file (a Jinja chat template)")
        if self.max_turn_tokens is not None and not self.revisions:
            raise ConfigError("--max_turn_tokens needs --revisions K: one turn is the reply (--max_completion_length)")
        if self.max_turn_tokens is not None and self.max_turn_tokens < 1:
            raise ConfigError(f"--max_turn_tokens must be at least 1 (got {self.max_turn_tokens})")
        if self.revision_images and not self.revisions:
            raise ConfigError("--revision_images needs --revisions K: pictures are shown between paintings")
        if self.revisions and self.prime_reply:
            raise ConfigError("--prime_reply cannot go with --revisions: a primer would open every painting's reply")
        if self.revisions and self.stop_at_closing_fence:
            raise ConfigError("--stop_at_closing_fence cannot go with --revisions: a tool call holds the sketch")

    def replica_urls(self) -> list[str]:
        """Every environment URL of the run: `--env-urls`, else `--env-url` expanded by `--env-replicas`.

        Raises:
            ConfigError: `--env-replicas` above 1 with a URL that is not `https://<name>.hf.space`
                (only Spaces follow the `-1 .. -N` naming), or with `--env-urls` as well.
        """
        if self.env_urls:
            if self.env_replicas > 1:
                raise ConfigError("give either --env-urls (each replica) or --env-replicas N with one --env-url")
            return [url.rstrip("/") for url in self.env_urls]
        url = self.env_url.rstrip("/")
        if self.env_replicas == 1:
            return [url]
        if not url.endswith(".hf.space"):
            raise ConfigError(
                f"--env-replicas {self.env_replicas} needs an https://<name>.hf.space URL (its replicas are "
                f"<name>-1 .. <name>-N), not {url}; list other servers with --env-urls"
            )
        stem = url.removesuffix(".hf.space")
        return [f"{stem}-{i}.hf.space" for i in range(1, self.env_replicas + 1)]


def translate_seed_flags(argv: list[str]) -> list[str]:
    """The command line with the seed's flag names (`SEED_FLAGS`) in TRL's spelling.

    `--flag value` and `--flag=value` are both translated. A token that starts with `--` is a
    flag, as argparse reads it. Unknown flags pass through for the parser to refuse.
    """
    out: list[str] = []
    for token in argv:
        name, eq, value = token.partition("=")
        replacement = SEED_FLAGS.get(name) if token.startswith("--") else None
        if replacement is None:
            out.append(token)
        elif len(replacement) == 2:  # a flag that stands for a flag and its value
            out.extend(replacement)
        else:
            out.append(replacement[0] + eq + value)
    return _default_output_dir(out)


def _default_output_dir(argv: list[str]) -> list[str]:
    """Adds `--output_dir runs/<run name>` when neither the command line nor its YAML sets one."""
    names = {t.partition("=")[0] for t in argv if t.startswith("--")}
    if names & {"--output_dir", "--output-dir"}:
        return argv
    if "--config" in argv and argv.index("--config") + 1 < len(argv):
        import yaml

        path = Path(argv[argv.index("--config") + 1])
        config = yaml.safe_load(path.read_text()) if path.is_file() else None
        if isinstance(config, dict) and "output_dir" in config:
            return argv
    run_name = _value(argv, "--run_name") or "watercolour-grpo"
    return [*argv, "--output_dir", str(Path("runs") / run_name)]


def _value(argv: list[str], flag: str) -> str | None:
    """The value given to `flag` (`--flag value` or `--flag=value`), or None."""
    for i, token in enumerate(argv):
        if token == flag and i + 1 < len(argv):
            return argv[i + 1]
        if token.startswith(flag + "="):
            return token.partition("=")[2]
    return None


def parse_arguments(argv: list[str] | None = None):  # noqa: ANN201 (WatercolourArguments, GRPOConfig)
    """`(WatercolourArguments, GRPOConfig)` from a command line (sys.argv[1:] when None).

    Multicast stays off in this process and those it starts (`keep_multicast_off`): the parse
    is the first step that may start a process group (`TrainingArguments` under `accelerate
    launch`). Imports TRL's config (~5 s on 2 cores), nothing of its trainer.

    Raises:
        OSError: a `--config` file that cannot be opened (missing, a folder), before TRL is imported.
        ConfigError: an unknown flag (prefixes are not guessed: `--learning-rat` is refused), a
            value out of range (`WatercolourArguments.__post_init__`), a setting
            `TrainingArguments` refuses (bf16 without a GPU, say), with its message, or
            `--max_turn_tokens` with vLLM or with `generation_kwargs`' own `max_new_tokens`.
        SystemExit: argparse's refusal of a value of the wrong type (exit code 2).
    """
    import sys

    argv = list(sys.argv[1:] if argv is None else argv)
    config_file = _value(argv, "--config")
    if config_file is not None:
        with open(config_file, "rb"):  # missing, a folder, unreadable: its OSError names it, before TRL loads
            pass
    keep_multicast_off()
    from trl import GRPOConfig, TrlParser

    # a typo is refused, not guessed
    parser = TrlParser((WatercolourArguments, GRPOConfig), allow_abbrev=False, prog="watercolour train")
    parser = with_config_flag(parser, seed_aliases=True)
    args = _bare_booleans(translate_seed_flags(argv), GRPOConfig)
    _, unknown = parser.parse_known_args(args)  # argparse alone, before TrainingArguments' own checks
    unknown = [token for token in unknown if token.startswith("-")] + _unknown_config_keys(parser, args)
    if unknown:
        raise ConfigError(f"unknown flag(s) {unknown}; `watercolour train --help` lists them")
    try:
        watercolour, config = parser.parse_args_and_config(args=args)
    except ValueError as err:  # TrainingArguments' own refusals: one line, not a traceback
        message = " ".join(str(err).split())
        if "not used by the HfArgumentParser" in message:
            unknown = message.partition(": ")[2]
            raise ConfigError(f"unknown flag(s) {unknown}; `watercolour train --help` lists them") from err
        if "bf16" in message and "use_cpu" in message:
            message += " (on a machine without a GPU: --use_cpu true --bf16 false)"
        raise ConfigError(message) from err
    if watercolour.max_turn_tokens and config.use_vllm:
        raise ConfigError("--max_turn_tokens caps transformers' generate, not vLLM's: give one or the other")
    if watercolour.max_turn_tokens and "max_new_tokens" in (config.generation_kwargs or {}):
        raise ConfigError("--max_turn_tokens and --generation_kwargs' max_new_tokens both cap a turn: give one")
    return watercolour, config


def _unknown_config_keys(parser, argv: list[str]) -> list[str]:  # noqa: ANN001 (a TrlParser)
    """The keys of the `--config` YAML that no flag of `parser` takes, as `--key`; [] without one.

    Raises:
        ConfigError: a file that is YAML but not a mapping (a list, a text).
    """
    config = _value(argv, "--config")
    if config is None or not Path(config).is_file():
        return []  # TRL's own refusal names a missing file
    import yaml

    keys = yaml.safe_load(Path(config).read_text(encoding="utf-8"))
    if keys is not None and not isinstance(keys, dict):  # TRL would name its lines as flags
        raise ConfigError(f"--config {config} is not a YAML mapping of flags to values (trainer/configs/ has presets)")
    known = {action.dest for action in parser._actions}
    return [f"--{key}" for key in keys if key not in known] if keys else []


def _quiet_renamed_checkpointing() -> None:
    """Hides transformers 5's notes that gradient checkpointing is now activation checkpointing.

    They come at every parse (TRL 1.16 sets the flag) and at each call TRL makes by the old
    method names, with nothing for a user to change; other deprecations still show.
    """
    import warnings

    renamed = r"`(is_)?gradient_checkpointing(_enable|_disable)?` is deprecated"
    warnings.filterwarnings("ignore", message=renamed, category=FutureWarning)


def with_config_flag(parser, seed_aliases: bool = False):  # noqa: ANN001, ANN201 (a TrlParser, returned)
    """Lists TRL's `--config FILE` in `--help`, where TRL's own parser leaves it out.

    It goes in the description (first) and among the flags (last, after TRL's ~300); with
    `seed_aliases`, the epilog lists `SEED_FLAGS`. A refused value prints a one-line usage.

    `TrlParser.parse_args_and_config` takes `--config` and its file out of the command line
    before argparse sees it, so the flag added here only documents; with no default it adds
    nothing to the parsed dataclasses.
    """
    import argparse

    _quiet_renamed_checkpointing()  # every train and sft parser comes through here
    parser.description = (
        "Every flag can also come from a YAML file, --config FILE (trainer/configs/ has presets); "
        "flags on the command line override it. The watercolour flags come first, then TRL's."
    )
    parser.add_argument(
        "--config",
        metavar="FILE",
        default=argparse.SUPPRESS,
        help="A YAML file of these flags (trainer/configs/ has presets); flags given here override it.",
    )
    if seed_aliases:
        aliases = ", ".join(f"{seed} ({' '.join(ours)})" for seed, ours in SEED_FLAGS.items())
        parser.epilog = f"The seed project's names work too: {aliases}."
    # a refused value is one message, not the ~300 flags' usage above it
    parser.format_usage = lambda: f"usage: {parser.prog} [--config FILE] [--FLAG VALUE ...] ({parser.prog} --help)\n"
    return parser


def _bare_booleans(argv: list[str], *dataclasses_: type) -> list[str]:
    """Adds `true` after a bare flag of an optional boolean (`bf16: bool | None = None`).

    HfArgumentParser lets `--gradient-checkpointing` stand alone (a plain bool) but wants a
    value after `--bf16` (an optional one); the seed writes both bare.
    """
    import dataclasses

    optional = set()
    for cls in dataclasses_:
        for f in dataclasses.fields(cls):
            if str(f.type).replace(" ", "") in {"bool|None", "Optional[bool]"} or f.type == (bool | None):
                optional |= {f"--{f.name}", f"--{f.name.replace('_', '-')}"}
    out: list[str] = []
    for i, token in enumerate(argv):
        out.append(token)
        bare = i + 1 == len(argv) or argv[i + 1].startswith("--")
        if token in optional and bare:
            out.append("true")
    return out
