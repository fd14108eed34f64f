"""The watercolour environment: one episode is one reply painted, gated and scored, or several.

With `revisions` = K at reset, an episode is 1 + K paintings: each but the last is answered with
a critique of the picture (`server/critique.py`) and `done` false, and the reward, given with the
last, is the last painting's or the best one's (issue 37).
"""

from __future__ import annotations

import base64
import inspect
import logging
import random
import threading
import time
import uuid
from collections.abc import Callable
from importlib import metadata
from typing import Any

from openenv.core.env_server.interfaces import Environment
from openenv.core.env_server.types import EnvironmentMetadata
from pydantic_core import PydanticSerializationError

from watercolour_env.errors import InvalidOption, WatercolourError
from watercolour_env.limits import (
    DEFAULT_EPISODE_DEADLINE_S,
    DEFAULT_MAX_REPLY_BYTES,
    DEFAULT_MAX_REVISIONS,
    MAX_DETAIL_CHARS,
)
from watercolour_env.models import (
    EpisodeStatus,
    ResetOptions,
    RewardComponent,
    WatercolourAction,
    WatercolourObservation,
    WatercolourState,
)
from watercolour_env.pool.subjects import SubjectCoverage
from watercolour_env.prompt import DEFAULT_SUBJECT, SYSTEM_PROMPT, user_prompt
from watercolour_env.server.copies import CopyGuard
from watercolour_env.server.critique import critique
from watercolour_env.server.gate import (
    DEFAULT_PAINT_FLOOR,
    GateResult,
    check_copy,
    check_render,
    check_source,
    step_detail,
)
from watercolour_env.server.reward.rubric import Rubric, RubricScore, RubricWeights
from watercolour_env.server.sandbox import Renderer
from watercolour_env.server.sandbox.picture import clean_text
from watercolour_env.terms import Violation

log = logging.getLogger(__name__)


class SessionCount:
    """Live environments (one per websocket session): up when made, down when OpenEnv closes one."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.live = 0

    def opened(self) -> None:
        """One more session."""
        with self._lock:
            self.live += 1

    def closed(self) -> None:
        """One session fewer."""
        with self._lock:
            self.live -= 1


class WatercolourEnvironment(Environment[WatercolourAction, WatercolourObservation, WatercolourState]):
    """Env card.

    Action: `WatercolourAction(reply)`, the policy's raw completion.
    Observation: `WatercolourObservation`. After `reset`: subject, seed, system prompt, prompt,
        status "ready". After `step`: the extracted sketch, violations, JS errors, paint
        fraction in [0, 1], render time in ms, reward components and, when `return_image` was
        set at reset, the 600x600 PNG (base64).
    Reward: in [0, 1] from the rubric; `fail_reward` (0.0) for a reply the gate rejects; None
        when the infrastructure failed (status "infra_error").
    Episode end: after one `step` (`done=True`); a second step needs a new `reset`. With
        `revisions` = K at reset (at most `max_revisions`), after 1 + K steps: each earlier step
        comes back status "revise", `done` false, reward None and no components, with a
        `critique` of the picture that names neither the pool nor the score; the last carries the
        reward of the last painting, or of the best (`revision_reward="best"`, which scores
        every painting). An infrastructure failure at any turn ends the episode unscored.
    Arguments: a shared `Renderer`, a `Rubric`, the default subject, the blank-canvas floor,
        whether real p5.brush methods outside the allowlist are violations (`strict`), and the
        step's whole budget in seconds (`episode_deadline_s`: queue wait, render and scorers; a
        step that runs out comes back "infra_error", reward None, naming the slow stage), and the
        pool's copy guard (`copied_reference`; None turns it off), the id of the pool's oracle (the
        guard holds it like the pool; an episode reset with `oracle=True` may send it) and the subjects its pool covers
        (a reset for another subject with the embedded scorer weighed is refused; None: any), and
        the system prompt (with the pool's hint) and a subject's line (`PoolDeclaration.subject_hint`).
    Version: the package's, as `/metadata` reports it; what changed when is in docs/LOG.md.

    Example:
        >>> env = WatercolourEnvironment(renderer, Rubric(RubricWeights(), terms))  # doctest: +SKIP
        >>> env.reset(seed=3, subject="a peach hibiscus").prompt  # doctest: +SKIP
        'Paint a peach hibiscus as a loose watercolour.'
    """

    SUPPORTS_CONCURRENT_SESSIONS = True

    def __init__(
        self,
        renderer: Renderer,
        rubric: Rubric,
        default_subject: str = DEFAULT_SUBJECT,
        paint_floor: float = DEFAULT_PAINT_FLOOR,
        strict: bool = True,
        max_reply_bytes: int = DEFAULT_MAX_REPLY_BYTES,
        sessions: SessionCount | None = None,
        episode_deadline_s: float = DEFAULT_EPISODE_DEADLINE_S,
        copy_guard: CopyGuard | None = None,
        coverage: SubjectCoverage | None = None,
        system_prompt: str = SYSTEM_PROMPT,
        oracle_id: str | None = None,
        max_revisions: int = DEFAULT_MAX_REVISIONS,
        subject_hint: Callable[[str], str | None] = lambda subject: None,
    ) -> None:
        super().__init__()
        self._max_revisions = max_revisions
        self._turns: list[tuple[float, list[RewardComponent], bool]] = []  # each scored painting: reward, parts, passed
        self._system_prompt, self._subject_hint = system_prompt, subject_hint  # what the prompts say
        self._copy_guard = copy_guard
        self._oracle_id = oracle_id
        self._coverage = coverage
        self._episode_deadline_s = episode_deadline_s
        self._max_reply_bytes = max_reply_bytes
        self._closed = False
        self._sessions = sessions
        if sessions is not None:
            sessions.opened()
        self._renderer = renderer
        self._rubric = rubric
        self._default_subject = default_subject
        self._paint_floor = paint_floor
        self._strict = strict
        self._state = WatercolourState()
        self._weights: RubricWeights | None = None
        self._reset_done = False

    def reset(
        self,
        seed: int | None = None,
        episode_id: str | None = None,
        subject: str | None = None,
        return_image: bool = False,
        weights: dict[str, float] | str | None = None,
        references: int | None = None,
        revisions: int = 0,
        revision_reward: str = "last",
        oracle: bool = False,
        **kwargs: Any,
    ) -> WatercolourObservation:
        """Starts an episode.

        Args:
            seed: render seed in [0, 2**32); random when None. Give every completion of a GRPO
                group the same seed.
            episode_id: an id to report; a fresh UUID when None.
            subject: what to paint, e.g. "a peach hibiscus"; the server default when None.
            return_image: whether the step observation carries the PNG.
            weights: this episode's reward weights by component (`reward.component_names()`:
                "gate" and every registered term, `gold` among them), summing to 1, or a preset
                name (`reward.rubric.PRESETS`); the deployment's when None.
            references: how many pool references the judge compares this episode's painting
                with, in [1, 32] (the seed's `--references`); the deployment's
                `WATERCOLOUR_REFERENCES_PER_EPISODE` when None. Unused when the judge is not weighted.
            revisions: paintings after the first, in [0, `max_revisions`]; each earlier painting
                is answered with a critique instead of a reward.
            revision_reward: "last" (the last painting's reward) or "best" (the best painting's).
            oracle: the episode sends the pool's oracle: the copy guard, which holds it like the
                pool's paintings, lets that one painting through (`watercolour oracle`, a Space's
                validation). A policy never sets reset's options; its trainer does.
            **kwargs: none is accepted; an unknown option is an error, not ignored.

        Raises:
            InvalidOption: an unknown option, a seed outside [0, 2**32), a subject that is not 1-200
                printable characters, references outside [1, 32], or a return_image that is not a bool (the previous
                episode is left as it was).
            ConfigError: invalid weights, or a weight for a scorer this deployment lacks.
            InvalidOption: a subject the pool does not cover, with the embedded scorer weighed, or
                `oracle` when the pool declares none.
        """
        self._check_open()
        ResetOptions.check(
            seed=seed,
            episode_id=episode_id,
            subject=subject,
            return_image=return_image,
            weights=weights,
            references=references,
            revisions=revisions,
            revision_reward=revision_reward,
            oracle=oracle,
            **kwargs,
        )
        if oracle and self._oracle_id is None:
            raise InvalidOption("oracle=true: this deployment's pool declares no oracle (pool.toml)")
        if revisions > self._max_revisions:
            raise InvalidOption(
                f"revisions={revisions}: this server allows at most {self._max_revisions} (WATERCOLOUR_MAX_REVISIONS)"
            )
        episode_weights = self._rubric.weights_for(weights) if weights is not None else None
        subject = (subject or self._default_subject).strip()
        self._check_covered(subject, episode_weights or self._rubric.weights)
        self._weights = episode_weights
        seed = random.randrange(2**32) if seed is None else seed
        self._state = WatercolourState(
            episode_id=episode_id or str(uuid.uuid4()),
            seed=seed,
            subject=subject,
            return_image=bool(return_image),
            references=references,
            revisions=revisions,
            revision_reward=revision_reward,
            oracle=oracle,
        )
        self._turns = []
        self._copied = False  # whether a painting of this episode copied one of the pool
        self._reset_done = True
        return self._observation(reward=None, done=False)

    def _check_covered(self, subject: str, weights: RubricWeights) -> None:
        """Refuses a subject the pool does not cover when the embedded scorer is weighed."""
        if self._coverage is None or weights["embedded"] <= 0 or self._coverage.covers(subject):
            return
        raise InvalidOption(uncovered_subject(subject, self._coverage))

    def step(self, action: WatercolourAction, timeout_s: float | None = None, **kwargs: Any) -> WatercolourObservation:
        """Paints, gates and scores one reply; bad replies come back as violations.

        A reply over `max_reply_bytes` is not read: the gate refuses it (`reply_too_long`), the
        policy's fault like any other refusal, never None.

        Raises:
            WatercolourError: `step` before `reset`, or a step after the episode's last.
        """
        self._check_open()
        if not self._reset_done:
            raise WatercolourError("call reset before step")
        if self._state.status not in (EpisodeStatus.READY, EpisodeStatus.REVISE):
            raise WatercolourError("the episode is over; call reset to start another")
        deadline_at = time.monotonic() + self._episode_deadline_s
        self._state.step_count += 1
        last = self._state.step_count > self._state.revisions or action.final
        size = len(action.reply.encode("utf-8", "surrogatepass"))
        if size > self._max_reply_bytes:  # the policy's fault, judged like any refusal (never read)
            gate = GateResult(False, [Violation.REPLY_TOO_LONG])
        else:
            gate = check_source(action.reply, strict=self._strict)
        if gate.passed:
            render = self._renderer.render(
                gate.sketch or "", seed=self._state.seed, deadline_s=timeout_s, deadline_at=deadline_at
            )
            allowed = self._oracle_id if self._state.oracle else None
            gate = check_copy(check_render(gate, render, self._paint_floor), self._copy_guard, allowed)
        scored = last or self._state.revision_reward == "best"
        score = self._score(gate, action, deadline_at) if scored else None
        unscored = gate.infra_failure or (score is not None and score.reward is None)
        if score is not None and not unscored:
            self._turns.append((score.reward, score.components, gate.passed))
        copied_before, self._copied = self._copied, self._copied or gate.copied is not None
        judged = None  # the painting whose reward the last observation carries
        if copied_before and (last or unscored):  # a copy at any turn fails the episode (docs/environment.md)
            self._state.status, reward, components = EpisodeStatus.REJECTED, self._rubric.fail_reward, []
            detail, judged = "an earlier painting of this episode copied a painting of the pool", self._state.step_count
        elif unscored:
            self._state.status, reward, components = EpisodeStatus.INFRA_ERROR, None, score.components if score else []
            detail = step_detail(gate, components)
        elif not last:
            self._state.status, reward, components = EpisodeStatus.REVISE, None, []
            detail = "copied_reference" if gate.copied is not None else step_detail(gate, [])  # names no painting
        else:
            chosen = len(self._turns) - 1  # every painting was scored when the best is asked for
            if self._state.revision_reward == "best" and gate.copied is None:  # a copy at the last is its reward
                chosen = max(range(len(self._turns)), key=lambda i: self._turns[i][0])
            reward, components, passed = self._turns[chosen]
            self._state.status = EpisodeStatus.SCORED if passed else EpisodeStatus.REJECTED
            detail = step_detail(gate, score.components)
            if chosen < len(self._turns) - 1:
                detail = f"the reward is painting {chosen + 1}'s, the best of {len(self._turns)}; " + detail
            judged = self._state.step_count - (len(self._turns) - 1 - chosen)
        render = gate.render
        png = render.png if render is not None else None
        observation = self._observation(
            reward=reward,
            done=self._state.status is not EpisodeStatus.REVISE,
            sketch=None if gate.sketch is None else clean_text(gate.sketch, self._max_reply_bytes),
            violations=gate.violations,
            js_errors=render.js_errors if render else [],  # cleaned and bounded by picture.read_report
            reward_components=components,
            paint_fraction=render.paint_fraction if render and render.png else None,
            render_ms=render.elapsed_ms if render else None,
            queue_ms=render.queued_ms if render else None,
            renderer=render.renderer if render else "",
            image_png_b64=base64.b64encode(png).decode() if png and self._state.return_image else None,
            detail=clean_text(detail, MAX_DETAIL_CHARS),
            turn=self._state.step_count,
            judged_turn=judged,
            critique=clean_text(critique(gate), MAX_DETAIL_CHARS) if self._state.revisions else "",
        )
        return self._sendable(observation)

    def _score(self, gate: GateResult, action: WatercolourAction, deadline_at: float) -> RubricScore:
        """The rubric's verdict on this painting, with the episode's seed, weights and references."""
        return self._rubric.score(
            gate,
            action.sketch_tokens,
            seed=self._state.seed,
            weights=self._weights,
            deadline_at=deadline_at,
            references=self._state.references,
            subject=self._state.subject,
        )

    def _sendable(self, observation: WatercolourObservation) -> WatercolourObservation:
        """The observation if it encodes as JSON, else the sketch's failure: `unencodable_observation`.

        Everything sketch-made in it is cleaned first (`clean_text`), so this is the net under
        that: an observation the server cannot send would reach the trainer as a server error
        (reward None), and the sketch's fault must never be None.
        """
        try:
            observation.model_dump_json()
            return observation
        except (PydanticSerializationError, UnicodeError) as err:
            log.warning("step: the observation could not be encoded (%s); the sketch's failure", err)
        self._state.status = EpisodeStatus.REJECTED
        return self._observation(
            reward=self._rubric.fail_reward,
            done=True,
            violations=[Violation.UNENCODABLE_OBSERVATION],
            detail="the sketch's report could not be encoded as JSON",
        )

    def close(self) -> None:
        """Called by OpenEnv when the session ends or its reaper closes it; counts it out once.

        A websocket whose session was reaped stays open (OpenEnv closes only the environment), so
        a closed environment refuses every later reset and step: it no longer counts against the
        session limit and must not do work.
        """
        self._closed = True
        if self._sessions is not None:
            self._sessions.closed()
            self._sessions = None
        super().close()

    def _check_open(self) -> None:
        if self._closed:
            raise WatercolourError(
                "this session was closed by the server (idle past WATERCOLOUR_SESSION_TIMEOUT_S); connect again"
            )

    @property
    def state(self) -> WatercolourState:
        """The current episode's options and status."""
        return self._state

    def get_metadata(self) -> EnvironmentMetadata:
        """OpenEnv's `/metadata`: the name openenv.yaml gives, the package's version, the env card."""
        return EnvironmentMetadata(
            name="watercolour_env",
            description="Paint a watercolour by writing a p5.js sketch that uses ten p5.brush methods; "
            "rendered in headless Chromium, gated, and scored against a hand-rated pool.",
            readme_content=inspect.cleandoc(type(self).__doc__ or ""),
            version=metadata.version("watercolour"),
        )

    def _observation(self, reward: float | None, done: bool, **fields: Any) -> WatercolourObservation:
        s = self._state
        return WatercolourObservation(
            reward=reward,
            done=done,
            status=s.status,
            subject=s.subject,
            seed=s.seed,
            system_prompt=self._system_prompt,
            prompt=user_prompt(s.subject, s.revisions, s.revision_reward, self._subject_hint(s.subject)),
            **fields,
        )


def uncovered_subject(subject: str, coverage: SubjectCoverage) -> str:
    """The one-line refusal of a subject the pool does not cover."""
    return (
        f"the embedded scorer judges only the subjects its pool covers ({coverage.describe()}), not "
        f'"{subject}": ask for one of those, use a pool of "{subject}" (WATERCOLOUR_POOL, or declare it in the '
        "pool's subjects.txt), or weigh a scorer that judges any subject (WATERCOLOUR_PRESET, WATERCOLOUR_WEIGHT_*)"
    )
