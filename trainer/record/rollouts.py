"""Every rollout of a run kept where a person can open it: JSONL, PNGs, gallery and curve.

Layout of a rollouts folder:
    rollouts.jsonl   one JSON object per rollout (step, group, position, prompt, completion, sketch,
                     reward, status, components, violations, image path)
    paintings/       step0001-g00-p00.png, ... (only rollouts that rendered)
    curve.csv        per step: rollouts, reward mean and sample std (n - 1, as TRL's logged
                     `reward_std`) over rollouts with a reward (gate failures count as 0.0,
                     unscored ones are left out, as in GRPO's group statistics), gate failure
                     and infrastructure failure fractions
    gallery.html     the paintings by step, best first within a step
"""

from __future__ import annotations

import base64
import csv
import json
import logging
import shutil
import statistics
import threading
import time
from dataclasses import asdict
from pathlib import Path

from watercolour_env.rollout import Rollout
from watercolour_trainer.record.gallery import write_gallery
from watercolour_trainer.record.paintings import turn_name

log = logging.getLogger(__name__)


class RolloutLog:
    """Appends rollouts and keeps `curve.csv` and `gallery.html` current; thread-safe.

    Args:
        folder: the rollouts folder; created if missing. A folder that already holds a run is
            renamed `<folder>-<timestamp>` first, so runs never mix and nothing is lost.
        resume_after: the step of the checkpoint a run resumes from (trainer state's
            `global_step`). The folder's rollouts up to and including that step are kept and
            new ones appended; later ones (made after the checkpoint, so made again now) stay
            only in the renamed copy.
    """

    def __init__(self, folder: Path, resume_after: int | None = None) -> None:
        self.folder = Path(folder)
        self._lock = threading.Lock()
        self._rollouts: list[Rollout] = []
        kept = None
        if (self.folder / "rollouts.jsonl").exists():
            kept = self.folder.with_name(f"{self.folder.name}-{time.strftime('%Y%m%d-%H%M%S')}")
            self.folder.rename(kept)
            log.warning("a previous run's rollouts were in %s; moved them to %s", self.folder, kept)
        (self.folder / "paintings").mkdir(parents=True, exist_ok=True)
        if resume_after is not None and kept is not None:
            self._carry_over(kept, resume_after)

    def _carry_over(self, kept: Path, last_step: int) -> None:
        """Copies `kept`'s rollouts of steps <= `last_step` (and their paintings) into this folder."""
        for line in (kept / "rollouts.jsonl").read_text(encoding="utf-8").splitlines():
            rollout = Rollout(**json.loads(line))
            if rollout.step > last_step:
                continue
            if rollout.image and (kept / rollout.image).is_file():
                shutil.copyfile(kept / rollout.image, self.folder / rollout.image)
            else:
                rollout.image = None
            self._append(rollout)
        log.info("resuming after step %d: kept %d rollouts from %s", last_step, len(self._rollouts), kept)

    @property
    def rollouts(self) -> list[Rollout]:
        """The rollouts written so far, in order."""
        return list(self._rollouts)

    def add(self, rollout: Rollout, png_b64: str | None, turn_pngs: list[str | None] | None = None) -> None:
        """Writes one rollout (and its PNG, given as base64) to disk.

        `turn_pngs`: with revisions, the PNGs of the episode's paintings before its last, in order
        (None for one that did not render); each is named `paintings.turn_name` and its turn's
        `image` set.
        """
        with self._lock:
            if png_b64:
                name = f"step{rollout.step:04d}-g{rollout.group:02d}-p{rollout.position:02d}.png"
                (self.folder / "paintings" / name).write_bytes(base64.b64decode(png_b64))
                rollout.image = f"paintings/{name}"
            for n, (turn, png) in enumerate(zip(rollout.turns, turn_pngs or [], strict=False), start=1):
                if png:
                    name = turn_name(asdict(rollout), n)
                    (self.folder / name).write_bytes(base64.b64decode(png))
                    turn["image"] = name
            self._append(rollout)

    def _append(self, rollout: Rollout) -> None:
        self._rollouts.append(rollout)
        with open(self.folder / "rollouts.jsonl", "a", encoding="utf-8") as f:
            f.write(json.dumps(asdict(rollout)) + "\n")

    def flush(self) -> None:
        """Rewrites `curve.csv` and `gallery.html` from every rollout so far."""
        with self._lock:
            rows = curve_rows(self._rollouts)
            with open(self.folder / "curve.csv", "w", newline="", encoding="utf-8") as f:
                writer = csv.DictWriter(f, fieldnames=list(CURVE_FIELDS))
                writer.writeheader()
                writer.writerows(rows)
            write_gallery(self.folder / "gallery.html", self._rollouts)


CURVE_FIELDS = ("step", "rollouts", "reward_mean", "reward_std", "gate_fail_fraction", "infra_fail_fraction")


def curve_rows(rollouts: list[Rollout]) -> list[dict[str, object]]:
    """Per-step statistics; reward mean and sample std (n - 1) over rollouts whose reward is not None.

    The std is TRL's `reward_std` (Bessel-corrected, over the step's scored rollouts), so the
    step line, the summary and the curve give one number for one step; "" under two rewards.
    """
    rows = []
    for step in sorted({r.step for r in rollouts}):
        at_step = [r for r in rollouts if r.step == step]
        rewards = [r.reward for r in at_step if r.reward is not None]
        rows.append(
            {
                "step": step,
                "rollouts": len(at_step),
                "reward_mean": round(statistics.fmean(rewards), 6) if rewards else "",
                "reward_std": round(statistics.stdev(rewards), 6) if len(rewards) > 1 else "",
                "gate_fail_fraction": round(sum(r.status == "rejected" for r in at_step) / len(at_step), 6),
                "infra_fail_fraction": round(sum(r.status == "infra_error" for r in at_step) / len(at_step), 6),
            }
        )
    return rows
