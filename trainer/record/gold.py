"""The proxy and the gold on the same paintings: did the run learn taste, or one half of the pool?

A run served with `WATERCOLOUR_GOLD_POOL` scores every painting twice: with the proxy (`embedded`,
fitted on the half of the pool's ratings that pays the run) and with the gold (`gold`, fitted on
the other half, weight 0). The two are fitted apart, so their levels are not comparable; their
trends are. The gold falling while the proxy climbs is reward over-optimisation
(`watercolour_env.curate.split`, docs/LOG.md).
"""

from __future__ import annotations

import math
import statistics

from watercolour_trainer.record.report import GOLD, PROXY
from watercolour_trainer.record.stats import hac_mean_se

WINDOW = 10
"""Steps to a window: ten windows for a run of 100 steps, whose thirds hid the gold's fall (it
peaked in steps 61-70 and fell after, docs/LOG.md, thirteenth session)."""
SIGNIFICANT = 2.0
"""A fall of the gold counts when it exceeds this many standard errors of the difference."""


def finite(value: object) -> float | None:
    """A component's value as a float; None when it is absent or not a finite number."""
    if isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value):
        return float(value)
    return None


def component(rollout: dict, name: str) -> float | None:
    """A rollout's value of one reward component; None when absent, unscored or not a finite number."""
    for c in rollout.get("components") or []:
        if isinstance(c, dict) and c.get("name") == name:
            return finite(c.get("value"))
    return None


def both(rollouts: list[dict]) -> list[tuple[float, float]]:
    """(proxy, gold) of each rollout that has both values."""
    return [
        (p, g) for r in rollouts if (p := component(r, PROXY)) is not None and (g := component(r, GOLD)) is not None
    ]


def by_third(by_step: dict[int, list[dict]], parts: list[list[int]]) -> list[dict] | None:
    """Per third, `{"third", "paintings", "proxy", "gold"}`; None for a run without gold.

    The means are over the paintings that have both values.
    """
    rows = []
    for name, part in zip(("first", "middle", "last"), parts, strict=True):
        pairs = both([r for s in part for r in by_step[s]])
        rows.append(
            {
                "third": name,
                "paintings": len(pairs),
                "proxy": statistics.fmean(p for p, _ in pairs) if pairs else None,
                "gold": statistics.fmean(g for _, g in pairs) if pairs else None,
            }
        )
    return rows if any(row["paintings"] for row in rows) else None


def windows(by_step: dict[int, list[dict]], width: int = WINDOW) -> dict | None:
    """The proxy and the gold by `width` steps, where the gold peaked, and the verdict.

    Steps fall in windows by number (1-10, 11-20, ...); a window is labelled with the first and last
    of its steps that have both values, and one without any is left out. The gold's peak is taken
    among the windows with at least half of `width` such steps (all of them when none has), so that
    a short tail cannot be the peak by chance. Over-optimisation: the last window's gold lies below
    the peak's by more than `SIGNIFICANT` standard errors of the difference, while its proxy lies
    above the peak's. A window's standard error is that of the mean of its steps' gold means,
    allowing for correlated steps (`stats.hac_mean_se`: the paintings of one step, and of steps
    in a row, are not independent draws); a window of fewer than 3 steps has none, and then there
    is no verdict (`gold_fall_se` None).

    Returns:
        None for a run without gold, else {"windows": [{"steps": "a-b", "paintings", "proxy",
        "gold", "gap": proxy - gold}], "gold_peak": "a-b", "gold_fall": peak gold - last gold,
        "gold_fall_se": its standard error or None, "proxy_rise": last proxy - peak proxy,
        "over_optimisation": bool, "proxy_above_from": the first step from which every step's mean
        proxy is above its mean gold to the end, or None (a fact of levels, not a verdict)}.
    """
    pairs = {s: both(rs) for s, rs in by_step.items()}
    steps = sorted(s for s in pairs if pairs[s])
    if not steps:
        return None
    binned: dict[int, list[int]] = {}
    for s in steps:
        binned.setdefault((s - 1) // width, []).append(s)
    rows, steps_in, mean_se = [], [], []  # the last two: per window, for the peak and the s.e.
    for part in binned.values():
        proxies = [p for s in part for p, _ in pairs[s]]
        golds = [g for s in part for _, g in pairs[s]]
        proxy, gold = statistics.fmean(proxies), statistics.fmean(golds)
        rows.append(
            {
                "steps": f"{part[0]}-{part[-1]}",
                "paintings": len(golds),
                "proxy": proxy,
                "gold": gold,
                "gap": proxy - gold,
            }
        )
        steps_in.append(len(part))
        mean_se.append(hac_mean_se([statistics.fmean(g for _, g in pairs[s]) for s in part]))
    eligible = [i for i, n in enumerate(steps_in) if 2 * n >= width] or list(range(len(rows)))
    top = max(eligible, key=lambda i: rows[i]["gold"])
    peak, last = rows[top], rows[-1]
    fall = peak["gold"] - last["gold"]
    if last is peak:
        se: float | None = 0.0
    elif mean_se[top] is None or mean_se[-1] is None:
        se = None
    else:
        se = math.sqrt(mean_se[top] ** 2 + mean_se[-1] ** 2)
    above_from = None
    for s in reversed(steps):
        if statistics.fmean(p for p, _ in pairs[s]) <= statistics.fmean(g for _, g in pairs[s]):
            break
        above_from = s
    return {
        "windows": rows,
        "gold_peak": peak["steps"],
        "gold_fall": fall,
        "gold_fall_se": se,
        "proxy_rise": last["proxy"] - peak["proxy"],
        "over_optimisation": se is not None
        and last is not peak
        and fall > SIGNIFICANT * se
        and last["proxy"] > peak["proxy"],
        "proxy_above_from": above_from,
    }
