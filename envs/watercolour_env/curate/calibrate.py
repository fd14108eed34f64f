"""How a policy's rollouts fare against each reference under the judge.

A reference that every rollout beats is too easy to teach anything; one that none ever beats
gives no signal either. `calibrate` compares each rollout painting with each reference (both
presentation orders, as in training) and reports the share of comparisons the rollouts won per
reference, so a pool builder can see which references to keep, move or drop.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from pathlib import Path

from tqdm import tqdm

from watercolour_env.pool import Pool, Tier
from watercolour_env.server.reward.pairwise import PairwiseJudge


@dataclass
class ReferenceCalibration:
    """One reference's record against the rollouts: wins in [0, 1] over resolved comparisons."""

    id: str
    tier: str
    rollout_win_rate: float | None
    resolved: int
    comparisons: int


def rollout_paintings(folder: Path, limit: int | None = None) -> list[bytes]:
    """PNGs of a run's rollouts (`<rollouts>/paintings/*.png`), newest steps last."""
    paths = sorted(Path(folder).glob("paintings/*.png"))
    return [p.read_bytes() for p in (paths[-limit:] if limit else paths)]


def calibrate(
    pool: Pool, paintings: list[bytes], judge: PairwiseJudge, tiers: tuple[Tier, ...] = (Tier.LOVE, Tier.OKAY)
) -> list[ReferenceCalibration]:
    """The rollouts' win rate against every reference of `tiers`, hardest first."""
    results = []
    for reference in tqdm([r for r in pool.references if r.tier in tiers], desc="calibrating", unit="reference"):
        comparisons = [c for png in paintings for c in judge.score(png, [reference]).comparisons]
        resolved = [c for c in comparisons if c.candidate_won is not None]
        rate = sum(bool(c.candidate_won) for c in resolved) / len(resolved) if resolved else None
        results.append(ReferenceCalibration(reference.id, reference.tier.value, rate, len(resolved), len(comparisons)))
    return sorted(results, key=lambda r: (r.rollout_win_rate is None, r.rollout_win_rate or 0.0))


def write_report(results: list[ReferenceCalibration], path: Path) -> None:
    """Writes the calibration as JSON (one object per reference)."""
    path.write_text(json.dumps([asdict(r) for r in results], indent=2))
