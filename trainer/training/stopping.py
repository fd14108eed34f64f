"""Stopping a run cleanly: after a time, when a file appears (docs/gpu-run.md), or when the gold turns.

A lent machine ends each call at its limit and goes back when idle; a run killed there loses
every step since its last checkpoint. `StopWhenAsked` ends the run at the end of a step instead,
with a checkpoint of that step, so nothing finished is lost.
"""

from __future__ import annotations

import logging
import time
from pathlib import Path

from transformers import TrainerCallback

log = logging.getLogger(__name__)


class StopWhenAsked(TrainerCallback):
    """Saves a checkpoint and stops at the end of the first step that ends after a request.

    Args:
        seconds: a request made by the clock: this many wall-clock seconds after training began
            (after the model, the dataset and a resumed checkpoint loaded); None for no limit.
        stop_file: a request made by hand: the step in progress when this file appears is the
            last. The main process removes the file when training has ended, not before (every
            process of a run must see it at the same step), so that a run resumed from the
            checkpoint does not stop at once. None for none.
    """

    def __init__(self, seconds: float | None = None, stop_file: str | Path | None = None) -> None:
        self.seconds = seconds
        self.stop_file = Path(stop_file) if stop_file else None
        self.began: float | None = None
        self.taken = False

    def on_train_begin(self, args, state, control, **kwargs) -> None:  # noqa: ANN001, ANN003
        """Starts the clock."""
        self.began = time.monotonic()

    def on_step_end(self, args, state, control, **kwargs):  # noqa: ANN001, ANN003, ANN201
        """Asks the trainer to save and stop once the time is up or the file is there."""
        reason = None
        if self.seconds is not None and self.began is not None and time.monotonic() - self.began >= self.seconds:
            reason = f"stop_after_s {self.seconds:.0f} reached"
        if self.stop_file is not None and self.stop_file.exists():
            self.taken = True
            reason = f"{self.stop_file} appeared"
        if reason:
            log.info("%s at step %d: saving a checkpoint and stopping", reason, state.global_step)
            control.should_save = True
            control.should_training_stop = True
        return control

    def on_train_end(self, args, state, control, **kwargs) -> None:  # noqa: ANN001, ANN003
        """Removes the stop file that ended the run (the main process only)."""
        if self.taken and state.is_world_process_zero:
            self.stop_file.unlink(missing_ok=True)


class KeepBestGold(TrainerCallback):
    """Keeps the checkpoint of the gold's best window; optionally stops when the gold turns.

    A run served with a gold scorer (`WATERCOLOUR_GOLD_POOL`) reports it in every rollout. At the
    end of each `gold.WINDOW`-th step this reads the run's rollouts and `gold.windows`' table:

    - a window whose gold mean is the best so far (of windows with at least half their steps) is
      saved now and recorded the transformers way: `state.best_metric` (its gold mean),
      `state.best_global_step`; the trainer then writes `best_model_checkpoint` into
      `trainer_state.json` and never rotates that checkpoint away, whatever `save_total_limit`;
    - with `stop`, a verdict of over-optimisation (the gold `gold.SIGNIFICANT` standard errors
      under its best window while the proxy is above it) saves and ends the run.

    A run without gold keeps nothing and never stops here. Under `accelerate launch` the first
    process decides (it alone holds the rollouts) and tells the others.

    Args:
        rollouts: the run's `SharedRolloutLog` (anything with a `rollouts` list of `Rollout`).
        stop: end the run on over-optimisation.
        width: steps a window (`gold.WINDOW`).
    """

    def __init__(self, rollouts, stop: bool = False, width: int | None = None) -> None:  # noqa: ANN001
        from watercolour_trainer.record.gold import WINDOW

        self.rollouts, self.stop, self.width = rollouts, stop, width or WINDOW
        self.verdict: dict | None = None

    def decide(self, state) -> tuple[float | None, bool]:  # noqa: ANN001
        """(the just-ended window's gold mean when it is the best so far else None, stop now)."""
        from dataclasses import asdict

        from watercolour_trainer.record.gold import windows

        by_step: dict[int, list[dict]] = {}
        for rollout in self.rollouts.rollouts:
            by_step.setdefault(rollout.step, []).append(asdict(rollout))
        self.verdict = table = windows(by_step, self.width)
        if table is None:
            return None, False
        last = table["windows"][-1]
        first_step = int(last["steps"].split("-")[0])
        ended_now = (first_step - 1) // self.width == (state.global_step - 1) // self.width
        best = state.best_metric
        improved = ended_now and table["gold_peak"] == last["steps"] and (best is None or last["gold"] > best)
        return (last["gold"] if improved else None), self.stop and table["over_optimisation"]

    def on_step_end(self, args, state, control, **kwargs):  # noqa: ANN001, ANN003, ANN201
        """At a window's end: saves the best window's step, and stops on over-optimisation when asked."""
        if state.global_step % self.width:
            return control
        decision = self.decide(state) if state.is_world_process_zero else (None, False)
        if args.world_size > 1:
            from accelerate.utils import broadcast_object_list

            decision = broadcast_object_list([decision], from_process=0)[0]
        best, stop = decision
        if best is not None:
            state.best_metric, state.best_global_step = best, state.global_step
            control.should_save = True
            if state.is_world_process_zero:
                log.info(
                    "step %d: the gold's best window so far (%.3f): keeping this checkpoint", state.global_step, best
                )
        if stop:
            table = self.verdict or {}
            if state.is_world_process_zero:
                log.info(
                    "step %d: over-optimisation (gold %+.3f since its best steps %s, proxy %+.3f): saving and stopping",
                    state.global_step,
                    -table.get("gold_fall", 0.0),
                    table.get("gold_peak"),
                    table.get("proxy_rise", 0.0),
                )
            control.should_save = True
            control.should_training_stop = True
        return control


def room_for_the_best(config) -> None:  # noqa: ANN001 (a TrainingArguments)
    """Raises a `save_total_limit` of 1 to 2: room for the best window's checkpoint beside the last.

    At a limit of 1, transformers' Trainer deletes the last checkpoint at the end of training
    when the best is another, and a run stopped to be resumed (`--stop_after_s`, a lent machine)
    would resume from the best and lose every step since.
    """
    if config.save_total_limit == 1:
        log.info("save_total_limit 1 -> 2: the gold's best checkpoint is kept beside the last (keep_best_gold)")
        config.save_total_limit = 2
