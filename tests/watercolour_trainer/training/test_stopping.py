"""Keeping the gold's best checkpoint and stopping when the gold turns, through transformers' own Trainer."""

from __future__ import annotations

import json

import pytest

from watercolour_env.rollout import Rollout

pytestmark = pytest.mark.train

# one painting a step, proxy rising; gold by windows of 3 steps: 0.5, 0.8 (best), 0.45
GOLDS = [0.5, 0.5, 0.5, 0.8, 0.9, 0.7, 0.5, 0.4, 0.45]


def painting(step: int, gold: float | None) -> Rollout:
    components = [{"name": "embedded", "value": 0.5 + 0.05 * (step - 1)}]
    if gold is not None:
        components.append({"name": "gold", "value": gold})
    return Rollout(step, 0, 0, "a hibiscus", step, "", "", 0.5, "scored", components=components)


class Held:
    """What `KeepBestGold` reads: a `rollouts` list (the run's `SharedRolloutLog` in a run)."""

    def __init__(self) -> None:
        self.rollouts: list[Rollout] = []


def train(tmp_path, stop: bool, golds: list[float | None]):
    """Trains a tiny random Llama 9 steps with transformers' Trainer; a callback paints a step's rollout."""
    import torch
    from transformers import AutoModelForCausalLM, LlamaConfig, Trainer, TrainerCallback, TrainingArguments

    from watercolour_trainer.training.stopping import KeepBestGold

    held = Held()

    class Paints(TrainerCallback):
        def on_step_begin(self, args, state, control, **kwargs):  # noqa: ANN001, ANN003, ANN202
            held.rollouts.append(painting(state.global_step + 1, golds[state.global_step]))

    torch.manual_seed(0)
    model = AutoModelForCausalLM.from_config(
        LlamaConfig(
            hidden_size=16,
            intermediate_size=32,
            num_hidden_layers=1,
            num_attention_heads=2,
            num_key_value_heads=2,
            vocab_size=64,
        )
    )
    data = [{"input_ids": [1, 2, 3, 4], "labels": [1, 2, 3, 4]}] * 9
    args = TrainingArguments(
        output_dir=str(tmp_path),
        max_steps=9,
        per_device_train_batch_size=1,
        save_strategy="steps",
        save_steps=1,  # every step: the best must outlive the rotation
        save_total_limit=2,
        report_to="none",
        use_cpu=True,
        logging_strategy="no",
    )
    callbacks = [Paints(), KeepBestGold(held, stop=stop, width=3)]
    trainer = Trainer(model=model, args=args, train_dataset=data, callbacks=callbacks)
    trainer.train()
    return trainer, sorted(p.name for p in tmp_path.glob("checkpoint-*"))


def test_the_best_windows_checkpoint_is_kept_past_the_save_limit(tmp_path):
    trainer, kept = train(tmp_path, stop=False, golds=GOLDS)
    assert trainer.state.global_step == 9  # not asked to stop
    assert kept == ["checkpoint-6", "checkpoint-9"]  # the best and the last; 7 and 8 rotated away
    state = json.loads((tmp_path / "checkpoint-6" / "trainer_state.json").read_text())
    assert state["best_global_step"] == 6 and state["best_metric"] == pytest.approx(0.8)
    assert state["best_model_checkpoint"] == str(tmp_path / "checkpoint-6")


def test_the_run_stops_with_a_checkpoint_when_the_gold_turns_and_keeps_its_best(tmp_path):
    trainer, kept = train(tmp_path, stop=True, golds=GOLDS)
    assert trainer.state.global_step == 9 and trainer.control.should_training_stop
    # step 9: the gold 0.35 under its best window, 2 s.e. 0.075 (test_analyze works it out), the
    # proxy 0.15 above: saved and stopped
    assert kept == ["checkpoint-6", "checkpoint-9"]
    state = json.loads((tmp_path / "checkpoint-9" / "trainer_state.json").read_text())
    assert state["best_model_checkpoint"] == str(tmp_path / "checkpoint-6") and state["best_global_step"] == 6


def test_a_stop_comes_before_the_last_step(tmp_path):
    # the gold falls in steps 4-6 already, and the proxy rises: the run ends at step 6, not 9
    golds = [0.8, 0.9, 0.7, 0.3, 0.2, 0.25, 0.2, 0.2, 0.2]
    trainer, kept = train(tmp_path, stop=True, golds=golds)
    assert trainer.state.global_step == 6
    assert kept == ["checkpoint-3", "checkpoint-6"]


def test_a_run_without_gold_keeps_nothing_and_runs_on(tmp_path):
    trainer, kept = train(tmp_path, stop=True, golds=[None] * 9)
    assert trainer.state.global_step == 9 and kept == ["checkpoint-8", "checkpoint-9"]
    assert trainer.state.best_global_step is None


def test_a_save_limit_of_one_makes_room_for_the_best_beside_the_last():
    from types import SimpleNamespace

    from watercolour_trainer.training.stopping import room_for_the_best

    # transformers, at a limit of 1, deletes the last checkpoint at the end when the best differs:
    # a run stopped to be resumed would lose its steps since the best
    for limit, room in ((1, 2), (2, 2), (5, 5), (None, None), (0, 0)):
        config = SimpleNamespace(save_total_limit=limit)
        room_for_the_best(config)
        assert config.save_total_limit == room
