"""Two halves of one pool: a proxy to train against and a gold to judge the training by.

GRPO pays the policy for every gap between the reward and what was meant. A scorer fitted on
half of the pool's ratings (the proxy) is the reward; one fitted on the other half (the gold,
`WATERCOLOUR_GOLD_POOL`, reported beside the reward and never paid) scores the same paintings. The
proxy rising while the gold falls is reward over-optimisation (Gao et al., 2022, "Scaling Laws for
Reward Model Overoptimization"), whatever the reward curve says (issue 34).
"""

from __future__ import annotations

import random
import re
from collections import defaultdict
from dataclasses import replace
from pathlib import Path

import typer

from watercolour_env.pool.loader import Pool, Reference


def family(reference: Reference) -> str:
    """The painting's kind, from its id: "bloom-03" -> "bloom", "formless-grid-4x4-pale-300" -> "formless-grid"."""
    words = reference.id.split("-")
    if words[0] == "formless" and len(words) > 1:
        return "-".join(words[:2])
    return re.sub(r"\d+$", "", words[0]) or reference.id


def split_pool(pool: Pool, seed: int = 0) -> tuple[list[Reference], list[Reference]]:
    """The pool's paintings in two halves, each tier and each kind of painting divided evenly.

    Within each (tier, kind) the paintings are shuffled with `seed` and dealt alternately; the
    half that gets the odd one out alternates from group to group, so the halves differ in size by
    at most one.

    Returns:
        (proxy, gold), each in pool order.
    """
    groups: dict[tuple[str, str], list[Reference]] = defaultdict(list)
    for reference in pool.references:
        groups[(reference.tier.value, family(reference))].append(reference)
    rng = random.Random(seed)
    halves: tuple[set[str], set[str]] = (set(), set())
    turn = 0
    for key in sorted(groups):
        members = groups[key][:]
        rng.shuffle(members)
        for i, reference in enumerate(members):
            halves[(i + turn) % 2].add(reference.id)
        turn += len(members) % 2
    proxy = [r for r in pool.references if r.id in halves[0]]
    gold = [r for r in pool.references if r.id in halves[1]]
    return proxy, gold


def split_command(
    out: Path = typer.Argument(..., file_okay=False, help="Folder for proxy/ and gold/ (created)."),
    pool: str = typer.Option(None, help="Pool to split: a folder or a Hub dataset (default: the starter pool)."),
    seed: int = typer.Option(0, help="Seed of the deal."),
) -> None:
    """Split a pool into OUT/proxy and OUT/gold: train against one, judge by the other.

    Serve with WATERCOLOUR_POOL=OUT/proxy and WATERCOLOUR_GOLD_POOL=OUT/gold: the reward is fitted
    on the proxy half, and the `gold` component, fitted on the other half and never paid, scores
    every painting beside it (`watercolour analyze` prints both by third). Both halves keep the
    pool's subject, hint and subjects.txt; the proxy, which is served, keeps its oracle too.
    """
    from watercolour_env.curate.hub import write_folder
    from watercolour_env.pool import STARTER_POOL

    whole = Pool.load(pool or str(STARTER_POOL))
    declared = whole.declaration
    proxy, gold = split_pool(whole, seed)
    halves = {
        "proxy": (proxy + ([whole.oracle] if whole.oracle else []), declared),
        "gold": (gold, replace(declared, oracle=None)),
    }
    for name, (paintings, declaration) in halves.items():
        # refuses a half without love or okay
        half = Pool(paintings, str(out / name), whole.declared_subjects, declaration)
        write_folder(half, out / name)
        typer.echo(f"{out / name}: " + ", ".join(f"{tier} {n}" for tier, n in half.counts().items()))
