"""The audit's shipped probe sketches.

`sketches/honest/`: honest paintings written for the audit, in no pool: hibiscus and other subjects.
"""

from __future__ import annotations

from pathlib import Path

SKETCHES = Path(__file__).resolve().parent / "sketches"
HONEST = SKETCHES / "honest"


def honest_sketches(subject: str = "hibiscus") -> dict[str, str]:
    """Name -> source of the honest probes whose file name starts with `subject` ("" for all)."""
    return {p.stem: p.read_text(encoding="utf-8") for p in sorted(HONEST.glob(f"{subject}*.js"))}
