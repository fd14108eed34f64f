"""The run's record packed on the GPU machine while the trainer may still write (bench/gpu_record.py)."""

import gzip
import json
import tarfile

from tests.conftest import bench_module

record = bench_module("gpu_record")


def rollout_line(step: int, position: int) -> str:
    return json.dumps({"step": step, "position": position, "reward": 0.5})


def a_run_mid_step(run):
    """A run at step 8: checkpoint-5 complete, checkpoint-8 being written, a rollout line cut short."""
    (run / "rollouts").mkdir(parents=True)
    lines = [rollout_line(step, p) for step in range(1, 8) for p in range(2)]
    cut = rollout_line(8, 0)[:11]
    (run / "rollouts" / "rollouts.jsonl").write_text("\n".join(lines) + "\n" + cut)
    curve = "step,rollouts,reward_mean\r\n" + "".join(f"{s},2,0.5\r\n" for s in range(1, 8))
    (run / "rollouts" / "curve.csv").write_text(curve, newline="")
    done = run / "checkpoint-5"
    done.mkdir()
    for name, data in [
        ("adapter_model.safetensors", b"A" * 100),
        ("adapter_config.json", b"{}"),
        ("optimizer.pt", b"O" * 200),
        ("scheduler.pt", b"S"),
        ("rng_state.pth", b"R"),
        ("trainer_state.json", json.dumps({"global_step": 5}).encode()),
    ]:
        (done / name).write_bytes(data)
    (run / "checkpoint-8").mkdir()  # the trainer writes the adapter first, its state last
    (run / "checkpoint-8" / "adapter_model.safetensors").write_bytes(b"B" * 100)
    (run / "checkpoint-8" / "trainer_state.json").write_text('{"global_st')  # being written
    (run / "checkpoint-10-old").mkdir()  # not a checkpoint's name
    (run / "config.yaml").write_text("max_steps: 100\n")
    (run / "train.log").write_text("step 7/100\n")


def test_the_record_is_the_newest_complete_checkpoint_and_the_rollouts_up_to_its_step(tmp_path):
    run = tmp_path / "run"
    a_run_mid_step(run)
    out = tmp_path / "out"
    line = record.pack(run, run / "config.yaml", out, [run / "train.log", run / "missing.log"])
    assert line == "record.tar: checkpoint-5, 10 rollouts up to its step"
    with tarfile.open(out / "record.tar") as tar:
        names = sorted(tar.getnames())
        tar.extractall(tmp_path / "back", filter="data")
    assert names == [
        "record",
        "record/checkpoint-5",
        "record/checkpoint-5/adapter_config.json",
        "record/checkpoint-5/adapter_model.safetensors",
        "record/checkpoint-5/rng_state.pth",
        "record/checkpoint-5/trainer_state.json",
        "record/config.yaml",
        "record/curve.csv",
        "record/rollouts.jsonl.gz",
        "record/trainer_state.json",
    ]
    back = tmp_path / "back" / "record"
    rollouts = [json.loads(x) for x in gzip.decompress((back / "rollouts.jsonl.gz").read_bytes()).splitlines()]
    assert [r["step"] for r in rollouts] == [1, 1, 2, 2, 3, 3, 4, 4, 5, 5]
    assert (back / "curve.csv").read_bytes() == b"step,rollouts,reward_mean\r\n" + b"".join(
        f"{s},2,0.5\r\n".encode() for s in range(1, 6)
    )
    assert (back / "checkpoint-5" / "adapter_model.safetensors").read_bytes() == b"A" * 100
    with tarfile.open(out / "logs.tar") as tar:
        assert tar.getnames() == ["logs/train.log"]


def test_a_run_without_a_checkpoint_keeps_every_complete_rollout(tmp_path):
    run = tmp_path / "run"
    a_run_mid_step(run)
    for f in (run / "checkpoint-5").iterdir():
        f.unlink()
    line = record.pack(run, run / "config.yaml", tmp_path / "out", [])
    assert line == "record.tar: no checkpoint yet, 14 rollouts"


def test_the_command_says_when_there_is_nothing_to_pack(tmp_path, capsys):
    assert record.main([str(tmp_path), str(tmp_path / "c.yaml"), str(tmp_path)]) == 1
    assert "nothing to pack" in capsys.readouterr().err


def test_a_fresh_run_beside_a_kept_checkpoint_is_not_packed(tmp_path, capsys):
    # a run started without --resume_from_checkpoint in a folder that holds checkpoint-26: its
    # rollouts are steps 1-2 of another run, and a record of both would pass for one
    run = tmp_path / "run"
    (run / "rollouts").mkdir(parents=True)
    (run / "rollouts" / "rollouts.jsonl").write_text(rollout_line(1, 0) + "\n" + rollout_line(2, 0) + "\n")
    (run / "checkpoint-26").mkdir()
    (run / "checkpoint-26" / "trainer_state.json").write_text(json.dumps({"global_step": 26}))
    (run / "c.yaml").write_text("output_dir: run\n")
    (run / "train.log").write_text("step 2/100\n")
    out = tmp_path / "out"
    assert record.main([str(run), str(run / "c.yaml"), str(out), str(run / "train.log")]) == 1
    assert "checkpoint-26 (global_step 26) but rollouts of steps 1-2, 2 distinct" in capsys.readouterr().err
    assert sorted(p.name for p in out.iterdir()) == ["logs.tar"]  # the logs say why


def test_the_tars_are_written_whole_or_not_at_all(tmp_path):
    run = tmp_path / "run"
    a_run_mid_step(run)
    out = tmp_path / "out"
    out.mkdir()
    (out / "record.tar").write_bytes(b"an earlier pack")
    record.pack(run, run / "config.yaml", out, [])
    assert sorted(p.name for p in out.iterdir()) == ["logs.tar", "record.tar"]  # no .part left
    assert tarfile.is_tarfile(out / "record.tar")


def test_the_golds_best_checkpoint_travels_beside_the_record(tmp_path):
    run = tmp_path / "run"
    a_run_mid_step(run)
    (run / "checkpoint-5" / "trainer_state.json").write_text(json.dumps({"global_step": 5, "best_global_step": 3}))
    best = run / "checkpoint-3"
    best.mkdir()
    for name, data in [
        ("adapter_model.safetensors", b"C" * 100),
        ("optimizer.pt", b"O"),
        ("trainer_state.json", b"{}"),
    ]:
        (best / name).write_bytes(data)
    out = tmp_path / "out"
    line = record.pack(run, run / "config.yaml", out, [])
    assert (
        line == "record.tar: checkpoint-5, 10 rollouts up to its step; best.tar: checkpoint-3, the gold's best window"
    )
    with tarfile.open(out / "best.tar") as tar:
        assert sorted(tar.getnames()) == [
            "record",
            "record/checkpoint-3",
            "record/checkpoint-3/adapter_model.safetensors",
            "record/checkpoint-3/trainer_state.json",
        ]
        assert tar.extractfile("record/checkpoint-3/adapter_model.safetensors").read() == b"C" * 100
    # once the newest checkpoint is the best, an earlier best.tar is no longer the record's
    (run / "checkpoint-5" / "trainer_state.json").write_text(json.dumps({"global_step": 5, "best_global_step": 5}))
    assert record.pack(run, run / "config.yaml", out, []) == "record.tar: checkpoint-5, 10 rollouts up to its step"
    assert not (out / "best.tar").exists()
