"""Training over several processes (`accelerate launch`, one process per GPU).

TRL gives each process its slice of a step's completions and calls the reward function in every
process, so each process scores only its own rollouts. The run's rollouts folder must still be
one record: the first process writes it, and the others send it their rollouts once a step,
from the training thread (TRL runs an async reward function on a thread of its own, where a
collective would use the wrong GPU). `docs/decisions/0005-several-gpus.md` says why.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from watercolour_env.rollout import Rollout
from watercolour_trainer.record.rollouts import RolloutLog

NO_MULTICAST = {"NCCL_NVLS_ENABLE": "0", "TORCH_SYMM_MEM_DISABLE_MULTICAST": "1", "NVSHMEM_DISABLE_NVLS": "1"}
"""NVLink multicast off in NCCL, PyTorch and NVSHMEM. LoRA's gradients are a few MB a step, so
multicast buys nothing here, and on a shared host a program using it can take the GPUs out of
service (the machine notes of the lent GPUs); set before the process group starts."""


def keep_multicast_off() -> dict[str, str]:
    """Sets `NO_MULTICAST` in this process's environment where unset; returns what was set.

    Processes `accelerate launch` or torchrun start inherit it. A value the user exported wins.
    """
    set_here = {name: value for name, value in NO_MULTICAST.items() if name not in os.environ}
    os.environ.update(set_here)
    return set_here


class SharedRolloutLog:
    """A `RolloutLog` that every process adds to and only the first process writes.

    `add` keeps a rollout in this process; `share` (every process, once per generation round,
    from the training thread) gathers them all into the first process's log. With one process it
    is the log itself with `share` doing nothing.

    Args:
        folder: the rollouts folder (the first process creates it, moving an earlier run aside).
        rank: this process's index; num_processes: how many there are.
        resume_after: as `RolloutLog`'s.
    """

    def __init__(self, folder: Path, rank: int = 0, num_processes: int = 1, resume_after: int | None = None) -> None:
        self.rank, self.num_processes = rank, num_processes
        self.log = RolloutLog(folder, resume_after=resume_after) if rank == 0 else None
        self.folder = Path(folder)
        self._pending: list[tuple[Rollout, str | None]] = []

    @property
    def rollouts(self) -> list[Rollout]:
        """Every rollout written so far (the first process's view; empty in the others)."""
        return self.log.rollouts if self.log is not None else []

    def add(self, rollout: Rollout, png_b64: str | None, turn_pngs: list[str | None] | None = None) -> None:
        """Writes one rollout (one process), or keeps it until `share` (several); `RolloutLog.add`'s arguments."""
        if self.num_processes == 1:
            self.log.add(rollout, png_b64, turn_pngs)
        else:
            self._pending.append((rollout, png_b64, turn_pngs))

    def flush(self) -> None:
        """Rewrites the curve and the gallery (one process); with several, `share` does it."""
        if self.num_processes == 1:
            self.log.flush()

    def share(self) -> None:
        """Gathers every process's kept rollouts into the first process's log, in process order.

        A collective: every process calls it the same number of times, from the training thread.
        """
        if self.num_processes == 1:
            return
        from accelerate.utils import gather_object

        pending, self._pending = self._pending, []
        gathered: list[Any] = gather_object([pending])  # one list per process
        if self.log is None:
            return
        for rollouts in gathered:
            for rollout, png, turn_pngs in rollouts:
                self.log.add(rollout, png, turn_pngs)
        self.log.flush()
