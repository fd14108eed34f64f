"""How varied a run's paintings are, by third and by subject: did the policy settle on one?

The first run's policy put its one bloom at (289, 290) in 98% of the last third's sketches and
used 6-7 distinct hex colours a step where it had used 47 (docs/results.md). A reward that pays
one painting for every seed teaches that, and the mean reward cannot show it. Each measure is
taken per step (over every rollout of the step that has a sketch) and averaged over the steps
of a third, for all subjects and for each:

- `alike`: the mean Jaccard similarity of two replies' sets of lines, over every pair (1 when all
  are one reply; `analyze.alike`);
- `distinct`: the share of the step's sketches that differ from every other once whitespace is
  dropped (1.0 when no two are the same text);
- `near_duplicates`: the share of sketches with a near-duplicate in their group (the completions
  of one prompt, that GRPO compares): another whose lines it shares at least `NEAR` of (Jaccard);
- `colours`: distinct hex colours (`#rgb` and `#rrggbb`, lower case, `#rgb` expanded) over the
  step's sketches: the palette the policy paints with.
"""

from __future__ import annotations

import re
import statistics
from collections import defaultdict

NEAR = 0.8
"""Jaccard similarity of two sketches' line sets from which they are near-duplicates: a reply that
changes one line in five of another."""
HEX = re.compile(r"#(?:[0-9a-fA-F]{6}|[0-9a-fA-F]{3})\b")


def lines_of(sketch: str) -> frozenset[str]:
    """The sketch's stripped, non-blank lines."""
    return frozenset(s for line in sketch.splitlines() if (s := line.strip()))


def jaccard(a: frozenset[str], b: frozenset[str]) -> float:
    """|a & b| / |a | b|; 1.0 for two empty sets."""
    return len(a & b) / len(a | b) if a | b else 1.0


def hex_colours(sketch: str) -> set[str]:
    """The hex colours a sketch names, lower case, `#abc` as `#aabbcc`."""
    out = set()
    for match in HEX.findall(sketch):
        digits = match[1:].lower()
        out.add("#" + ("".join(c * 2 for c in digits) if len(digits) == 3 else digits))
    return out


def distinct_share(sketches: list[str]) -> float | None:
    """The share of sketches whose text (whitespace dropped) no other sketch has; None for none."""
    if not sketches:
        return None
    keys = ["".join(s.split()) for s in sketches]
    counts: dict[str, int] = defaultdict(int)
    for key in keys:
        counts[key] += 1
    return sum(counts[key] == 1 for key in keys) / len(keys)


def near_duplicate_share(groups: list[list[str]], near: float = NEAR) -> float | None:
    """The share of sketches with another of their group at Jaccard similarity >= `near`; None for none."""
    flagged = total = 0
    for group in groups:
        lines = [lines_of(s) for s in group]
        for i, own in enumerate(lines):
            total += 1
            flagged += any(jaccard(own, other) >= near for j, other in enumerate(lines) if j != i)
    return flagged / total if total else None


def distinct_paintings(sketches: list[str], near: float = NEAR) -> int:
    """How many different paintings `sketches` make: groups of near-duplicates counted once.

    Two sketches are near-duplicates when they share at least `near` of their lines (Jaccard, as
    `analyze`'s near-duplicates); a group is the chain of such pairs (single linkage), so 16 replies
    that each change one line of the last count as one.
    """
    lines = [lines_of(s) for s in sketches]
    group = list(range(len(lines)))

    def root(i: int) -> int:
        while group[i] != i:
            i = group[i]
        return i

    for i in range(len(lines)):
        for j in range(i):
            if jaccard(lines[i], lines[j]) >= near:
                group[root(i)] = root(j)
    return len({root(i) for i in range(len(lines))})


def step_variety(rollouts: list[dict]) -> dict:
    """`{"sketches", "alike", "distinct", "near_duplicates", "colours"}` of one step's rollouts.

    Rollouts without a sketch (no code block) are left out; a measure of no sketches is None.
    """
    from watercolour_trainer.record.analyze import alike

    painted = [r for r in rollouts if r.get("sketch")]
    groups: dict[object, list[str]] = defaultdict(list)
    for r in painted:
        groups[r.get("group")].append(r["sketch"])
    sketches = [r["sketch"] for r in painted]
    return {
        "sketches": len(sketches),
        "alike": alike(sketches),
        "distinct": distinct_share(sketches),
        "near_duplicates": near_duplicate_share(list(groups.values())),
        "colours": len(set().union(*map(hex_colours, sketches))) if sketches else None,
    }


MEASURES = ("alike", "distinct", "near_duplicates", "colours")


def by_third(by_step: dict[int, list[dict]], parts: list[list[int]]) -> list[dict]:
    """Per third and subject ("all" first, then each subject by name): the step measures' means.

    Returns:
        [{"third", "subject", "steps", "sketches", "alike", "distinct", "near_duplicates",
        "colours"}], a measure None where no step of the third had a sketch of the subject.
    """
    subjects = sorted({r.get("subject") or "" for rs in by_step.values() for r in rs} - {""})
    rows = []
    for subject in ["all", *subjects] if len(subjects) > 1 else ["all"]:
        for name, part in zip(("first", "middle", "last"), parts, strict=True):
            measured = [
                step_variety([r for r in by_step[s] if subject == "all" or r.get("subject") == subject]) for s in part
            ]
            measured = [m for m in measured if m["sketches"]]
            row = {"third": name, "subject": subject, "steps": len(measured)}
            row["sketches"] = sum(m["sketches"] for m in measured)
            for key in MEASURES:
                values = [m[key] for m in measured if m[key] is not None]
                row[key] = statistics.fmean(values) if values else None
            rows.append(row)
    return rows
