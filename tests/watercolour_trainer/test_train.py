"""Smoke test: one real GRPO step of the embedded policy against the real server."""

import json

import pytest

from watercolour_trainer.train import main

pytestmark = [pytest.mark.slow, pytest.mark.server, pytest.mark.browser]


def small_run(server_url: str, output_dir, *extra: str) -> list[str]:
    """The demo config cut to one group of 2 short completions (and `extra` on top)."""
    return [
        "--config", "trainer/configs/demo.yaml",
        "--env_url", server_url,
        "--output_dir", str(output_dir),
        "--max_steps", "1",
        "--num_generations", "2",
        "--per_device_train_batch_size", "2",
        "--max_completion_length", "24",
        "--n_prompts", "2",
        *extra,
    ]  # fmt: skip


def read_rollouts(output_dir) -> list[dict]:
    return [json.loads(line) for line in (output_dir / "rollouts" / "rollouts.jsonl").read_text().splitlines()]


def test_one_grpo_step_of_the_embedded_policy_writes_rollouts_gallery_and_curve(server_url, tmp_path):
    main(small_run(server_url, tmp_path))
    rollouts = read_rollouts(tmp_path)
    assert len(rollouts) == 2
    assert {r["step"] for r in rollouts} == {1}
    assert len({r["seed"] for r in rollouts}) == 1  # one group, one seed
    assert all(r["status"] in {"scored", "rejected"} for r in rollouts)
    assert (tmp_path / "rollouts" / "gallery.html").is_file()
    assert (tmp_path / "rollouts" / "curve.csv").read_text().startswith("step,rollouts,reward_mean")


@pytest.mark.parametrize("adapter", ["smollm2_135m_starter", "smollm2_135m_demo"])
def test_one_grpo_step_starts_from_a_shipped_warm_start(server_url, tmp_path, adapter):
    from watercolour_trainer.policy import DEMO_ADAPTER, STARTER_ADAPTER

    folder = {"smollm2_135m_starter": STARTER_ADAPTER, "smollm2_135m_demo": DEMO_ADAPTER}[adapter]
    assert folder.name == adapter and (folder / "README.md").is_file()
    assert (folder / "adapter_model.safetensors").stat().st_size < 20e6  # the cap
    main(small_run(server_url, tmp_path, "--adapter", str(folder)))
    rollouts = read_rollouts(tmp_path)
    assert len(rollouts) == 2 and all(r["status"] in {"scored", "rejected"} for r in rollouts)


def test_a_run_resumed_from_its_checkpoint_continues_the_step_count_and_the_rollouts(server_url, tmp_path):
    common = [
        "--config", "trainer/configs/demo.yaml",
        "--env_url", server_url,
        "--output_dir", str(tmp_path),
        "--num_generations", "2",
        "--per_device_train_batch_size", "2",
        "--max_completion_length", "16",
        "--n_prompts", "4",
        "--save_strategy", "steps",
        "--save_steps", "1",
    ]  # fmt: skip
    main([*common, "--max_steps", "1"])
    assert (tmp_path / "checkpoint-1" / "trainer_state.json").is_file()
    main([*common, "--max_steps", "2", "--resume_from_checkpoint", "last"])
    rollouts = read_rollouts(tmp_path)
    assert [r["step"] for r in rollouts] == [1, 1, 2, 2]
    assert json.loads((tmp_path / "checkpoint-2" / "trainer_state.json").read_text())["global_step"] == 2


def test_resuming_without_a_checkpoint_is_refused_before_the_model_loads(server_url, tmp_path):
    from watercolour_env.errors import ConfigError

    with pytest.raises(ConfigError, match="no checkpoint-<step> folder"):
        main(["--config", "trainer/configs/demo.yaml", "--env_url", server_url,
              "--output_dir", str(tmp_path), "--resume_from_checkpoint", "last"])  # fmt: skip
    with pytest.raises(ConfigError, match="no trainer_state.json"):
        main(["--config", "trainer/configs/demo.yaml", "--env_url", server_url,
              "--output_dir", str(tmp_path), "--resume_from_checkpoint", str(tmp_path)])  # fmt: skip
