"""Closing the loop: a run's paintings into a pool as unrated candidates, to be rated into the next taste.

    watercolour pool add RUN_DIR --into POOL [--min-reward X]
    watercolour pool add --off-subject 8 --into POOL

Reads the run's `rollouts.jsonl` (the trainer's format: one JSON object per rollout with step,
group, position, subject, seed, sketch, reward, status and image, relative to the file). Each
scored rollout with a painting and a reward of at least `min_reward` becomes a row of the pool
with tier None: `watercolour pool rate POOL` rates it. Its sketch and PNG are copied (the id is
`<run>-s<step>-g<group>-p<position>`), and the row's notes carry the provenance (run folder,
step, group, position, reward). Adding the same run twice adds nothing the second time.
`--off-subject` adds paintings of other things than the pool's subject instead (`add_off_subject`).
"""

from __future__ import annotations

import json
import shutil
from dataclasses import dataclass, field
from itertools import zip_longest
from pathlib import Path

from watercolour_env.errors import ConfigError
from watercolour_env.pool.loader import (
    MANIFEST,
    STARTER_POOL,
    Pool,
    PoolRow,
    Tier,
    check_image,
    read_manifest,
    write_manifest,
)
from watercolour_env.pool.subjects import SubjectCoverage
from watercolour_env.prompt import DEFAULT_SUBJECT
from watercolour_env.rollout import read_rollout_rows, rollouts_file


@dataclass
class AddSummary:
    """Ids added; rollouts skipped as already in the pool, and left out with the reason counted."""

    added: list[str] = field(default_factory=list)
    present: list[str] = field(default_factory=list)
    left_out: dict[str, int] = field(default_factory=dict)


def add_rollouts(run_dir: Path, pool_dir: Path, min_reward: float = 0.0) -> AddSummary:
    """Copies a run's scored paintings into a pool folder as unrated rows; see the module docstring.

    Args:
        run_dir: a run's output_dir, or its rollouts folder.
        pool_dir: the pool folder; created (with an empty manifest) when missing.
        min_reward: the least reward a rollout needs, in [0, 1].

    Raises:
        ConfigError: no rollouts.jsonl in `run_dir`, a malformed line, or a pool manifest that
            does not parse.
    """
    source = rollouts_file(Path(run_dir))
    pool_dir = Path(pool_dir)
    (pool_dir / "images").mkdir(parents=True, exist_ok=True)
    (pool_dir / "sketches").mkdir(exist_ok=True)
    rows = read_manifest(pool_dir) if (pool_dir / MANIFEST).is_file() else []
    known = {row.id for row in rows}
    run_name = source.parent.parent.name if source.parent.name == "rollouts" else source.parent.name
    summary = AddSummary()

    def leave_out(reason: str) -> None:
        summary.left_out[reason] = summary.left_out.get(reason, 0) + 1

    for number, r in read_rollout_rows(source):
        try:
            step, group, position, reward = int(r["step"]), int(r["group"]), int(r["position"]), r["reward"]
        except (ValueError, KeyError, TypeError) as err:
            raise ConfigError(f"{source}:{number}: not a rollout ({type(err).__name__}: {err})") from err
        if r.get("status") != "scored" or reward is None:
            leave_out(f"not scored ({r.get('status')})")
            continue
        if reward < min_reward:
            leave_out(f"reward under {min_reward:g}")
            continue
        image = source.parent / (r.get("image") or "")
        if not r.get("image") or not image.is_file() or not r.get("sketch"):
            leave_out("no painting or sketch")
            continue
        row_id = f"{run_name}-s{step:04d}-g{group:02d}-p{position:02d}"
        if row_id in known:
            summary.present.append(row_id)
            continue
        try:
            check_image(image.read_bytes())
        except ValueError:
            leave_out("unreadable painting")
            continue
        shutil.copyfile(image, pool_dir / "images" / f"{row_id}.png")
        (pool_dir / "sketches" / f"{row_id}.js").write_text(r["sketch"], encoding="utf-8")
        provenance = {
            "run": str(source.parent.resolve()),
            "step": step,
            "group": group,
            "position": position,
            "reward": reward,
        }
        rows.append(
            PoolRow.at(
                row_id,
                subject=r.get("subject") or DEFAULT_SUBJECT,
                author=f"rollout of {run_name}",
                seed=int(r.get("seed") or 0),
                notes=json.dumps(provenance),
            )
        )
        known.add(row_id)
        summary.added.append(row_id)
    write_manifest(pool_dir, rows)
    return summary


OFF_SUBJECT_SOURCE = STARTER_POOL
"""Where off-subject paintings come from: the starter's hibiscus (its loved ones first, the most
seductive) and its sincere paintings of other subjects (`other-*`). None of them is an audit
probe, so rating them `nope` teaches the scorer without hiding the audit's own off-subject family."""


def add_off_subject(pool_dir: Path, count: int = 8) -> AddSummary:
    """Copies `count` paintings that are not of the pool's subject into it, unrated, to rate `nope`.

    They alternate between the starter's loved hibiscus and its paintings of other subjects. Each
    row carries the pool's own subject (what a policy was asked for: a painting of anything else
    is a wrong answer to it) and a note naming what it shows; the id is `off-<starter id>`.
    Adding twice adds nothing the second time.

    Args:
        pool_dir: a pool folder with a subject (`pool.toml`, or rendered rows that agree).
        count: how many, 1 to the starter's supply (its 19 loved hibiscus and 8 other subjects).

    Raises:
        ConfigError: the pool is of a hibiscus (the starter's paintings are on its subject), or
            no subject can be told for it.
    """
    from watercolour_env.curate.render import pool_subject

    pool_dir = Path(pool_dir)
    subject = pool_subject(pool_dir)
    if SubjectCoverage([subject]).covers("a hibiscus") or SubjectCoverage(["a hibiscus"]).covers(subject):
        raise ConfigError(f"{pool_dir} is a pool of {subject!r}: the starter's hibiscus are on its subject, not off it")
    source = Pool.load(str(OFF_SUBJECT_SOURCE))
    hibiscus = source.tier(Tier.LOVE)
    others = [r for r in source.references if r.id.startswith("other-")]
    chosen = [r for pair in zip_longest(hibiscus, others) for r in pair if r is not None][:count]
    (pool_dir / "images").mkdir(parents=True, exist_ok=True)
    (pool_dir / "sketches").mkdir(exist_ok=True)
    rows = read_manifest(pool_dir, subject) if (pool_dir / MANIFEST).is_file() else []
    known = {row.id for row in rows}
    summary = AddSummary()
    for reference in chosen:
        row_id = f"off-{reference.id}"
        if row_id in known:
            summary.present.append(row_id)
            continue
        (pool_dir / "images" / f"{row_id}.png").write_bytes(reference.png)
        (pool_dir / "sketches" / f"{row_id}.js").write_text(reference.sketch, encoding="utf-8")
        shows = "a hibiscus" if reference.id in {r.id for r in hibiscus} else "another subject than a hibiscus"
        note = f"off-subject: {reference.id} of the starter pool, {shows}; rate it nope"
        rows.append(PoolRow.at(row_id, subject=subject, notes=note))
        summary.added.append(row_id)
    write_manifest(pool_dir, rows)
    return summary
