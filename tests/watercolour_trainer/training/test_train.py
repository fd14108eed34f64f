"""Smoke test: one real GRPO step of the embedded policy against the real server; and the run's
plumbing (resume, stop, time, push, trackio) on a tiny random policy, where what it writes does not
matter (`tiny_policy`, tests/policies.py)."""

import json
import shutil

import pytest

from watercolour_trainer.training.train import main

pytestmark = [pytest.mark.slow, pytest.mark.server, pytest.mark.browser, pytest.mark.train]


def small_run(server_url: str, output_dir, *extra: str) -> list[str]:
    """The demo config cut to one group of 2 short completions (and `extra` on top)."""
    return [
        "--config",
        "trainer/configs/demo.yaml",
        "--env_url",
        server_url,
        "--output_dir",
        str(output_dir),
        "--max_steps",
        "1",
        "--num_generations",
        "2",
        "--per_device_train_batch_size",
        "2",
        "--max_completion_length",
        "24",
        "--n_prompts",
        "2",
        *extra,
    ]


def tiny_run(server_url: str, tiny_policy, output_dir, *extra: str) -> list[str]:
    """`small_run` with the tiny random policy in place of the embedded one."""
    return small_run(server_url, output_dir, "--model", str(tiny_policy), *extra)


def read_rollouts(output_dir) -> list[dict]:
    return [json.loads(line) for line in (output_dir / "rollouts" / "rollouts.jsonl").read_text().splitlines()]


@pytest.mark.parametrize("adapter", ["smollm2_135m_starter", "smollm2_135m_demo"])
def test_one_grpo_step_of_the_embedded_policy_from_a_shipped_warm_start_writes_rollouts_gallery_and_curve(
    server_url, tmp_path, capsys, adapter
):
    from watercolour_trainer.training.policy import DEMO_ADAPTER, STARTER_ADAPTER

    folder = {"smollm2_135m_starter": STARTER_ADAPTER, "smollm2_135m_demo": DEMO_ADAPTER}[adapter]
    assert folder.name == adapter and (folder / "README.md").is_file()
    assert (folder / "adapter_model.safetensors").stat().st_size < 20e6  # the cap
    main(small_run(server_url, tmp_path, "--adapter", str(folder)))
    line = next(x for x in capsys.readouterr().out.replace("\r", "\n").splitlines() if x.startswith("step 1/1:"))
    assert "reward" in line and "unscored" in line and "generation" in line and "environment" in line
    rollouts = read_rollouts(tmp_path)
    assert len(rollouts) == 2
    assert {r["step"] for r in rollouts} == {1}
    assert len({r["seed"] for r in rollouts}) == 1  # one group, one seed
    assert all(r["status"] in {"scored", "rejected"} for r in rollouts)
    assert (tmp_path / "rollouts" / "gallery.html").is_file()
    assert (tmp_path / "rollouts" / "curve.csv").read_text().startswith("step,rollouts,reward_mean")


def test_a_run_resumed_from_its_checkpoint_continues_the_step_count_and_the_rollouts(server_url, tiny_policy, tmp_path):
    common = [
        "--config",
        "trainer/configs/demo.yaml",
        "--model",
        str(tiny_policy),
        "--env_url",
        server_url,
        "--output_dir",
        str(tmp_path),
        "--num_generations",
        "2",
        "--per_device_train_batch_size",
        "2",
        "--max_completion_length",
        "16",
        "--n_prompts",
        "4",
        "--save_strategy",
        "steps",
        "--save_steps",
        "1",
    ]
    main([*common, "--max_steps", "1"])
    assert (tmp_path / "checkpoint-1" / "trainer_state.json").is_file()
    main([*common, "--max_steps", "2", "--resume_from_checkpoint", "last"])
    rollouts = read_rollouts(tmp_path)
    assert [r["step"] for r in rollouts] == [1, 1, 2, 2]
    assert json.loads((tmp_path / "checkpoint-2" / "trainer_state.json").read_text())["global_step"] == 2
    # a new session's machine resumes from the record kept in git (bench/gpu_learn.sh): the
    # checkpoint without the optimiser's and the scheduler's state, and the rollouts
    kept = tmp_path.parent / "kept"
    (kept / "checkpoint-2").mkdir(parents=True)
    for name in ["adapter_config.json", "adapter_model.safetensors", "trainer_state.json", "rng_state.pth"]:
        shutil.copyfile(tmp_path / "checkpoint-2" / name, kept / "checkpoint-2" / name)
    shutil.copytree(tmp_path / "rollouts", kept / "rollouts", ignore=shutil.ignore_patterns("paintings"))
    main([*common, "--output_dir", str(kept), "--max_steps", "3", "--resume_from_checkpoint", "last"])
    assert [r["step"] for r in read_rollouts(kept)] == [1, 1, 2, 2, 3, 3]
    assert json.loads((kept / "checkpoint-3" / "trainer_state.json").read_text())["global_step"] == 3


def test_a_run_out_of_time_saves_the_step_it_finished_and_stops(server_url, tiny_policy, tmp_path):
    # 0 s: the time is up at the end of the first step, whatever the machine's speed; the demo
    # config saves nothing by itself (save_strategy "no")
    main(tiny_run(server_url, tiny_policy, tmp_path, "--max_steps", "3", "--stop_after_s", "0"))
    assert [r["step"] for r in read_rollouts(tmp_path)] == [1, 1]
    state = json.loads((tmp_path / "checkpoint-1" / "trainer_state.json").read_text())
    assert state["global_step"] == 1 and not (tmp_path / "checkpoint-2").exists()
    # the step line's time split is in the saved log, for `watercolour analyze`
    [entry] = [e for e in state["log_history"] if e.get("step") == 1 and "reward" in e]
    assert entry["time/step_s"] >= entry["time/generation_s"] + entry["time/environment_s"] - 0.01


def test_a_run_asked_to_stop_by_a_file_saves_the_step_it_finished_and_takes_the_file(server_url, tiny_policy, tmp_path):
    # the file is there before the first step ends, whatever the machine's speed: step 1 is the last
    stop = tmp_path / "STOP"
    stop.touch()
    main(tiny_run(server_url, tiny_policy, tmp_path / "run", "--max_steps", "3", "--stop_file", str(stop)))
    assert [r["step"] for r in read_rollouts(tmp_path / "run")] == [1, 1]
    state = json.loads((tmp_path / "run" / "checkpoint-1" / "trainer_state.json").read_text())
    assert state["global_step"] == 1 and not (tmp_path / "run" / "checkpoint-2").exists()
    assert not stop.exists()  # taken: a run resumed from checkpoint-1 goes on


def test_resuming_without_a_checkpoint_is_refused_before_the_model_loads(server_url, tmp_path):
    from watercolour_env.errors import ConfigError

    with pytest.raises(ConfigError, match="no checkpoint-<step> folder"):
        main(
            [
                "--config",
                "trainer/configs/demo.yaml",
                "--env_url",
                server_url,
                "--output_dir",
                str(tmp_path),
                "--resume_from_checkpoint",
                "last",
            ]
        )
    with pytest.raises(ConfigError, match="no trainer_state.json"):
        main(
            [
                "--config",
                "trainer/configs/demo.yaml",
                "--env_url",
                server_url,
                "--output_dir",
                str(tmp_path),
                "--resume_from_checkpoint",
                str(tmp_path),
            ]
        )


def test_an_adapter_folder_without_an_adapter_is_refused_before_the_model_loads(server_url, tmp_path, monkeypatch):
    from watercolour_env.errors import ConfigError

    def tripwire(name):  # noqa: ANN001, ANN202
        raise AssertionError(f"the policy {name} loaded before the adapter was checked")

    monkeypatch.setattr("watercolour_trainer.training.train.load_policy", tripwire)
    with pytest.raises(ConfigError, match="no adapter_config.json there"):
        main(small_run(server_url, tmp_path, "--adapter", str(tmp_path)))
    # its config without its weights (a checkout that lost them): said, not a Hub lookup of the path
    (tmp_path / "adapter_config.json").write_text("{}")
    with pytest.raises(ConfigError, match="adapter_config.json but no adapter_model.safetensors or adapter_model.bin"):
        main(small_run(server_url, tmp_path, "--adapter", str(tmp_path)))


def test_a_run_reported_to_trackio_reads_back_with_the_environments_metrics(
    server_url, tiny_policy, tmp_path, monkeypatch
):
    """`--report_to trackio` (local, no Space): the step's reward, the environment's shares and
    each scored component land in trackio's store, under the project and run name given."""
    import importlib

    monkeypatch.setenv("TRACKIO_DIR", str(tmp_path / "trackio"))
    import trackio.sqlite_storage
    import trackio.utils

    importlib.reload(trackio.utils)  # its TRACKIO_DIR is read at import
    importlib.reload(trackio.sqlite_storage)
    main(
        tiny_run(
            server_url,
            tiny_policy,
            tmp_path / "run",
            "--report_to",
            "trackio",
            "--project",
            "watercolour-test",
            "--run-tag",
            "smoke",
        )
    )
    logs = trackio.sqlite_storage.SQLiteStorage.get_logs("watercolour-test", "smoke")
    keys = set().union(*(row.keys() for row in logs))
    assert {"train/reward", "train/env/gate_fail_share", "train/env/unscored_share", "train/env/gate"} <= keys, keys
    assert str(tmp_path / "trackio") in str(trackio.sqlite_storage.SQLiteStorage.get_project_db_path("x"))


def test_push_to_hub_as_a_dry_run_writes_what_would_be_uploaded_and_it_reads_back_as_the_run(
    server_url, tiny_policy, tmp_path
):
    import hashlib

    from peft import PeftModel

    from watercolour_trainer.training.policy import load_policy
    from watercolour_trainer.training.publish import load_dry_run

    dry = tmp_path / "hub"
    main(
        tiny_run(
            server_url,
            tiny_policy,
            tmp_path / "run",
            "--push-to-hub",
            "--out",
            "me/wc-test",
            "--hub-dry-run",
            str(dry),
            "--run-tag",
            "dry",
        )
    )
    rollouts, card, adapter_dir = load_dry_run(dry, "me/wc-test")
    assert list(rollouts) == read_rollouts(tmp_path / "run")  # the dataset is the run's rollouts, row for row
    assert f"base_model: {tiny_policy}" in card and server_url in card and "pool" in card
    assert "PeftModel.from_pretrained" in card and "me/wc-test-rollouts" in card
    uploads = json.loads((dry / "uploads.json").read_text())
    paths = {(u["repo_id"], u["path_in_repo"]) for u in uploads}
    assert {
        ("me/wc-test", "adapter_model.safetensors"),
        ("me/wc-test", "README.md"),
        ("me/wc-test-rollouts", "data/rollouts.jsonl"),
        ("me/wc-test-rollouts", "README.md"),
    } <= paths
    for u in uploads:  # the manifest says exactly what the folders hold
        assert hashlib.sha256((dry / u["repo_id"] / u["path_in_repo"]).read_bytes()).hexdigest() == u["sha256"]
    base, _ = load_policy(str(tiny_policy))
    loaded = PeftModel.from_pretrained(base, str(adapter_dir))
    assert any("lora_A" in name for name, _ in loaded.named_parameters())


def test_push_to_hub_without_a_repo_is_refused_before_the_model_loads(server_url, tmp_path):
    from watercolour_env.errors import ConfigError

    with pytest.raises(ConfigError, match="--out"):
        main(small_run(server_url, tmp_path, "--push-to-hub"))
