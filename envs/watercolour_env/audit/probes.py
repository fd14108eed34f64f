"""The audit's shipped probe sketches.

`probes/honest/`: honest paintings written for the audit, in no pool: hibiscus and other subjects.
"""

from __future__ import annotations

from pathlib import Path

PROBES = Path(__file__).resolve().parent / "probes"
HONEST = PROBES / "honest"


def honest_sketches(subject: str = "hibiscus") -> dict[str, str]:
    """Name -> source of the honest probes whose file name starts with `subject` ("" for all)."""
    return {p.stem: p.read_text(encoding="utf-8") for p in sorted(HONEST.glob(f"{subject}*.js"))}
