"""On the GPU machine: packs a run's record, what `docs/runs/<name>/` keeps, into `record.tar`.

    python3 bench/gpu_record.py RUN_DIR CONFIG OUT [LOG ...]

Standard library only. Safe while the trainer still runs (`bench/gpu_learn.sh --wait`): the
record is the newest checkpoint that is complete (its `trainer_state.json` written, which the
trainer does after the adapter) and the rollouts up to that checkpoint's step, so that what
comes back is one consistent state, from which a new session resumes. The run's later rollouts
are made again by the resumed run; a line still being written is left out.

`OUT/record.tar` holds `record/`: `rollouts.jsonl.gz` (every step from the first, up to the
checkpoint's; no PNGs), `curve.csv` (its rows up to that step), `config.yaml`,
`trainer_state.json`, and `checkpoint-<step>/` without the optimiser's state (the adapter, the
trainer's state, the random generators'). `OUT/best.tar`, when the checkpoint's state names a
best checkpoint of the gold that is another (`best_global_step`), holds
`record/checkpoint-<best>/` the same way: untar both into `docs/runs/`. `OUT/logs.tar` holds
`logs/` with each LOG given. A call returns at most 8 files, each under 16 MiB
(docs/gpu-run.md), hence several tars.
Exit 0; 1 when RUN_DIR has no rollouts at all, or rollouts that are not one run's steps 1 to the
checkpoint's (then `logs.tar` alone is written).
"""

from __future__ import annotations

import argparse
import csv
import gzip
import io
import json
import os
import re
import shutil
import sys
import tarfile
import tempfile
from pathlib import Path

SLIM = ("adapter_config.json", "adapter_model.safetensors", "trainer_state.json", "rng_state.pth")
"""What a checkpoint keeps in the record: all but the optimiser's and the scheduler's state."""


def newest_checkpoint(run_dir: Path) -> Path | None:
    """The `checkpoint-<step>` folder of `run_dir` with the highest step whose `trainer_state.json` reads."""
    steps = sorted(
        (
            (int(m.group(1)), p)
            for p in run_dir.glob("checkpoint-*")
            if (m := re.fullmatch(r"checkpoint-(\d+)", p.name))
        ),
        reverse=True,
    )
    for _, folder in steps:
        try:
            json.loads((folder / "trainer_state.json").read_text(encoding="utf-8"))
        except (OSError, ValueError):  # not written yet, or being written
            continue
        return folder
    return None


def rollouts_up_to(jsonl: Path, last_step: int | None) -> tuple[bytes, list[int]]:
    """The complete lines of `jsonl` whose rollout's `step` <= `last_step` (all when None), and their steps."""
    kept, steps = [], []
    for line in jsonl.read_bytes().splitlines():
        try:
            step = json.loads(line)["step"]
        except (ValueError, KeyError, TypeError):  # the line the trainer is writing, cut short
            continue
        if last_step is None or step <= last_step:
            kept.append(line)
            steps.append(step)
    return b"".join(line + b"\n" for line in kept), steps


def curve_up_to(curve: Path, last_step: int | None) -> str:
    """`curve.csv`'s header and its rows of steps <= `last_step` (all when None)."""
    rows = list(csv.reader(io.StringIO(curve.read_text(encoding="utf-8"))))
    if not rows:
        return ""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")  # as csv.DictWriter wrote it
    writer.writerow(rows[0])
    writer.writerows(r for r in rows[1:] if r and (last_step is None or int(r[0]) <= last_step))
    return out.getvalue()


def pack(run_dir: Path, config: Path, out: Path, logs: list[Path]) -> str:
    """Writes `out/logs.tar`, then `out/record.tar`; returns one line saying what the record holds.

    Each tar is written beside its name and moved onto it, so that a call cut short leaves the
    last whole one.

    Raises:
        FileNotFoundError: `run_dir` has no `rollouts/rollouts.jsonl`.
        ValueError: the rollouts are not those of steps 1 to the checkpoint's, each at least
            once, or the checkpoint's state names another step (a run started afresh beside a
            kept checkpoint, say); no record is written.
    """
    write_tar(out / "logs.tar", [(log, f"logs/{log.name}") for log in logs if log.is_file()])
    checkpoint = newest_checkpoint(run_dir)
    step = int(checkpoint.name.split("-")[1]) if checkpoint else None
    lines, steps = rollouts_up_to(run_dir / "rollouts" / "rollouts.jsonl", step)
    if checkpoint:
        state = json.loads((checkpoint / "trainer_state.json").read_text(encoding="utf-8"))
        if state.get("global_step") != step or set(steps) != set(range(1, step + 1)):
            have = f"{min(steps)}-{max(steps)}" if steps else "none"
            raise ValueError(
                f"{checkpoint.name} (global_step {state.get('global_step')}) but rollouts of steps {have}, "
                f"{len(set(steps))} distinct: not one run; not packed"
            )
    with tempfile.TemporaryDirectory() as tmp:
        record = Path(tmp) / "record"
        record.mkdir()
        shutil.copyfile(config, record / "config.yaml")
        (record / "rollouts.jsonl.gz").write_bytes(gzip.compress(lines))
        curve = run_dir / "rollouts" / "curve.csv"
        if curve.is_file():
            (record / "curve.csv").write_text(curve_up_to(curve, step), encoding="utf-8", newline="")
        if checkpoint:
            slim_copy(checkpoint, record / checkpoint.name)
            shutil.copyfile(checkpoint / "trainer_state.json", record / "trainer_state.json")
        write_tar(out / "record.tar", [(record, "record")])
        best = best_checkpoint(run_dir, state) if checkpoint else None
        if best is not None:
            kept = Path(tmp) / "best" / "record" / best.name
            slim_copy(best, kept)
            write_tar(out / "best.tar", [(kept.parent, "record")])
        else:
            (out / "best.tar").unlink(missing_ok=True)  # an earlier pack's: no longer the record's best
    if checkpoint is None:
        return f"record.tar: no checkpoint yet, {len(steps)} rollouts"
    line = f"record.tar: {checkpoint.name}, {len(steps)} rollouts up to its step"
    return line + (f"; best.tar: {best.name}, the gold's best window" if best is not None else "")


def slim_copy(checkpoint: Path, into: Path) -> None:
    """Copies the `SLIM` files of a checkpoint into a new folder."""
    into.mkdir(parents=True)
    for name in SLIM:
        if (checkpoint / name).is_file():
            shutil.copyfile(checkpoint / name, into / name)


def best_checkpoint(run_dir: Path, state: dict) -> Path | None:
    """The gold's best checkpoint the trainer's state names (`best_global_step`), when it is another and complete.

    `KeepBestGold` (trainer/training/stopping.py) keeps it past the save limit; it travels in
    `best.tar` beside `record.tar`, each under the 16 MiB a returned file may hold.
    """
    step = state.get("best_global_step")
    if not isinstance(step, int) or step == state.get("global_step"):
        return None
    folder = run_dir / f"checkpoint-{step}"
    try:
        json.loads((folder / "trainer_state.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return folder


def write_tar(path: Path, members: list[tuple[Path, str]]) -> None:
    """Writes a tar of `members` (path, name inside) to `path`, through `path`.part and a rename."""
    path.parent.mkdir(parents=True, exist_ok=True)
    part = path.with_name(path.name + ".part")
    with tarfile.open(part, "w") as tar:
        for member, name in members:
            tar.add(member, arcname=name)
    os.replace(part, path)


def main(argv: list[str] | None = None) -> int:
    """The command line; see the module's docstring."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("run_dir", type=Path)
    parser.add_argument("config", type=Path)
    parser.add_argument("out", type=Path)
    parser.add_argument("logs", type=Path, nargs="*")
    args = parser.parse_args(argv)
    try:
        print(pack(args.run_dir, args.config, args.out, args.logs))
    except FileNotFoundError as error:
        print(f"nothing to pack: {error}", file=sys.stderr)
        return 1
    except ValueError as error:
        print(f"record.tar not written: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
