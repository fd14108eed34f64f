"""`GET /pool`: the deployment's pool and what its own tiers score under the deployment's reward.

A painting of the pool sent back is a copy now (`copied_reference`), so a client cannot learn the
tiers' rewards by sending them; the server reports them instead. `watercolour audit` compares its
probes with these medians, and makes its copies from the sketches listed here. Behind the token
when one is set (the pool's sketches are the reward's definition, not a health check).
"""

from __future__ import annotations

import statistics
import threading
from typing import Any

from fastapi import FastAPI

from watercolour_env.pool import Pool, Reference, Tier
from watercolour_env.pool.subjects import SubjectCoverage
from watercolour_env.server.gate import GateResult
from watercolour_env.server.reward.rubric import Rubric
from watercolour_env.server.sandbox import RenderResult, RenderStatus, paint_fraction
from watercolour_env.sketch import inspect_sketch


def reference_reward(rubric: Rubric, reference: Reference) -> float | None:
    """The reward the deployment gives this painting, as if a policy had sent it and it passed.

    Its stored PNG and sketch go through the rubric with seed 0, for the subject it was rated for;
    None when a scorer gave no verdict.
    """
    render = RenderResult(RenderStatus.OK, reference.png, paint_fraction(reference.png), finished=True)
    gate = GateResult(True, [], reference.sketch, inspect_sketch(reference.sketch), render)
    return rubric.score(gate, None, seed=0, subject=reference.subject).reward


def tier_rewards(
    rubric: Rubric, pool: Pool, part: str | None = None, rewarded: dict[str, float | None] | None = None
) -> dict[str, dict[str, float | int | None]]:
    """Per tier: how many paintings, and the median, min and max of their rewards (None: unscored).

    Args:
        rubric: the deployment's reward.
        pool: its pool.
        part: only the paintings of this subject (a row's `subject`, e.g. "a jellyfish"); all when None.
        rewarded: each painting's reward by id, when already computed (`reference_reward`).
    """
    rewards: dict[str, list[float]] = {t.value: [] for t in Tier}
    unscored = dict.fromkeys(rewards, 0)
    for reference in pool.references:
        if part is not None and reference.subject != part:
            continue
        reward = rewarded[reference.id] if rewarded is not None else reference_reward(rubric, reference)
        if reward is None:
            unscored[reference.tier.value] += 1
        else:
            rewards[reference.tier.value].append(reward)
    return {
        tier: {
            "paintings": len(values) + unscored[tier],
            "unscored": unscored[tier],
            "median": statistics.median(values) if values else None,
            "min": min(values, default=None),
            "max": max(values, default=None),
        }
        for tier, values in rewards.items()
    }


def install(app: FastAPI, rubric: Rubric, pool: Pool, copy_guard: bool, subject: str | None = None) -> None:
    """Adds `GET /pool`: the pool as the deployment uses it.

    Source, counts, the subject an episode asks for unless reset names one (`subject`; the
    pool's when None), the subjects it covers, whether the copy guard is on, the deployment's
    weights, each tier's rewards over the default subject's paintings (`tier_rewards`) and over
    each subject's (`subject_tier_rewards`, by the rows' subject), each painting scored for the
    subject it was rated for (computed on the first call, about 4 s for the starter pool with the
    embedded scorer, then kept), every rated painting's id, tier, subject and sketch, and the
    oracle that pool.toml holds out of them, with the subject it was rated for (`watercolour oracle` sends
    it for that subject; None when the pool declares none).
    """
    cache: dict[str, Any] = {}
    lock = threading.Lock()
    oracle = pool.oracle

    default = subject or pool.subject
    parts = sorted({r.subject for r in pool.references})
    default_part = SubjectCoverage(parts).match(default)

    @app.get("/pool", tags=["Pool"], summary="The pool, its subjects and its tiers' rewards")
    def pool_report() -> dict[str, Any]:
        with lock:
            if "tiers" not in cache:
                rewarded = {r.id: reference_reward(rubric, r) for r in pool.references}
                cache["parts"] = {part: tier_rewards(rubric, pool, part, rewarded) for part in parts}
                cache["tiers"] = tier_rewards(rubric, pool, default_part, rewarded)
        return {
            "source": pool.source,
            "counts": pool.counts(),
            "subject": default,
            "subjects": pool.coverage().subjects,
            "copy_guard": copy_guard,
            "weights": dict(rubric.weights),
            "tier_rewards": cache["tiers"],
            "subject_tier_rewards": cache["parts"],
            "references": [
                {"id": r.id, "tier": r.tier.value, "subject": r.subject, "sketch": r.sketch} for r in pool.references
            ],
            "oracle": None
            if oracle is None
            else {"id": oracle.id, "subject": oracle.subject, "seed": oracle.seed, "sketch": oracle.sketch},
        }
