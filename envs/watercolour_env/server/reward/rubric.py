"""The rubric: gate, length and scorer terms combined into one reward that never lies.

reward = sum(weight * value) over the components, in [0, 1] when the weights sum to 1. A reply
that fails the gate gets `fail_reward` (a real number, so GRPO learns from it); a failure of
the infrastructure gets None, never 0.0 (decision 0003: 1.5-5.2% of the seed's rollouts). A
weighted scorer that gives no verdict (the judge unreachable) also makes the reward None: a sum
without its share would be a silent lie.
"""

from __future__ import annotations

from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

from watercolour_env.errors import ConfigError
from watercolour_env.pool import Pool, Tier
from watercolour_env.server.gate import GateResult
from watercolour_env.server.reward.embedded import EmbeddedScorer
from watercolour_env.server.reward.hpsv3 import HPSv3Client
from watercolour_env.server.reward.judge import PairwiseJudge, draw_references
from watercolour_env.terms import RewardComponent, ScoreStatus

LENGTH_RAMP_START_TOKENS = 150
LENGTH_RAMP_FULL_TOKENS = 3000
LENGTH_RUNAWAY_TOKENS = 6000
"""The seed's length term: zero below ~150 tokens, linear to one at ~3,000, zero past ~6,000
(runaway output). Source: the original author's notes, "a code length ramp targeting around
3,000 tokens"; the bounds are settings (`WATERCOLOUR_LENGTH_*_TOKENS`)."""


def length_score(
    tokens: int,
    start: int = LENGTH_RAMP_START_TOKENS,
    full: int = LENGTH_RAMP_FULL_TOKENS,
    runaway: int = LENGTH_RUNAWAY_TOKENS,
) -> float:
    """The length ramp in [0, 1]: 0 below `start` tokens, 1 from `full` to `runaway`, 0 past it."""
    if tokens < start or tokens > runaway:
        return 0.0
    return min(1.0, (tokens - start) / max(1, full - start))


@dataclass(frozen=True)
class RubricWeights:
    """Weights of the reward terms, each in [0, 1], summing to 1.

    The default follows the seed's gate 0.05 and length 0.05 and gives the 0.90 that HPSv3 and
    the judge share there to the embedded scorer, which needs no network, so a deployment with
    nothing configured still has a reward with meaning. `PRESETS` holds the seed's three runs.
    """

    gate: float = 0.05
    length: float = 0.05
    embedded: float = 0.90
    judge: float = 0.0
    hpsv3: float = 0.0


COMPONENTS = ("gate", "length", "hpsv3", "judge", "embedded")
SCORERS = ("hpsv3", "judge", "embedded")

PRESETS = {
    "embedded": RubricWeights(),
    "hps-only": RubricWeights(embedded=0.0, judge=0.0, hpsv3=0.90),
    "judge-led": RubricWeights(embedded=0.0, judge=0.60, hpsv3=0.30),
    "hps-led": RubricWeights(embedded=0.0, judge=0.30, hpsv3=0.60),
}
"""The seed's three published runs, which differ only in the split of the 0.90 between HPSv3 and
the judge (decision 0003, "The recipe"), and the embedded default."""


_NEEDS = {
    "embedded": "a fitted embedded scorer",
    "judge": "WATERCOLOUR_JUDGE_* settings and a pool",
    "hpsv3": "WATERCOLOUR_HPSV3_URL",
}


class Rubric:
    """Turns a gate result into a reward and its components; the one place a reward is computed.

    Args:
        weights: the deployment's term weights.
        fail_reward: reward of a reply rejected by the gate, in [0, 1].
        length_ramp: (start, full, runaway) tokens of the length term.
        scorer: the fitted embedded scorer; required when its weight is above zero.
        judge: the pairwise judge; with `pool`, required when its weight is above zero.
        pool: the reference pool the judge draws from.
        references_per_episode: references each painting is compared with (x2 orders).
        reference_mix: share of each tier among the references (default half love, half okay).
        hpsv3: the HPSv3 Space client; required when its weight is above zero.

    Raises:
        ConfigError: a scorer with weight above zero is missing.

    Example:
        >>> rubric = Rubric(RubricWeights(), scorer=EmbeddedScorer.fit(pool))  # doctest: +SKIP
        >>> rubric.score(GateResult(False)).reward  # doctest: +SKIP
        0.0
    """

    def __init__(
        self,
        weights: RubricWeights,
        fail_reward: float = 0.0,
        length_ramp: tuple[int, int, int] | None = None,
        scorer: EmbeddedScorer | None = None,
        judge: PairwiseJudge | None = None,
        pool: Pool | None = None,
        references_per_episode: int = 4,
        reference_mix: dict[Tier, float] | None = None,
        hpsv3: HPSv3Client | None = None,
    ) -> None:
        self.scorer = scorer
        self.judge = judge if pool is not None else None
        self.hpsv3 = hpsv3
        self.pool = pool
        self.references_per_episode = references_per_episode
        self.reference_mix = reference_mix
        self.fail_reward = fail_reward
        self.length_ramp = length_ramp or (LENGTH_RAMP_START_TOKENS, LENGTH_RAMP_FULL_TOKENS, LENGTH_RUNAWAY_TOKENS)
        self._check_configured(weights, per_episode=False)
        self.weights = weights

    def configured(self, name: str) -> bool:
        """Whether this deployment can score component `name`."""
        return {"embedded": self.scorer, "judge": self.judge, "hpsv3": self.hpsv3}.get(name, True) is not None

    def _check_configured(self, weights: RubricWeights, per_episode: bool) -> None:
        for name in SCORERS:
            if getattr(weights, name) > 0 and not self.configured(name):
                what = f"the episode's weight for {name}" if per_episode else f"WATERCOLOUR_WEIGHT_{name.upper()}"
                raise ConfigError(
                    f"{what} is above zero, but this deployment has no {name} scorer (it needs {_NEEDS[name]})"
                )

    def weights_for(self, overrides: dict[str, float] | str) -> RubricWeights:
        """Per-episode weights, validated against what this rubric can score.

        Args:
            overrides: a preset name from `PRESETS`, or weights by component name (gate,
                length, hpsv3, judge, embedded); names left out are 0.

        Raises:
            ConfigError: an unknown preset or name, a weight outside [0, 1], a sum other than
                1, or a weight above zero for a scorer this deployment has not set up.
        """
        if isinstance(overrides, str):
            if overrides not in PRESETS:
                raise ConfigError(f"unknown reward preset {overrides!r}; known: {', '.join(PRESETS)}")
            weights = PRESETS[overrides]
        else:
            unknown = set(overrides) - set(COMPONENTS)
            if unknown:
                raise ConfigError(f"unknown reward components {sorted(unknown)}; known: {', '.join(COMPONENTS)}")
            values = {name: float(overrides.get(name, 0.0)) for name in COMPONENTS}
            if any(not 0.0 <= v <= 1.0 for v in values.values()) or abs(sum(values.values()) - 1.0) > 1e-6:
                raise ConfigError(f"reward weights must lie in [0, 1] and sum to 1, got {values}")
            weights = RubricWeights(**values)
        self._check_configured(weights, per_episode=True)
        return weights

    def score(
        self,
        gate: GateResult,
        sketch_tokens: int | None = None,
        seed: int = 0,
        weights: RubricWeights | None = None,
    ) -> RubricScore:
        """Scores one gated reply; see the module docstring for the None / 0.0 rule.

        HPSv3 and the judge (both remote) run concurrently on the same render; the embedded
        scorer runs meanwhile on this thread.

        Args:
            gate: the gate's verdict, with the render when one was made.
            sketch_tokens: the sketch's length under the policy's tokenizer; approximated from
                its characters when None.
            seed: the episode seed, which draws the judge's references (the same for a group).
            weights: this episode's weights (from `weights_for`); the deployment's when None.
        """
        w = weights or self.weights
        weighted = [n for n in COMPONENTS if n in ("gate", "length") or getattr(w, n) > 0]
        absent = [
            RewardComponent(name=n, status=ScoreStatus.NOT_CONFIGURED)
            for n in SCORERS
            if getattr(w, n) == 0 and not self.configured(n)
        ]
        if gate.infra_failure:
            components = [
                RewardComponent(name=n, weight=getattr(w, n), status=ScoreStatus.UNAVAILABLE) for n in weighted
            ]
            return RubricScore(None, components + absent)
        if not gate.passed:
            components = [RewardComponent(name="gate", value=0.0, weight=w.gate, contribution=0.0)]
            components += [
                RewardComponent(name=n, weight=getattr(w, n), status=ScoreStatus.SKIPPED_BY_GATE) for n in weighted[1:]
            ]
            return RubricScore(self.fail_reward, components + absent)
        assert gate.inventory is not None and gate.render is not None and gate.render.png is not None
        png = gate.render.png
        tokens = gate.inventory.approx_tokens if sketch_tokens is None else sketch_tokens
        verdicts: dict[str, tuple[float | None, str]] = {
            "gate": (1.0, ""),
            "length": (length_score(tokens, *self.length_ramp), f"{tokens} tokens"),
        }
        with ThreadPoolExecutor(max_workers=2, thread_name_prefix="rubric") as remote:
            pending = {}
            if "judge" in weighted:
                references = draw_references(self.pool, self.references_per_episode, seed, self.reference_mix)
                pending["judge"] = remote.submit(self._judge, png, references)
            if "hpsv3" in weighted:
                pending["hpsv3"] = remote.submit(self._hpsv3, png)
            if "embedded" in weighted:
                verdicts["embedded"] = (self.scorer.score(png), "")
            verdicts.update({name: future.result() for name, future in pending.items()})
        components = []
        for name in weighted:
            value, detail = verdicts[name]
            weight = getattr(w, name)
            if value is None:
                components.append(
                    RewardComponent(name=name, weight=weight, status=ScoreStatus.UNAVAILABLE, detail=detail)
                )
            else:
                components.append(RewardComponent(name=name, value=value, weight=weight, contribution=weight * value,
                                                   detail=detail))  # fmt: skip
        if any(c.status is ScoreStatus.UNAVAILABLE for c in components):
            # a weighted scorer gave no verdict: the reward would silently lose its share
            return RubricScore(None, components + absent)
        return RubricScore(sum(c.contribution for c in components), components + absent)

    def _judge(self, png: bytes, references: list) -> tuple[float | None, str]:
        try:
            verdict = self.judge.score(png, references)
        except Exception as err:  # noqa: BLE001 (a scorer that breaks gives no verdict; it never crashes the step)
            return None, f"{type(err).__name__}: {err}"[:300]
        statuses = Counter(c.status.value for c in verdict.comparisons)
        return verdict.value, ", ".join(f"{n} {s}" for s, n in sorted(statuses.items()))

    def _hpsv3(self, png: bytes) -> tuple[float | None, str]:
        try:
            verdict = self.hpsv3.score(png)
        except Exception as err:  # noqa: BLE001 (as above)
            return None, f"{type(err).__name__}: {err}"[:300]
        if verdict.value is None:
            return None, verdict.detail
        return verdict.value, f"mu {verdict.mu:.3f}, sigma {verdict.sigma:.3f}"


@dataclass(frozen=True)
class RubricScore:
    """A reward in [0, 1] or None (infrastructure failure), with its components."""

    reward: float | None
    components: list[RewardComponent]
