"""The audit's shipped probe sketches.

`sketches/honest/`: honest paintings written for the audit, in no pool: 12 hibiscus and 4 of
other subjects (whale, sailboat, lemon, bird); `sketches/other/`: 12 more of other subjects.
"""

from __future__ import annotations

from pathlib import Path

SKETCHES = Path(__file__).resolve().parent / "sketches"
HONEST = SKETCHES / "honest"
OTHER = SKETCHES / "other"


def honest_sketches(subject: str = "hibiscus") -> dict[str, str]:
    """Name -> source of the honest probes whose file name starts with `subject` ("" for all)."""
    return {p.stem: p.read_text(encoding="utf-8") for p in sorted(HONEST.glob(f"{subject}*.js"))}


def other_subject_sketches() -> dict[str, str]:
    """Name -> source of the paintings of subjects other than a flower, `sketches/other/`."""
    return {p.stem: p.read_text(encoding="utf-8") for p in sorted(OTHER.glob("*.js"))}
