"""Stopping a run cleanly from outside: after a time, or when a file appears (docs/gpu-run.md).

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
