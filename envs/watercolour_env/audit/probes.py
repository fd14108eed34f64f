"""The audit's shipped probe sketches.

`sketches/honest/`: honest paintings written for the audit, in no pool, each file named after a
word of its subject: 11 hibiscus, 8 jellyfish and 9 songbirds on a branch (`songbird-robin`
among them), painted by other hands than the pool's, and 3 of subjects no pool of ours covers
(whale, sailboat, lemon); `sketches/other/`: 4 more of other subjects. An audit's controls are
the probes of its subject; every other is "another subject" for it. `sketches/radial/`: radial
things that are no flower, two of each family (sun, starfish, pinwheel, snowflake, mandala,
target, wheel), painted for the audit by a hand that never saw the pool or the reward's code
(issue 54): each family is its own row, out of the pool's sample.
"""

from __future__ import annotations

from pathlib import Path

SKETCHES = Path(__file__).resolve().parent / "sketches"
HONEST = SKETCHES / "honest"
OTHER = SKETCHES / "other"
RADIAL = SKETCHES / "radial"


def honest_sketches(subject: str = "hibiscus") -> dict[str, str]:
    """Name -> source of the honest probes whose file name starts with `subject` ("" for all)."""
    return {p.stem: p.read_text(encoding="utf-8") for p in sorted(HONEST.glob(f"{subject}*.js"))}


def other_subject_sketches() -> dict[str, str]:
    """Name -> source of the paintings of subjects other than a flower, `sketches/other/`."""
    return {p.stem: p.read_text(encoding="utf-8") for p in sorted(OTHER.glob("*.js"))}


def radial_sketches() -> dict[str, str]:
    """Name -> source of the radial non-flowers, `sketches/radial/` (e.g. "sun-01")."""
    return {p.stem: p.read_text(encoding="utf-8") for p in sorted(RADIAL.glob("*.js"))}
