"""The rubric: gate, length and scorer terms combined into one reward that never lies.

reward = sum(weight * value) over the components, in [0, 1] when the weights sum to 1. A reply
that fails the gate gets `fail_reward` (a real number, so GRPO learns from it); a failure of
the infrastructure gets None, never 0.0 (FIELD-NOTES: 1.5-5.2% of the seed's rollouts). A
weighted scorer that gives no verdict (the judge unreachable) also makes the reward None: a sum
without its share would be a silent lie.
"""

from __future__ import annotations

from dataclasses import dataclass

from watercolour_env.errors import ConfigError
from watercolour_env.models import RewardComponent, ScoreStatus
from watercolour_env.server.embedded_scorer import EmbeddedScorer
from watercolour_env.server.gate import GateResult
from watercolour_env.server.judge import PairwiseJudge, draw_references
from watercolour_env.server.pool import Pool

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

    Defaults follow the seed's gate 0.05 and length 0.05; the 0.90 that HPSv3 and the judge
    share there goes to the embedded scorer while neither is configured (issue 6 adds them).
    """

    gate: float = 0.05
    length: float = 0.05
    embedded: float = 0.90
    judge: float = 0.0


COMPONENTS = ("gate", "length", "embedded", "judge")


class Rubric:
    """Turns a gate result into a reward and its components.

    Args:
        weights: the term weights.
        fail_reward: reward of a reply rejected by the gate, in [0, 1].
        length_ramp: (start, full, runaway) tokens of the length term.
        scorer: the fitted embedded scorer; required when its weight is above zero.

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
    ) -> None:
        if weights.embedded > 0 and scorer is None:
            raise ConfigError("the embedded scorer has weight > 0 but none was fitted (WATERCOLOUR_WEIGHT_EMBEDDED)")
        if weights.judge > 0 and (judge is None or pool is None):
            raise ConfigError("the pairwise judge has weight > 0 but no judge or pool (WATERCOLOUR_WEIGHT_JUDGE)")
        self.scorer = scorer
        self.judge = judge
        self.pool = pool
        self.references_per_episode = references_per_episode
        self.weights = weights
        self.fail_reward = fail_reward
        self.length_ramp = length_ramp or (LENGTH_RAMP_START_TOKENS, LENGTH_RAMP_FULL_TOKENS, LENGTH_RUNAWAY_TOKENS)

    def weights_for(self, overrides: dict[str, float]) -> RubricWeights:
        """Per-episode weights, validated against what this rubric can score.

        Args:
            overrides: weights by component name (gate, length, embedded, judge); names left
                out are 0.

        Raises:
            ConfigError: an unknown name, a weight outside [0, 1], a sum other than 1, or a
                weight above zero for a scorer this deployment has not set up.
        """
        unknown = set(overrides) - set(COMPONENTS)
        if unknown:
            raise ConfigError(f"unknown reward components {sorted(unknown)}; known: {', '.join(COMPONENTS)}")
        values = {name: float(overrides.get(name, 0.0)) for name in COMPONENTS}
        if any(not 0.0 <= v <= 1.0 for v in values.values()) or abs(sum(values.values()) - 1.0) > 1e-6:
            raise ConfigError(f"reward weights must lie in [0, 1] and sum to 1, got {values}")
        if values["embedded"] > 0 and self.scorer is None:
            raise ConfigError("this deployment has no embedded scorer; its weight must be 0")
        if values["judge"] > 0 and (self.judge is None or self.pool is None):
            raise ConfigError("this deployment has no pairwise judge; its weight must be 0")
        return RubricWeights(**values)

    def score(
        self,
        gate: GateResult,
        sketch_tokens: int | None = None,
        seed: int = 0,
        weights: RubricWeights | None = None,
    ) -> RubricScore:
        """Scores one gated reply; see the module docstring for the None / 0.0 rule.

        Args:
            gate: the gate's verdict, with the render when one was made.
            sketch_tokens: the sketch's length under the policy's tokenizer; approximated from
                its characters when None.
            seed: the episode seed, which draws the judge's references (the same for a group).
            weights: this episode's weights (from `weights_for`); the deployment's when None.
        """
        w = weights or self.weights
        names = [n for n in COMPONENTS if n in ("gate", "length") or getattr(w, n) > 0]
        if gate.infra_failure:
            components = [RewardComponent(name=n, weight=getattr(w, n), status=ScoreStatus.UNAVAILABLE) for n in names]
            return RubricScore(None, components)
        if not gate.passed:
            components = [RewardComponent(name="gate", value=0.0, weight=w.gate, contribution=0.0)]
            components += [
                RewardComponent(name=n, weight=getattr(w, n), status=ScoreStatus.SKIPPED_BY_GATE) for n in names[1:]
            ]
            return RubricScore(self.fail_reward, components)
        assert gate.inventory is not None and gate.render is not None and gate.render.png is not None
        tokens = gate.inventory.approx_tokens if sketch_tokens is None else sketch_tokens
        values: dict[str, float | None] = {"gate": 1.0, "length": length_score(tokens, *self.length_ramp)}
        if "embedded" in names and self.scorer is not None:
            values["embedded"] = self.scorer.score(gate.render.png)
        if "judge" in names and self.judge is not None and self.pool is not None:
            references = draw_references(self.pool, self.references_per_episode, seed)
            values["judge"] = self.judge.score(gate.render.png, references).value
        components = [
            RewardComponent(name=n, value=v, weight=getattr(w, n), contribution=getattr(w, n) * v)
            if v is not None
            else RewardComponent(name=n, weight=getattr(w, n), status=ScoreStatus.UNAVAILABLE)
            for n, v in values.items()
        ]
        if any(c.status is ScoreStatus.UNAVAILABLE for c in components):
            # a weighted scorer gave no verdict: the reward would silently lose its share
            return RubricScore(None, components)
        return RubricScore(sum(c.contribution for c in components), components)


@dataclass(frozen=True)
class RubricScore:
    """A reward in [0, 1] or None (infrastructure failure), with its components."""

    reward: float | None
    components: list[RewardComponent]
