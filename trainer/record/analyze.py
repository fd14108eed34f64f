"""`watercolour analyze RUN_DIR`: did the run learn? The seed's hand-made numbers as one command.

Reads `rollouts.jsonl` (from `RUN_DIR/rollouts/` or `RUN_DIR` itself) and writes `analysis.json`
and `analysis.png` beside it, and prints the table. Steps are split into thirds (first, middle,
last; with fewer than three steps the middle, then the last, is empty). A rollout's reward is
None when it was not scored (infrastructure); those count in the unscored share and nowhere
else, as in GRPO.

What it measures, and why (the seed's analysis of its HPSv3-only run):
- mean reward per third, and the slope of the per-step mean (OLS over steps) with its t
  statistic: a rise, and how sure. The t allows for correlated steps (Newey-West, `hac_slope`);
  `slope_t_iid`, the t that counts steps as independent, is kept beside it to compare;
- the share of rollouts under `BAD_REWARD` (0.3) per third, and how much of the rise between the
  first and last thirds comes from bad paintings becoming rare (composition) versus paintings
  getting better within the bad and good classes (within); the seed found three quarters from the
  former. The split is exact: delta = sum_g dp_g * mean(m_g) + sum_g mean(p_g) * dm_g over the
  classes g, p the class share and m its mean reward;
- the change of the per-step best and median: better tails or a better middle;
- each reward component's mean and its Pearson correlation with the reward;
- for a run served with a gold scorer, the proxy and the gold on the same paintings, by third and
  by `gold.WINDOW` steps, and whether the gold fell from its peak while the proxy climbed: reward
  over-optimisation (`watercolour_trainer.record.gold`);
- `frac_reward_zero_std` per step (the share of groups whose rewards are all equal: no gradient);
- how alike a step's replies are (`alike`: the mean Jaccard similarity of their sets of lines over
  every pair, 1 when all are one reply) and the policy's token entropy (TRL's `entropy`, from the
  trainer's log), by third: a reward that pays one painting for every seed teaches the policy to
  repeat it, and the reward can rise while the policy stops exploring;
- the gate-failure and unscored shares, and per third the share of copies of the pool (the gate's
  `copied_reference`), the paint coverage and the median reply length in characters (a policy paid
  for length or for copying shows it here first), and the correlation of the
  sketch's painting call sites (`SketchInventory.shapes`) with the reward (the seed's policy
  ignored the prompt's 15-30 shapes because shape count did not pay);
- variety by third and by subject (`variety`): how alike the sketches are, the share that are
  distinct and that have a near-duplicate in their group, and the colours used a step.
"""

from __future__ import annotations

import json
import statistics
from collections import defaultdict
from pathlib import Path

from watercolour_env.errors import ConfigError
from watercolour_env.rollout import rollouts_file
from watercolour_env.terms import Violation
from watercolour_trainer.record import variety
from watercolour_trainer.record.gold import by_third, component, finite, windows
from watercolour_trainer.record.report import GOLD, PROXY, plot
from watercolour_trainer.record.stats import hac_slope, ols_slope

BAD_REWARD = 0.3
"""A painting under this reward is "bad" in the decomposition (the seed's threshold)."""

_COPIED = Violation.COPIED_REFERENCE.value


def load_rollouts(path: Path) -> list[dict]:
    """The rollouts of a run, one dict per line of `rollouts.jsonl`.

    Raises:
        ConfigError: a line that is not a JSON object, or a file that is not text (named).
    """
    from watercolour_env.rollout import read_rollout_rows

    return [row for _, row in read_rollout_rows(path)]


def alike(replies: list[str]) -> float | None:
    """The mean Jaccard similarity of the replies' sets of lines, over every pair; in [0, 1].

    A line is compared stripped, blank lines left out. 1.0 when every reply has the same lines (in
    any order), 0.0 when no two share one; None for fewer than two replies.
    """
    lines = [frozenset(s for line in reply.splitlines() if (s := line.strip())) for reply in replies]
    pairs = [(a, b) for i, a in enumerate(lines) for b in lines[i + 1 :]]
    if not pairs:
        return None
    return statistics.fmean(len(a & b) / len(a | b) if a | b else 1.0 for a, b in pairs)


def thirds(steps: list[int]) -> list[list[int]]:
    """Sorted steps split into three consecutive, nearly equal parts.

    One step over a multiple of three goes to the first part, two to the first and the last, so
    a run of 2 steps (the demo's) compares its first step with its last: [[1], [], [2]].
    """
    steps = sorted(steps)
    size, extra = divmod(len(steps), 3)
    sizes = [size + (extra > 0), size, size + (extra > 1)]
    return [steps[: sizes[0]], steps[sizes[0] : sizes[0] + sizes[1]], steps[sizes[0] + sizes[1] :]]


def pearson(xs: list[float], ys: list[float]) -> float | None:
    """The correlation of two equally long series; None when either is constant or shorter than 3."""
    if len(xs) < 3 or len(set(xs)) < 2 or len(set(ys)) < 2:
        return None
    return statistics.correlation(xs, ys)


def _mean(values: list[float]) -> float | None:
    return statistics.fmean(values) if values else None


def decompose(first: list[float], last: list[float], threshold: float = BAD_REWARD) -> dict:
    """Splits mean(last) - mean(first) into composition (class shares) and within (class means).

    Classes: reward < `threshold` (bad) and >= (good). A class empty in one third takes its mean
    from the other. Returns delta, composition, within and composition_share (None when delta is 0).
    """
    if not first or not last:
        return {"delta": None, "composition": None, "within": None, "composition_share": None}
    parts = {}
    for name, third in (("first", first), ("last", last)):
        bad = [r for r in third if r < threshold]
        good = [r for r in third if r >= threshold]
        parts[name] = {
            "p": {"bad": len(bad) / len(third), "good": len(good) / len(third)},
            "m": {"bad": _mean(bad), "good": _mean(good)},
        }
    composition = within = 0.0
    for g in ("bad", "good"):
        m1, m2 = parts["first"]["m"][g], parts["last"]["m"][g]
        m1, m2 = (m2 if m1 is None else m1), (m1 if m2 is None else m2)
        if m1 is None:  # the class is empty in both thirds
            continue
        p1, p2 = parts["first"]["p"][g], parts["last"]["p"][g]
        composition += (p2 - p1) * (m1 + m2) / 2
        within += (p1 + p2) / 2 * (m2 - m1)
    delta = statistics.fmean(last) - statistics.fmean(first)
    share = composition / delta if abs(delta) > 1e-12 else None
    return {"delta": delta, "composition": composition, "within": within, "composition_share": share}


def shapes_of(rollout: dict) -> int | None:
    """Painting call sites in the rollout's sketch, or None without a sketch."""
    from watercolour_env.sketch import inspect_sketch

    if not rollout.get("sketch"):
        return None
    return inspect_sketch(rollout["sketch"]).shapes


def analyze(rollouts: list[dict], log_history: list[dict] | None = None) -> dict:
    """Every number in the module docstring, as a JSON-ready dict.

    Raises:
        ValueError: no rollouts.
    """
    if not rollouts:
        raise ValueError("the run has no rollouts")
    by_step: dict[int, list[dict]] = defaultdict(list)
    for r in rollouts:
        by_step[r["step"]].append(r)
    steps = sorted(by_step)
    entropy = {e["step"]: e["entropy"] for e in log_history or [] if "entropy" in e and "step" in e}
    per_step = []
    for step in steps:
        at = by_step[step]
        rewards = [r["reward"] for r in at if r["reward"] is not None]
        groups: dict[int, list[float]] = defaultdict(list)
        for r in at:
            if r["reward"] is not None:
                groups[r["group"]].append(r["reward"])
        per_step.append(
            {
                "step": step,
                "rollouts": len(at),
                "reward_mean": _mean(rewards),
                "reward_best": max(rewards) if rewards else None,
                "reward_median": statistics.median(rewards) if rewards else None,
                "frac_reward_zero_std": (sum(len(set(g)) <= 1 for g in groups.values()) / len(groups))
                if groups
                else None,
                "gate_fail_share": sum(r["status"] == "rejected" for r in at) / len(at),
                "unscored_share": sum(r["reward"] is None for r in at) / len(at),
                "proxy_mean": _mean([v for r in at if (v := component(r, PROXY)) is not None]),
                "gold_mean": _mean([v for r in at if (v := component(r, GOLD)) is not None]),
                "alike": alike([r["completion"] for r in at if r.get("completion") is not None]),
                "entropy": entropy.get(step),
            }
        )
    scored_steps = [s for s in per_step if s["reward_mean"] is not None]
    step_xs, step_ys = [s["step"] for s in scored_steps], [s["reward_mean"] for s in scored_steps]
    slope, t = hac_slope(step_xs, step_ys)
    third_rows = []
    third_rewards = []
    for name, part in zip(("first", "middle", "last"), thirds(steps), strict=True):
        rs = [r for s in part for r in by_step[s]]
        rewards = [r["reward"] for r in rs if r["reward"] is not None]
        third_rewards.append(rewards)
        painted = [r["paint_fraction"] for r in rs if r.get("paint_fraction") is not None]
        replies = [len(r["completion"]) for r in rs if r.get("completion") is not None]
        best = [s["reward_best"] for s in per_step if s["step"] in part and s["reward_best"] is not None]
        median = [s["reward_median"] for s in per_step if s["step"] in part and s["reward_median"] is not None]
        similar = [s["alike"] for s in per_step if s["step"] in part and s["alike"] is not None]
        entropies = [s["entropy"] for s in per_step if s["step"] in part and s["entropy"] is not None]
        third_rows.append(
            {
                "third": name,
                "steps": f"{part[0]}-{part[-1]}" if part else "",
                "rollouts": len(rs),
                "reward_mean": _mean(rewards),
                "share_under_0_3": (sum(r < BAD_REWARD for r in rewards) / len(rewards)) if rewards else None,
                "best_of_step": _mean(best),
                "median_of_step": _mean(median),
                "gate_fail_share": (sum(r["status"] == "rejected" for r in rs) / len(rs)) if rs else None,
                "unscored_share": (sum(r["reward"] is None for r in rs) / len(rs)) if rs else None,
                "copy_share": (sum(_COPIED in r.get("violations", ()) for r in rs) / len(rs)) if rs else None,
                "paint_coverage": _mean(painted),
                "reply_chars": statistics.median(replies) if replies else None,
                "alike": _mean(similar),
                "entropy": _mean(entropies),
            }
        )
    scored = [r for r in rollouts if r["reward"] is not None]
    components = defaultdict(list)
    for r in scored:
        for c in r.get("components", []):
            if (value := finite(c.get("value"))) is not None:
                components[c["name"]].append((value, r["reward"]))
    shape_pairs = [(n, r["reward"]) for r in scored if (n := shapes_of(r)) is not None]
    first, last = third_rows[0], third_rows[-1]
    gold_rows = by_third(by_step, thirds(steps))

    def change(key: str) -> float | None:
        return None if first[key] is None or last[key] is None else last[key] - first[key]

    return {
        "rollouts": len(rollouts),
        "steps": len(steps),
        "slope_per_step": slope,
        "slope_t": t,
        "slope_t_iid": ols_slope(step_xs, step_ys)[1],
        "thirds": third_rows,
        "rise": decompose(third_rewards[0], third_rewards[-1]),
        "best_of_step_change": change("best_of_step"),
        "median_of_step_change": change("median_of_step"),
        "components": {
            name: {
                "mean": statistics.fmean(v for v, _ in pairs),
                "corr_with_reward": pearson([v for v, _ in pairs], [w for _, w in pairs]),
            }
            for name, pairs in sorted(components.items())
        },
        "shapes_corr_with_reward": pearson([float(n) for n, _ in shape_pairs], [w for _, w in shape_pairs]),
        "gate_fail_share": sum(r["status"] == "rejected" for r in rollouts) / len(rollouts),
        "unscored_share": sum(r["reward"] is None for r in rollouts) / len(rollouts),
        "per_step": per_step,
        "proxy_and_gold": gold_rows,
        "proxy_and_gold_windows": windows(by_step),
        "variety": variety.by_third(by_step, thirds(steps)),
        "time_split": time_split(log_history or []),
    }


def time_split(log_history: list[dict]) -> dict | None:
    """Median seconds of a step's generation, environment and optimisation, and the environment's share.

    From the trainer's log (`time/*` entries the step line writes into `trainer_state.json`);
    None for a run without them. The share is of the summed step times.
    """
    rows = [e for e in log_history if "time/step_s" in e]
    if not rows:
        return None
    generation = [e["time/generation_s"] for e in rows]
    environment = [e["time/environment_s"] for e in rows]
    step = [e["time/step_s"] for e in rows]
    optimisation = [max(0.0, s - g - v) for s, g, v in zip(step, generation, environment, strict=True)]
    return {
        "steps": len(rows),
        "generation_s": statistics.median(generation),
        "environment_s": statistics.median(environment),
        "optimisation_s": statistics.median(optimisation),
        "step_s": statistics.median(step),
        "environment_share": sum(environment) / sum(step) if sum(step) else None,
    }


def trainer_log(source: Path) -> list[dict]:
    """The trainer's `log_history` for a rollouts file; [] when there is none.

    From `trainer_state.json` beside the file (a run's record), else the run's latest checkpoint.
    """
    run_dir = source.parent.parent if source.parent.name == "rollouts" else source.parent
    checkpoints = sorted(run_dir.glob("checkpoint-*/trainer_state.json"), key=lambda p: int(p.parent.name[11:]))
    for candidate in (source.parent / "trainer_state.json", *reversed(checkpoints)):
        if candidate.is_file():
            try:
                history = json.loads(candidate.read_text()).get("log_history", [])
            except (ValueError, AttributeError):
                return []
            if not isinstance(history, list):
                raise ConfigError(f"{candidate}: log_history is not a list")
            return [e for e in history if isinstance(e, dict)]
    return []


def run(run_dir: Path) -> tuple[dict, Path]:
    """Analyses a run folder, writes analysis.json and analysis.png beside its rollouts.jsonl.

    Raises:
        ConfigError: no rollouts.jsonl in the folder, or one that is not a run's.
        ValueError: it holds no rollouts.
    """
    source = rollouts_file(Path(run_dir))
    try:
        result = analyze(load_rollouts(source), trainer_log(source))
    except (KeyError, TypeError, AttributeError) as err:  # a field the trainer writes is missing or of another type
        raise ConfigError(f"{source}: not a run's rollouts ({type(err).__name__}: {err})") from err
    (source.parent / "analysis.json").write_text(json.dumps(result, indent=1) + "\n")
    plot(result, source.parent / "analysis.png")
    return result, source.parent
