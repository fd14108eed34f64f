"""`watercolour analyze`'s report: the analysis as a plain-text table and as a PNG.

`watercolour_trainer.record.analyze` computes the numbers (the thirds, the slope, the rise and its split,
the components, the proxy and the gold); this module only shows them.
"""

from __future__ import annotations

from pathlib import Path

PROXY, GOLD = "embedded", "gold"
"""The components compared: the reward's taste term and the held-out scorer (`pool split`)."""


def _fmt(value: float | None, spec: str = ".3f") -> str:
    return "n/a" if value is None else format(value, spec)


def table(result: dict) -> str:
    """The analysis as plain text: the thirds, the slope, the rise and its split, the components."""
    lines = [f"{result['rollouts']} rollouts over {result['steps']} steps", ""]
    head = ("third", "steps", "reward", "< 0.3", "best", "median", "gate fail", "unscored", "copies", "paint", "reply")
    head += ("alike", "entropy")
    row_format = "{:<7} {:>7} {:>7} {:>6} {:>6} {:>7} {:>9} {:>8} {:>6} {:>6} {:>6} {:>6} {:>7}"
    lines.append(row_format.format(*head))
    for row in result["thirds"]:
        lines.append(
            row_format.format(
                row["third"],
                row["steps"],
                _fmt(row["reward_mean"]),
                _fmt(row["share_under_0_3"], ".0%"),
                _fmt(row["best_of_step"]),
                _fmt(row["median_of_step"]),
                _fmt(row["gate_fail_share"], ".0%"),
                _fmt(row["unscored_share"], ".0%"),
                _fmt(row["copy_share"], ".0%"),
                _fmt(row["paint_coverage"], ".2f"),
                _fmt(row["reply_chars"], ".0f"),
                _fmt(row["alike"], ".2f"),
                _fmt(row["entropy"], ".3f"),
            )
        )
    rise = result["rise"]
    lines += [
        "",
        f"slope of the per-step mean: {_fmt(result['slope_per_step'], '+.4f')} per step, "
        f"t = {_fmt(result['slope_t'], '.2f')} allowing for correlated steps (Newey-West; "
        f"{_fmt(result.get('slope_t_iid'), '.2f')} if steps were independent)",
        f"rise first -> last third: {_fmt(rise['delta'], '+.3f')} = composition {_fmt(rise['composition'], '+.3f')}"
        f" (bad paintings rarer) + within {_fmt(rise['within'], '+.3f')}; composition share "
        f"{_fmt(rise['composition_share'], '.0%')}",
        f"best of step {_fmt(result['best_of_step_change'], '+.3f')}, median of step "
        f"{_fmt(result['median_of_step_change'], '+.3f')}",
        f"gate failures {_fmt(result['gate_fail_share'], '.0%')}, unscored {_fmt(result['unscored_share'], '.0%')}, "
        f"painting calls vs reward r = {_fmt(result['shapes_corr_with_reward'], '.2f')}",
        "",
        "component   mean    r with reward",
    ]
    for name, c in result["components"].items():
        lines.append(f"{name:<10} {_fmt(c['mean']):>6} {_fmt(c['corr_with_reward'], '.2f'):>8}")
    if result.get("proxy_and_gold"):
        lines += ["", f"proxy ({PROXY}) and gold ({GOLD}) on the same paintings, by third:"]
        for row in result["proxy_and_gold"]:
            lines.append(
                f"{row['third']:<7} {row['paintings']:>5} paintings  proxy {_fmt(row['proxy'])}  "
                f"gold {_fmt(row['gold'])}"
            )
    if by := result.get("proxy_and_gold_windows"):
        lines += ["", "the same, by windows of steps:", "steps      paintings  proxy   gold    gap"]
        for row in by["windows"]:
            lines.append(
                f"{row['steps']:<10} {row['paintings']:>9} {_fmt(row['proxy']):>6} {_fmt(row['gold']):>6} "
                f"{row['gap']:>+6.3f}"
            )
        if by["windows"][-1]["steps"] == by["gold_peak"]:
            lines.append(f"the gold is at its best in the last steps, {by['gold_peak']}: no over-optimisation")
        else:
            verdict = "over-optimisation" if by["over_optimisation"] else "not over-optimisation by this test"
            se = by["gold_fall_se"]
            if se is None:
                se_text, verdict = "s.e. not measured: under 3 steps a window", "no verdict"
            else:
                se_text = f"twice its standard error: {2 * se:.3f}"
            lines.append(
                f"since the gold's best steps, {by['gold_peak']}: gold {-by['gold_fall']:+.3f} "
                f"({se_text}), proxy {by['proxy_rise']:+.3f}: {verdict}"
            )
        if by["proxy_above_from"] is not None:
            lines.append(
                f"the proxy above the gold in every step from step {by['proxy_above_from']} (levels, not a verdict)"
            )
    if rows := result.get("variety"):
        lines += [
            "",
            "variety of the sketches, each a mean over the third's steps: alike (as above, over sketches), distinct "
            "(share no other sketch of its step repeats word for word), near-dup (share with another of its group "
            "sharing 80% of its lines), colours (distinct hex colours a step)",
            "subject                  third   steps  alike  distinct  near-dup  colours",
        ]
        for row in rows:
            lines.append(
                f"{row['subject'][:24]:<24} {row['third']:<7} {row['steps']:>5} {_fmt(row['alike'], '.2f'):>6} "
                f"{_fmt(row['distinct'], '.0%'):>9} {_fmt(row['near_duplicates'], '.0%'):>9} "
                f"{_fmt(row['colours'], '.1f'):>8}"
            )
    if split := result.get("time_split"):
        lines += [
            "",
            f"step time, median of {split['steps']} steps: {split['step_s']:.0f} s = generation "
            f"{split['generation_s']:.0f} s + environment {split['environment_s']:.0f} s + optimisation "
            f"{split['optimisation_s']:.0f} s; the environment's share {_fmt(split['environment_share'], '.0%')}",
        ]
    zero = [s["frac_reward_zero_std"] for s in result["per_step"]]
    lines.append("")
    lines.append("frac_reward_zero_std by step: " + " ".join(_fmt(z, ".2f") for z in zero))
    return "\n".join(lines)


def plot(result: dict, path: Path) -> None:
    """A PNG: per-step mean, best and median reward (the proxy and the gold too, when served), gate failures."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    steps = [s["step"] for s in result["per_step"]]
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(8, 6), sharex=True, height_ratios=[3, 1])
    for key, style in (("reward_mean", "-o"), ("reward_best", ":"), ("reward_median", "--")):
        top.plot(
            steps,
            [s[key] if s[key] is not None else float("nan") for s in result["per_step"]],
            style,
            label=key.removeprefix("reward_"),
        )
    if any(s["gold_mean"] is not None for s in result["per_step"]):  # served with WATERCOLOUR_GOLD_POOL
        for key, colour, label in (("proxy_mean", "#7b3fa0", f"proxy ({PROXY})"), ("gold_mean", "#d80", "gold")):
            top.plot(
                steps,
                [s[key] if s[key] is not None else float("nan") for s in result["per_step"]],
                "-",
                color=colour,
                label=label,
            )
    top.set_ylabel("reward")
    top.set_ylim(0, 1)
    top.legend(loc="upper left")
    title = f"slope {_fmt(result['slope_per_step'], '+.4f')}/step, t = {_fmt(result['slope_t'], '.2f')}"
    top.set_title(title)
    bottom.bar(steps, [s["gate_fail_share"] for s in result["per_step"]], color="#c55")
    bottom.set_ylabel("gate fail")
    bottom.set_ylim(0, 1)
    bottom.set_xlabel("step")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
