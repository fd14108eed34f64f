"""Training over several processes: the shipped accelerate configs launch, and two processes keep one
record of the run (trainer/training/processes.py, docs/decisions/0005-several-gpus.md).

The two-process run is real: `accelerate launch` with the shipped `ddp.yaml` starts two processes,
which on a machine without a GPU train over gloo (`--use_cpu true`), against the real server."""

from __future__ import annotations

import csv
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from tests.conftest import REPO
from watercolour_env.rollout import Rollout
from watercolour_trainer.demo import free_port
from watercolour_trainer.training.processes import NO_MULTICAST, SharedRolloutLog, keep_multicast_off

ACCELERATE = str(Path(sys.executable).parent / "accelerate")
CONFIGS = REPO / "trainer" / "configs" / "accelerate"


@pytest.mark.train
@pytest.mark.parametrize(("name", "kind"), [("ddp.yaml", "MULTI_GPU"), ("fsdp2.yaml", "FSDP")])
def test_accelerate_reads_each_shipped_config_as_two_processes_in_bf16(name, kind):
    from accelerate.commands.config.config_args import load_config_from_file

    config = load_config_from_file(str(CONFIGS / name))  # accelerate's own reader: unknown keys fail
    assert (config.distributed_type.value, config.num_processes, config.mixed_precision) == (kind, 2, "bf16")
    raw = yaml.safe_load((CONFIGS / name).read_text())
    if kind == "FSDP":  # FSDP 2, and checkpointing left to the trainer (transformers refuses both)
        assert raw["fsdp_config"]["fsdp_version"] == 2 and not raw["fsdp_config"]["fsdp_activation_checkpointing"]


def test_multicast_is_turned_off_unless_the_user_chose(monkeypatch):
    for name in NO_MULTICAST:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("NCCL_NVLS_ENABLE", "1")  # exported by the user: theirs to keep
    assert keep_multicast_off() == {"TORCH_SYMM_MEM_DISABLE_MULTICAST": "1", "NVSHMEM_DISABLE_NVLS": "1"}
    assert (os.environ["NCCL_NVLS_ENABLE"], os.environ["NVSHMEM_DISABLE_NVLS"]) == ("1", "1")


def test_with_one_process_the_shared_log_writes_at_once(tmp_path):
    log = SharedRolloutLog(tmp_path / "rollouts")
    log.add(Rollout(1, 0, 0, "a peach hibiscus", 7, "reply", None, 0.0, "rejected"), None)
    log.share()  # nothing to gather with one process
    log.flush()
    assert len(log.rollouts) == 1
    assert len((tmp_path / "rollouts" / "rollouts.jsonl").read_text().splitlines()) == 1


@pytest.mark.slow
@pytest.mark.server
@pytest.mark.browser
@pytest.mark.timeout(1200)  # beyond its subprocess's own limit, which then reports
def test_two_processes_through_the_ddp_config_write_one_record_of_the_step(server_url, tiny_policy, tmp_path):
    out = tmp_path / "run"
    command = [
        ACCELERATE,
        "launch",
        "--config_file",
        str(CONFIGS / "ddp.yaml"),
        "--mixed_precision",
        "no",
        "--main_process_port",
        str(free_port()),
        "-m",
        "watercolour_trainer.training.train",
        "--config",
        "trainer/configs/demo.yaml",
        "--model",
        str(tiny_policy),  # what is tested is the record of two processes, not the policy
        "--env_url",
        server_url,
        "--output_dir",
        str(out),
        "--max_steps",
        "1",
        "--num_generations",
        "4",
        "--per_device_train_batch_size",
        "2",
        "--max_completion_length",
        "24",
        "--n_prompts",
        "2",
        "--use_cpu",
        "true",
        "--ddp_find_unused_parameters",
        "false",
    ]
    env = {**os.environ, "OMP_NUM_THREADS": "1"}
    done = subprocess.run(command, capture_output=True, text=True, timeout=900, cwd=REPO, env=env)
    assert done.returncode == 0, done.stderr[-4000:]
    rollouts = [json.loads(line) for line in (out / "rollouts" / "rollouts.jsonl").read_text().splitlines()]
    # one group of 4, two completions generated in each process: every position once, one seed
    assert sorted((r["group"], r["position"]) for r in rollouts) == [(0, 0), (0, 1), (0, 2), (0, 3)]
    assert {r["step"] for r in rollouts} == {1} and len({r["seed"] for r in rollouts}) == 1
    images = [r["image"] for r in rollouts if r["image"]]
    assert len(images) == len(set(images)) == len(list((out / "rollouts" / "paintings").iterdir()))
    with open(out / "rollouts" / "curve.csv", newline="") as f:
        assert [(row["step"], row["rollouts"]) for row in csv.DictReader(f)] == [("1", "4")]
    printed = done.stdout.replace("\r", "\n").splitlines()
    assert sum(line.startswith("step 1/1:") for line in printed) == 1  # the first process alone prints
    assert sum(line.startswith("Training finished") for line in printed) == 1


@pytest.mark.train
def test_the_documented_two_gpu_command_parses_to_one_group_of_8_over_two_processes():
    import re
    import shlex

    from watercolour_trainer.training.arguments import parse_arguments

    text = (REPO / "docs" / "training.md").read_text()
    block = re.search(r"```bash\n(\.venv/bin/accelerate launch .*?)```", text, re.S)
    words = shlex.split(block.group(1).replace("\\\n", " "))
    assert words[words.index("--config_file") + 1] == "trainer/configs/accelerate/ddp.yaml"
    flags = words[words.index("watercolour_trainer.training.train") + 1 :]
    per_process = int(flags[flags.index("--per_device_train_batch_size") + 1])
    # one process here, so the group of 8 is generated by it alone; the flags are otherwise as documented
    alone = [*flags, "--per_device_train_batch_size", str(2 * per_process), "--bf16", "false", "--use_cpu", "true"]
    _, config = parse_arguments(alone)
    assert 2 * per_process == config.num_generations == 8 and config.ddp_find_unused_parameters is False
    gpu_yaml = yaml.safe_load((REPO / "trainer" / "configs" / "gpu.yaml").read_text())
    assert config.gradient_checkpointing and gpu_yaml["bf16"]
