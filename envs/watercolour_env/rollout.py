"""A run's rollouts, one format for the trainer and every reader: the record, its file, its reader.

One JSON object per rollout and line (`dataclasses.asdict(Rollout)`); images are paths relative to
the file. The trainer writes it (`watercolour_trainer.record.rollouts.RolloutLog`); `analyze`, `gallery`
and `pool add` read it. A run's record kept in git (docs/runs/) holds it gzipped, without PNGs.
"""

from __future__ import annotations

import gzip
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from watercolour_env.errors import ConfigError, read_text

if TYPE_CHECKING:
    from watercolour_env.models import WatercolourObservation


@dataclass
class Rollout:
    """One completion and what the environment made of it; `reward` None = not scored."""

    step: int
    group: int
    position: int
    subject: str
    seed: int
    completion: str
    sketch: str | None
    reward: float | None
    status: str
    violations: list[str] = field(default_factory=list)
    components: list[dict] = field(default_factory=list)
    js_errors: list[str] = field(default_factory=list)
    paint_fraction: float | None = None
    render_ms: float | None = None
    queue_ms: float | None = None
    image: str | None = None
    detail: str = ""
    prompt: str = ""  # the user prompt the environment gave at reset ("" when it never answered)
    turns: list[dict] = field(default_factory=list)  # with revisions: each painting's sketch, status, critique

    @classmethod
    def from_observation(
        cls, step: int, group: int, position: int, completion: str, observation: WatercolourObservation
    ) -> Rollout:
        """The rollout a step's observation makes; the PNG stays out (`RolloutLog.add` writes it).

        Every field of the same name is copied as its JSON value, so a field both sides gain
        travels without a line here; the reward's components become `components`.
        """
        sent = observation.model_dump(mode="json", exclude={"image_png_b64"})
        own = {name: sent[name] for name in cls.__dataclass_fields__ if name in sent}
        return cls(
            step=step,
            group=group,
            position=position,
            completion=completion,
            components=sent["reward_components"],
            **own,
        )


def rollouts_file(run_dir: Path) -> Path:
    """The run's rollouts file: the trainer's `rollouts/rollouts.jsonl` or `rollouts.jsonl`, or a record's `.gz`.

    `RUN_DIR/rollouts.jsonl.gz` is a run's record kept in git (docs/runs/).

    Raises:
        ConfigError: none exists; the message names the first two.
    """
    names = ("rollouts/rollouts.jsonl", "rollouts.jsonl", "rollouts.jsonl.gz")
    for candidate in (run_dir / name for name in names):
        if candidate.is_file():
            return candidate
    raise ConfigError(f"no rollouts.jsonl in {run_dir} or {run_dir / 'rollouts'} (a run's output_dir)")


def read_rollout_rows(source: Path) -> list[tuple[int, dict]]:
    """(line number, object) for each non-empty line of a `rollouts.jsonl` (or `.jsonl.gz`).

    Raises:
        ConfigError: the file is not text, or a line is not a JSON object; the line names file:line.
    """
    if source.suffix == ".gz":
        try:
            text = gzip.decompress(source.read_bytes()).decode("utf-8")
        except (OSError, EOFError, UnicodeDecodeError) as err:
            raise ConfigError(f"{source} is not a gzipped rollouts.jsonl ({err}); give a run's rollouts") from err
    else:
        text = read_text(source, "a run's rollouts.jsonl")
    rows = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except ValueError as err:
            raise ConfigError(f"{source}:{number}: not a rollout (not JSON: {err})") from err
        if not isinstance(row, dict):
            raise ConfigError(f"{source}:{number}: not a rollout (a JSON {type(row).__name__}, not an object)")
        rows.append((number, row))
    return rows
