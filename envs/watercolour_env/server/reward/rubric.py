"""The rubric: gate, length and scorer terms combined into one reward that never lies.

reward = sum(weight * value) over the components, in [0, 1] when the weights sum to 1. A reply
that fails the gate gets `fail_reward` (a real number, so GRPO learns from it); a failure of
the infrastructure gets None, never 0.0 (decision 0003: 1.5-5.2% of the seed's rollouts). A
weighted scorer that gives no verdict (the judge unreachable) also makes the reward None: a sum
without its share would be a silent lie.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Iterable, Mapping
from concurrent.futures import ThreadPoolExecutor, wait
from dataclasses import dataclass

from watercolour_env.errors import ConfigError
from watercolour_env.server.gate import GateResult
from watercolour_env.server.reward import GATE_DEFAULT_WEIGHT, TERMS, component_names
from watercolour_env.server.reward.term import Painting, Term, Verdict
from watercolour_env.terms import RewardComponent, ScoreStatus

log = logging.getLogger(__name__)
LATE = "no verdict before the episode's deadline (WATERCOLOUR_EPISODE_DEADLINE_S)"
_reported: set[tuple[str, str]] = set()  # (term, exception type) already logged with a traceback
_reported_lock = threading.Lock()


class RubricWeights(Mapping[str, float]):
    """Weights of the reward's components ("gate" and each registered term), each in [0, 1].

    A component left out gets its default: `GATE_DEFAULT_WEIGHT` for the gate, the term's
    `default_weight` otherwise (the default follows the seed's gate 0.05 and length 0.05 and
    gives the 0.90 that HPSv3 and the judge share there to the embedded scorer, which needs no
    network, so a deployment with nothing configured still has a reward with meaning). Read a
    weight as `weights["judge"]` or `weights.judge`; a term registered after these weights were
    made weighs 0 in them.

    Raises:
        ConfigError: an unknown component name.
    """

    def __init__(self, **weights: float) -> None:
        unknown = sorted(set(weights) - set(component_names()))
        if unknown:
            raise ConfigError(f"unknown reward components {unknown}; known: {', '.join(component_names())}")
        defaults = {"gate": GATE_DEFAULT_WEIGHT, **{n: t.default_weight for n, t in TERMS.items()}}
        self._weights = {n: float(weights.get(n, defaults[n])) for n in component_names()}

    @classmethod
    def exactly(cls, weights: Mapping[str, float]) -> RubricWeights:
        """Weights where a component left out weighs 0 (not its default)."""
        return cls(**{n: 0.0 for n in component_names()} | dict(weights))

    def __getitem__(self, name: str) -> float:
        return self._weights.get(name, 0.0) if name in TERMS or name == "gate" else self._weights[name]

    def __getattr__(self, name: str) -> float:
        if name.startswith("_"):
            raise AttributeError(name)
        try:
            return self[name]
        except KeyError:
            raise AttributeError(name) from None

    def __iter__(self):  # noqa: ANN204
        return iter(self._weights)

    def __len__(self) -> int:
        return len(self._weights)

    def __repr__(self) -> str:
        return "RubricWeights(" + ", ".join(f"{n}={w:g}" for n, w in self._weights.items()) + ")"


PRESETS = {
    "embedded": {"gate": 0.05, "length": 0.05, "embedded": 0.90},
    "hps-only": {"gate": 0.05, "length": 0.05, "hpsv3": 0.90},
    "judge-led": {"gate": 0.05, "length": 0.05, "judge": 0.60, "hpsv3": 0.30},
    "hps-led": {"gate": 0.05, "length": 0.05, "judge": 0.30, "hpsv3": 0.60},
}
"""The seed's three published runs, which differ only in the split of the 0.90 between HPSv3 and
the judge (decision 0003, "The recipe"), and the embedded default. A component a preset does not
name weighs 0 in it (`RubricWeights.exactly`)."""


def preset(name: str) -> RubricWeights:
    """The weights of a preset.

    Raises:
        ConfigError: an unknown name; the message lists the known ones.
    """
    if name not in PRESETS:
        raise ConfigError(f"unknown reward preset {name!r}; known: {', '.join(PRESETS)}")
    return RubricWeights.exactly(PRESETS[name])


class Rubric:
    """Turns a gate result into a reward and its components; the one place a reward is computed.

    Args:
        weights: the deployment's weights.
        terms: the terms this deployment set up (from `build_terms`); a registered term not
            among them is "not configured".
        fail_reward: reward of a reply rejected by the gate, in [0, 1].

    Raises:
        ConfigError: a term with weight above zero is not among `terms`.

    Example:
        >>> rubric = Rubric(RubricWeights(), [LengthTerm(), EmbeddedTerm(scorer)])  # doctest: +SKIP
        >>> rubric.score(GateResult(False)).reward  # doctest: +SKIP
        0.0
    """

    def __init__(self, weights: RubricWeights, terms: Iterable[Term] = (), fail_reward: float = 0.0) -> None:
        self.terms = {term.name: term for term in terms}
        self.fail_reward = fail_reward
        self._outcomes = {name: TermOutcomes() for name in self.terms}
        self._check_configured(weights, per_episode=False)
        self.weights = weights

    def configured(self, name: str) -> bool:
        """Whether this deployment can score component `name`."""
        return name == "gate" or name in self.terms

    def _check_configured(self, weights: RubricWeights, per_episode: bool) -> None:
        for name in TERMS:
            if weights[name] > 0 and not self.configured(name):
                what = f"the episode's weight for {name}" if per_episode else f"WATERCOLOUR_WEIGHT_{name.upper()}"
                raise ConfigError(
                    f"{what} is above zero, but this deployment has no {name} scorer (it needs {TERMS[name].needs})"
                )

    def weights_for(self, overrides: Mapping[str, float] | str) -> RubricWeights:
        """Per-episode weights, validated against what this rubric can score.

        Args:
            overrides: a preset name from `PRESETS`, or weights by component name ("gate" and
                the registered terms); names left out are 0.

        Raises:
            ConfigError: an unknown preset or name, a weight outside [0, 1], a sum other than
                1, or a weight above zero for a term this deployment has not set up.
        """
        if isinstance(overrides, str):
            weights = preset(overrides)
        else:
            try:
                numbers = {name: float(value) for name, value in overrides.items()}
            except (TypeError, ValueError) as err:
                raise ConfigError(f"reward weights must be numbers, got {overrides!r:.200}") from err
            weights = RubricWeights.exactly(numbers)
            values = dict(weights)
            if any(not 0.0 <= v <= 1.0 for v in values.values()) or abs(sum(values.values()) - 1.0) > 1e-6:
                raise ConfigError(f"reward weights must lie in [0, 1] and sum to 1, got {values}")
        self._check_configured(weights, per_episode=True)
        return weights

    def score(
        self,
        gate: GateResult,
        sketch_tokens: int | None = None,
        seed: int = 0,
        weights: RubricWeights | None = None,
        deadline_at: float | None = None,
        references: int | None = None,
        subject: str | None = None,
    ) -> RubricScore:
        """Scores one gated reply; see the module docstring for the None / 0.0 rule.

        The remote terms (HPSv3, the judge) run concurrently on the same render; the local ones
        run meanwhile on this thread. A term that raises gives no verdict (its error as detail),
        and so does a remote term still working at `deadline_at`: the rubric stops waiting for it
        then, and the term, which sees the deadline in its `Painting`, stops its own calls.

        Args:
            gate: the gate's verdict, with the render when one was made.
            sketch_tokens: the sketch's length under the policy's tokenizer; approximated from
                its characters when None.
            seed: the episode seed, which draws the judge's references (the same for a group).
            weights: this episode's weights (from `weights_for`); the deployment's when None.
            deadline_at: the episode's deadline, a `time.monotonic()` instant; None for none.
            references: the judge's references for this episode; the deployment's when None.
            subject: what the episode asked for (the embedded scorer judges that subject); the
                pool's default when None.
        """
        w = weights or self.weights
        shown = ["gate"] + [n for n in TERMS if w[n] > 0 or (n in self.terms and TERMS[n].always_scored)]
        absent = [
            RewardComponent(name=n, status=ScoreStatus.NOT_CONFIGURED)
            for n in TERMS
            if w[n] == 0 and not self.configured(n)
        ]
        if gate.infra_failure:
            components = [RewardComponent(name=n, weight=w[n], status=ScoreStatus.UNAVAILABLE) for n in shown]
            return RubricScore(None, components + absent)
        if not gate.passed:
            components = [RewardComponent(name="gate", value=0.0, weight=w["gate"], contribution=0.0)]
            components += [RewardComponent(name=n, weight=w[n], status=ScoreStatus.SKIPPED_BY_GATE) for n in shown[1:]]
            return RubricScore(self.fail_reward, components + absent)
        assert gate.inventory is not None and gate.render is not None and gate.render.png is not None
        tokens = gate.inventory.approx_tokens if sketch_tokens is None else sketch_tokens
        painting = Painting(gate.render.png, tokens, seed, deadline_at, references, subject)
        terms = [self.terms[n] for n in shown[1:]]
        remote = [t for t in terms if t.remote]
        verdicts = {"gate": Verdict(1.0)}
        pool = ThreadPoolExecutor(max_workers=max(1, len(remote)), thread_name_prefix="rubric")
        try:
            pending = {t.name: pool.submit(_verdict, t, painting) for t in remote}
            verdicts |= {t.name: _verdict(t, painting) for t in terms if not t.remote}
            left = None if deadline_at is None else max(0.0, deadline_at - time.monotonic())
            wait(pending.values(), timeout=left)
            verdicts |= {
                name: future.result() if future.done() else Verdict(None, LATE) for name, future in pending.items()
            }
        finally:
            pool.shutdown(wait=False, cancel_futures=True)  # a late term is not waited for
        for name, verdict in verdicts.items():
            if name in self._outcomes:
                self._outcomes[name].record(verdict)
        components = [_component(name, w[name], verdicts[name]) for name in shown]
        if any(c.status is ScoreStatus.UNAVAILABLE for c in components):
            # a weighted scorer gave no verdict: the reward would silently lose its share
            return RubricScore(None, components + absent)
        return RubricScore(sum(c.contribution for c in components), components + absent)

    def health(self) -> dict[str, dict]:
        """Per configured term: its weight and how its calls went (`TermOutcomes.report`)."""
        return {name: {"weight": self.weights[name], **self._outcomes[name].report()} for name in self.terms}

    def close(self) -> None:
        """Closes every term (their connections); called once at shutdown."""
        for term in self.terms.values():
            term.close()


class TermOutcomes:
    """How a term's calls went since start-up, for `/health`; thread-safe."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.calls = 0
        self.failures = 0
        self.last_ok: bool | None = None
        self.last_failure = ""
        self.last_at: float | None = None

    def record(self, verdict: Verdict) -> None:
        """Counts one verdict; a verdict without a value is a failure, with its detail kept."""
        with self._lock:
            self.calls += 1
            self.last_ok = verdict.value is not None
            self.last_at = time.time()
            if not self.last_ok:
                self.failures += 1
                self.last_failure = verdict.detail

    def report(self) -> dict:
        """`answers`: whether the last call gave a verdict (None before the first call)."""
        with self._lock:
            return {
                "answers": self.last_ok,
                "calls": self.calls,
                "failures": self.failures,
                "last_call_at": self.last_at,
                "last_failure": self.last_failure,
            }


def _component(name: str, weight: float, verdict: Verdict) -> RewardComponent:
    if verdict.value is None:
        return RewardComponent(name=name, weight=weight, status=ScoreStatus.UNAVAILABLE, detail=verdict.detail)
    return RewardComponent(
        name=name, value=verdict.value, weight=weight, contribution=weight * verdict.value, detail=verdict.detail
    )


def _verdict(term: Term, painting: Painting) -> Verdict:
    """The term's verdict; a term that breaks gives none, and never crashes the step.

    The cause goes into the verdict's detail every time, and into the log with its traceback
    once per term and exception type (later ones at debug level), so a broken scorer under a
    run of thousands of episodes leaves one traceback, not thousands.
    """
    try:
        verdict = term.score(painting)
    except Exception as err:  # noqa: BLE001 (any failure of a scorer is "no verdict", with its cause)
        key = (term.name, type(err).__name__)
        with _reported_lock:
            first = key not in _reported
            _reported.add(key)
        if first:
            log.error(
                "the %s term failed (%s); later %s failures of it are logged at debug level",
                term.name,
                type(err).__name__,
                type(err).__name__,
                exc_info=err,
            )
        else:
            log.debug("the %s term failed again: %s: %s", term.name, type(err).__name__, err)
        return Verdict(None, f"{type(err).__name__}: {err}"[:300])
    if verdict.value is not None and not 0.0 <= verdict.value <= 1.0:
        return Verdict(None, f"{term.name} gave {verdict.value!r}, outside [0, 1]")
    return Verdict(verdict.value, verdict.detail[:300])


@dataclass(frozen=True)
class RubricScore:
    """A reward in [0, 1] or None (infrastructure failure), with its components."""

    reward: float | None
    components: list[RewardComponent]
