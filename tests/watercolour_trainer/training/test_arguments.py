"""The seed's published command parses, flag by flag, to the settings it means (no model loads)."""

import shlex
import warnings

import pytest

from watercolour_env.errors import ConfigError
from watercolour_trainer.training.arguments import parse_arguments, translate_seed_flags

pytestmark = pytest.mark.train

# The seed's command after `--`, as published (docs: ../shared/seeds), with our script path.
SEED_COMMAND = """
  --env-url https://you-watercolour-env.hf.space
  --model Qwen/Qwen3.5-35B-A3B --lora --all-linear --bf16 --gradient-checkpointing
  --subject 'a peach hibiscus' --references 4 --top-p 0.95 --top-k 20
  --lr 5e-5 --lr-scheduler constant_with_warmup --warmup-steps 5 --scale-rewards none
  --steps 110 --n-episodes 240 --num-generations 8
  --per-device-batch-size 1 --gradient-accumulation-steps 8 --max-completion-length 8192
  --run-tag my-run --out you/watercolour-grpo --push-to-hub
"""

# (which object, attribute, the value the seed meant): one row per flag of the command
EXPECTED = [
    ("args", "env_url", "https://you-watercolour-env.hf.space"),  # --env-url
    ("args", "model", "Qwen/Qwen3.5-35B-A3B"),  # --model
    ("args", "lora", True),  # --lora
    ("args", "lora_target_modules", "all-linear"),  # --all-linear
    ("config", "bf16", True),  # --bf16
    ("config", "gradient_checkpointing", True),  # --gradient-checkpointing
    ("args", "subject", "a peach hibiscus"),  # --subject
    ("args", "references", 4),  # --references: references per episode, sent at reset
    ("config", "top_p", 0.95),  # --top-p
    ("config", "top_k", 20),  # --top-k
    ("config", "learning_rate", 5e-5),  # --lr
    ("config", "lr_scheduler_type", "constant_with_warmup"),  # --lr-scheduler
    ("config", "warmup_steps", 5),  # --warmup-steps
    ("config", "scale_rewards", "none"),  # --scale-rewards
    ("config", "max_steps", 110),  # --steps
    ("args", "n_prompts", 240),  # --n-episodes: dataset rows
    ("config", "num_generations", 8),  # --num-generations
    ("config", "per_device_train_batch_size", 1),  # --per-device-batch-size
    ("config", "gradient_accumulation_steps", 8),  # --gradient-accumulation-steps
    ("config", "max_completion_length", 8192),  # --max-completion-length
    ("config", "run_name", "my-run"),  # --run-tag
    ("config", "hub_model_id", "you/watercolour-grpo"),  # --out: the Hub repo
    ("config", "push_to_hub", True),  # --push-to-hub
    ("config", "output_dir", "runs/my-run"),  # not in the command: named after the run
]


@pytest.fixture(scope="module")
def seed_run():
    args, config = parse_arguments(shlex.split(SEED_COMMAND) + ["--use_cpu", "true"])  # no GPU here
    return {"args": args, "config": config}


@pytest.mark.parametrize("where, name, value", EXPECTED, ids=[row[1] for row in EXPECTED])
def test_every_flag_of_the_seeds_command_parses_to_what_it_means(seed_run, where, name, value):
    assert getattr(seed_run[where], name) == value


def test_the_seeds_group_is_8_completions_of_one_prompt_per_optimiser_step(seed_run):
    config = seed_run["config"]
    # 1 per device x 8 accumulated = 8 completions per step = one group of 8
    assert config.per_device_train_batch_size * config.gradient_accumulation_steps == config.num_generations == 8


def test_trl_names_yaml_and_seed_names_reach_the_same_settings(tmp_path):
    config_file = tmp_path / "run.yaml"
    config_file.write_text("learning_rate: 1.0e-4\nmax_steps: 7\nn_prompts: 9\noutput_dir: out/yaml\n")
    _, by_trl = parse_arguments(["--learning_rate", "3e-5", "--max_steps", "4", "--use_cpu", "true"])
    _, by_seed = parse_arguments(["--lr=3e-5", "--steps", "4", "--use_cpu", "true"])
    assert (by_trl.learning_rate, by_trl.max_steps) == (by_seed.learning_rate, by_seed.max_steps) == (3e-5, 4)
    args, by_yaml = parse_arguments(["--config", str(config_file), "--steps", "5", "--use_cpu", "true"])
    # the command line beats the YAML, which beats the default; the YAML's output_dir stands
    assert (by_yaml.learning_rate, by_yaml.max_steps, args.n_prompts) == (1e-4, 5, 9)
    assert by_yaml.output_dir == "out/yaml"


def test_no_lora_trains_the_whole_model_and_a_bad_value_is_refused_by_name():
    args, _ = parse_arguments(["--no-lora", "--use_cpu", "true"])
    assert args.lora is False
    with pytest.raises(ConfigError, match="--references must be in"):
        parse_arguments(["--references", "0", "--use_cpu", "true"])
    with pytest.raises(ConfigError, match="unknown flag"):  # a typo, not a prefix to guess from
        parse_arguments(["--learning-rat", "1e-4", "--use_cpu", "true"])


def test_only_flags_are_translated_never_values():
    assert translate_seed_flags(["--subject", "a lr", "--lr", "1e-4", "--output_dir", "x"]) == [
        "--subject",
        "a lr",
        "--learning_rate",
        "1e-4",
        "--output_dir",
        "x",
    ]
    assert translate_seed_flags(["--all-linear", "--out=me/run", "--output-dir", "y"]) == [
        "--lora_target_modules",
        "all-linear",
        "--hub_model_id=me/run",
        "--output-dir",
        "y",
    ]


@pytest.mark.parametrize(
    "flags, urls",
    [
        (["--env-url", "http://127.0.0.1:8000"], ["http://127.0.0.1:8000"]),
        (["--env-urls", "http://a:1", "http://b:2/"], ["http://a:1", "http://b:2"]),
        (
            ["--env-url", "https://you-watercolour-env.hf.space", "--env-replicas", "3"],
            [f"https://you-watercolour-env-{i}.hf.space" for i in (1, 2, 3)],
        ),
    ],
)
def test_the_replicas_of_a_run(flags, urls):
    args, _ = parse_arguments([*flags, "--use_cpu", "true"])
    assert args.replica_urls() == urls


def test_replicas_of_a_url_that_is_not_a_space_are_refused():
    args, _ = parse_arguments(["--env-url", "http://127.0.0.1:8000", "--env-replicas", "2", "--use_cpu", "true"])
    with pytest.raises(ConfigError, match="hf.space"):
        args.replica_urls()


@pytest.mark.parametrize("run, weights", [("hps-only", "hps-only"), ("judge-led", "judge-led"), ("hps-led", "hps-led")])
def test_each_published_runs_config_is_the_seeds_command_with_its_weights(seed_run, run, weights):
    from tests.conftest import REPO

    args, config = parse_arguments(["--config", str(REPO / "trainer" / "configs" / f"{run}.yaml"), "--use_cpu", "true"])
    assert args.env_reward_weights == weights and config.run_name == run and config.output_dir == f"runs/{run}"
    assert config.report_to == ["trackio"]
    for where, name, value in EXPECTED:
        if name in {"env_url", "run_name", "hub_model_id", "push_to_hub", "output_dir"}:
            continue  # the user's: where the environment is, where the adapter goes
        assert getattr(args if where == "args" else config, name) == value, name


def test_a_setting_trainingarguments_refuses_is_one_line_that_says_what_to_set():
    import torch

    if torch.cuda.is_available():
        pytest.skip("a GPU here takes bf16")
    with pytest.raises(ConfigError, match="--use_cpu true --bf16 false") as refused:
        parse_arguments(["--bf16", "true", "--use_cpu", "false"])
    assert "\n" not in str(refused.value)


@pytest.mark.parametrize(
    ("command", "flags"),
    [
        ("train", ["--env_url", "--env_replicas", "--learning_rate", "--config"]),
        ("sft", ["--pool", "--tiers", "--num_train_epochs", "--config"]),
    ],
)
def test_help_of_train_and_sft_lists_their_real_flags(command, flags):
    import subprocess

    from tests.conftest import WATERCOLOUR

    shown = subprocess.run([WATERCOLOUR, command, "--help"], capture_output=True, text=True, timeout=120)
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout.startswith(f"usage: watercolour {command} ")
    for flag in flags:
        assert f"  {flag} " in shown.stdout, flag
    assert "--config FILE (trainer/configs/ has" in " ".join(shown.stdout.split())  # said before TRL's ~300 flags


def test_a_config_that_is_a_folder_or_not_a_mapping_is_refused_by_what_it_is(tmp_path):
    with pytest.raises(IsADirectoryError) as folder:
        parse_arguments(["--config", str(tmp_path)])
    assert folder.value.filename == str(tmp_path)
    listed = tmp_path / "list.yaml"
    listed.write_text("- max_steps\n- 1\n")
    with pytest.raises(ConfigError, match="is not a YAML mapping of flags to values"):
        parse_arguments(["--config", str(listed)])


@pytest.mark.cli
def test_a_refused_command_line_loads_nothing_of_the_trainer(tmp_path):
    # a missing --config before TRL and torch; a typo before TRL's trainer, datasets and the OpenEnv client
    import subprocess
    import sys

    probe = """
import sys
from watercolour_env.errors import ConfigError
from watercolour_trainer.training.arguments import parse_arguments
try:
    parse_arguments(["--config", "nothere.yaml"])
except FileNotFoundError as err:
    print(err.filename, [m for m in ("trl", "torch") if m in sys.modules])
try:
    parse_arguments(["--learning-rat", "1e-5"])
except ConfigError:
    print([m for m in ("trl.trainer.grpo_trainer", "datasets", "openenv", "gradio") if m in sys.modules])
"""
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert done.stdout.splitlines() == ["nothere.yaml []", "[]"], done.stderr


def test_a_run_that_checkpoints_gradients_says_nothing_of_the_renamed_flag_and_methods():
    from transformers import AutoModelForCausalLM, LlamaConfig

    tiny = LlamaConfig(
        hidden_size=16,
        intermediate_size=32,
        num_hidden_layers=1,
        num_attention_heads=2,
        num_key_value_heads=2,
        vocab_size=64,
    )
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")  # what a run would show, whatever filters came before
        _, config = parse_arguments(["--gradient_checkpointing", "true", "--use_cpu", "true"])
        model = AutoModelForCausalLM.from_config(tiny)
        model.gradient_checkpointing_enable()  # the old names, as TRL 1.16 calls them
        assert model.is_gradient_checkpointing
        model.gradient_checkpointing_disable()
        warnings.warn("`another_flag` is deprecated", FutureWarning, stacklevel=1)  # others still show
    assert config.gradient_checkpointing is True
    assert [str(w.message) for w in caught if "deprecated" in str(w.message)] == ["`another_flag` is deprecated"]


@pytest.mark.parametrize(
    ("flags", "refusal"),
    [
        (["--revisions", "9"], r"--revisions must be in \[0, 8\] \(got 9\)"),
        (["--revisions", "-1"], r"--revisions must be in \[0, 8\]"),
        (["--revisions", "2", "--revision_reward", "mean"], "--revision_reward must be last or best"),
        (["--revisions", "2", "--prime_reply", "true"], "--prime_reply cannot go with --revisions"),
        (["--revisions", "1", "--stop_at_closing_fence", "true"], "--stop_at_closing_fence cannot go with --revisions"),
        (["--revision_reward", "best"], "--revision_reward best needs --revisions K"),
        (["--revision_images", "true"], "--revision_images needs --revisions K"),
        (["--max_turn_tokens", "1500"], "--max_turn_tokens needs --revisions K"),
        (["--chat_template_path", "README.md"], "--chat_template_path needs --revisions K"),
        (["--revisions", "1", "--chat_template_path", "no/such.jinja"], "--chat_template_path no/such.jinja: no such"),
        (["--revisions", "2", "--max_turn_tokens", "0"], r"--max_turn_tokens must be at least 1 \(got 0\)"),
    ],
)
def test_revisions_out_of_range_or_with_a_primed_reply_are_refused_by_name(flags, refusal):
    with pytest.raises(ConfigError, match=refusal):
        parse_arguments(["--output_dir", "runs/x", *flags])


@pytest.mark.parametrize(
    ("flags", "refusal"),
    [
        (["--use_vllm", "true"], "--max_turn_tokens caps transformers' generate, not vLLM's"),
        (["--generation_kwargs", '{"max_new_tokens": 50}'], "both cap a turn: give one"),
    ],
)
def test_a_turn_cap_given_twice_or_to_vllm_is_refused_before_a_model_loads(flags, refusal):
    cpu = ["--output_dir", "runs/x", "--use_cpu", "true", "--bf16", "false", "--revisions", "2"]
    with pytest.raises(ConfigError, match=refusal):
        parse_arguments([*cpu, "--max_turn_tokens", "1280", *flags])


def test_revisions_parse_with_the_reward_they_pay():
    cpu = ["--output_dir", "runs/x", "--use_cpu", "true", "--bf16", "false"]
    args, _ = parse_arguments([*cpu, "--revisions", "2", "--revision_reward", "best"])
    assert (args.revisions, args.revision_reward) == (2, "best")
    args, _ = parse_arguments(cpu)
    assert (args.revisions, args.revision_reward) == (0, "last")


def test_resuming_from_the_last_checkpoint_passes_over_a_save_cut_short(tmp_path):
    from watercolour_trainer.training.train import resume_checkpoint

    for step, state in [(5, '{"global_step": 5}'), (10, '{"global_step": 10}'), (15, '{"global_st')]:
        (tmp_path / f"checkpoint-{step}").mkdir()
        (tmp_path / f"checkpoint-{step}" / "trainer_state.json").write_text(state)
    (tmp_path / "checkpoint-20").mkdir()  # the adapter written, the state not yet
    (tmp_path / "checkpoint-9-old").mkdir()
    assert resume_checkpoint("last", str(tmp_path)) == tmp_path / "checkpoint-10"  # not 9 < 10 as text
    for step in (5, 10):
        (tmp_path / f"checkpoint-{step}" / "trainer_state.json").unlink()
    with pytest.raises(ConfigError, match="no checkpoint-<step> folder"):
        resume_checkpoint("last", str(tmp_path))
