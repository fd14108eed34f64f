"""The reward function TRL awaits: one environment episode per completion, over the websocket.

Every completion of a group carries its prompt row's seed, so the whole group faces the same
render seed (and, with issue 6, the same references). An episode that the infrastructure could
not finish (server down, socket dropped, render crash) returns None: TRL leaves that rollout
out of the group's mean and std and gives it advantage 0 (decision 0003, "TRL").

It is async (TRL awaits an async reward function on its own event loop): a batch's episodes run
at once on OpenEnv's async client, at most `max_parallel` in flight, spread over the run's
replicas (`watercolour_trainer.episodes.replicas`).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import Counter
from collections.abc import Callable
from typing import Any

from watercolour_env import WatercolourAction, WatercolourEnv, WatercolourObservation
from watercolour_env.client import (
    DEFAULT_EPISODE_TIMEOUT_S,
    EPISODE_TIMEOUT_MARGIN_S,
    connection_problem,
    server_error,
)
from watercolour_env.errors import ConfigError
from watercolour_env.rollout import Rollout
from watercolour_env.sketch import code_text, extract_sketch
from watercolour_trainer.episodes.replicas import Replica, Replicas
from watercolour_trainer.record.rollouts import RolloutLog

log = logging.getLogger(__name__)

# What `reset` answers when it refuses the run's own options (weights, subject): the run's
# configuration is wrong, and every later episode would be refused the same way.
REFUSAL_CODES = frozenset({"EXECUTION_ERROR", "VALIDATION_ERROR"})


CAPACITY_BACKOFF_MAX_S = 5.0
"""The longest wait between two tries of a server at its session limit, in seconds."""


class ConfigurationRefused(ConfigError):
    """The environment refused this run's episode options at `reset`; the message is the server's."""


def refusal(err: BaseException) -> str | None:
    """The server's message when `err` is its refusal of reset options, else None (infrastructure)."""
    frame = server_error(err)
    return frame[0] if frame and frame[1] in REFUSAL_CODES else None


def completion_text(completion: Any) -> str:
    """The text of a completion, whether TRL passes a string or a list of chat messages."""
    if isinstance(completion, str):
        return completion
    return "".join(m.get("content", "") for m in completion if isinstance(m, dict))


class EnvironmentReward:
    """A TRL reward function backed by a watercolour environment server.

    Args:
        env_url: the server's base URL (http:// or ws://), or a list of replicas' URLs.
        num_generations: completions per prompt (the GRPO group size).
        log: where rollouts are written; None keeps nothing.
        timeout_s: seconds to wait for one episode's reply; None: the server's episode deadline
            (`/health`'s `limits`, read by `check_configuration`) plus `EPISODE_TIMEOUT_MARGIN_S`,
            or `DEFAULT_EPISODE_TIMEOUT_S` before that is read.
        max_parallel: episodes in flight at once, over all replicas.
        count_tokens: the policy tokenizer's count for a text, applied to the sketch's code
            (`code_text`) and sent to the environment's length term; the environment
            approximates from characters when None.
        weights: reward weights sent at every reset (validated by the server); the
            deployment's when None.
        max_unscored_share: share of a step's rollouts in [0, 1] that may go unscored (reward
            None) before the step logs an error with the reasons counted; the seed's runs lost
            1.5% on average and 5.2% at worst (docs/LOG.md), so 0.25 means something is broken.
        references: the judge's references per episode, sent at every reset (the seed's
            `--references`); the deployment's when None.

    Raises (when awaited):
        ConfigurationRefused: the server refused the run's reset options; the run cannot train.

    Example:
        >>> reward = EnvironmentReward("http://127.0.0.1:8000", num_generations=4)  # doctest: +SKIP
        >>> GRPOTrainer(model, reward_funcs=[reward], ...)  # doctest: +SKIP
        >>> asyncio.run(reward(prompts, completions, seed=[7] * 4))  # outside TRL  # doctest: +SKIP
    """

    __name__ = "environment"

    def __init__(
        self,
        env_url: str | list[str],
        num_generations: int,
        log: RolloutLog | None = None,
        timeout_s: float | None = None,
        max_parallel: int = 16,
        count_tokens: Callable[[str], int] | None = None,
        weights: dict[str, float] | str | None = None,
        max_unscored_share: float = 0.25,
        references: int | None = None,
    ) -> None:
        self.replicas = Replicas([env_url] if isinstance(env_url, str) else list(env_url))
        self.env_url = self.replicas.urls[0]
        self.num_generations = num_generations
        self.log = log
        self.timeout_s = DEFAULT_EPISODE_TIMEOUT_S if timeout_s is None else timeout_s
        self._timeout_from_server = timeout_s is None
        self.max_parallel = max_parallel
        self.count_tokens = count_tokens
        self.weights = weights
        self.max_unscored_share = max_unscored_share
        self.references = references
        self.seconds = 0.0  # time spent in calls, all told (the trainer's step line reads it)
        self.process_index = 0  # under accelerate launch, this process's: its completions' place in the step

    def check_configuration(self, subject: str | None = None) -> None:
        """Checks every replica before the model loads: alike, reachable, and accepting the options.

        Asks each replica's `/health` (they must report the same pool and weights), takes the
        episode timeout from the longest deadline among them unless one was given, then resets
        one episode with this run's options on each replica that answered.

        Raises:
            ConfigurationRefused: a server refused the options, with its own message.
            ConfigError: no replica answered, replicas differ (named), or a token was refused.
            RuntimeError, TimeoutError: a server failed.
        """
        try:
            answers = self.replicas.check()
        except ConfigError:
            if len(self.replicas.replicas) > 1:
                raise
            answers = []  # one server: the reset below says why it cannot be reached
        if self._timeout_from_server:
            self._follow_server_deadline(answers)
        for replica in self.replicas.replicas:
            if replica.down_until and answers:
                continue  # did not answer /health: it is tried again during the run
            try:
                with WatercolourEnv(base_url=replica.url, message_timeout_s=self.timeout_s).sync() as env:
                    self._reset(env, seed=0, subject=subject)
            except ConnectionError as err:
                raise ConfigError(connection_problem(err, replica.url)) from err

    def _follow_server_deadline(self, answers: list[dict[str, Any]]) -> None:
        """Waits for an episode as long as the servers' own deadline allows, plus the margin."""
        deadlines = []
        for health in answers:
            try:
                deadlines.append(float(health["limits"]["episode_deadline_s"]))
            except (KeyError, TypeError, ValueError):
                continue  # an older server: the default stands for it
        if deadlines:
            self.timeout_s = max(deadlines) + EPISODE_TIMEOUT_MARGIN_S
            log.info(
                "episode timeout %.0f s: the servers' deadline of %.0f s plus a margin", self.timeout_s, max(deadlines)
            )

    def _reset_options(self, seed: int, subject: str | None, return_image: bool) -> dict[str, Any]:
        options: dict[str, Any] = {"seed": seed, "subject": subject, "return_image": return_image}
        if self.weights:
            options["weights"] = self.weights
        if self.references:
            options["references"] = self.references
        return options

    def _refused(self, err: RuntimeError, url: str) -> ConfigurationRefused | None:
        message = refusal(err)
        if message is None:
            return None
        return ConfigurationRefused(f"the environment at {url} refused this run's episode options: {message}")

    def _reset(self, env: Any, seed: int, subject: str | None, return_image: bool = False) -> None:
        """Resets with this run's options; a refusal of them becomes `ConfigurationRefused`."""
        try:
            env.reset(**self._reset_options(seed, subject, return_image))
        except RuntimeError as err:
            refused = self._refused(err, self.env_url)
            if refused is None:
                raise
            raise refused from err

    async def __call__(self, prompts: list[Any], completions: list[Any], **kwargs: Any) -> list[float | None]:
        """Scores a batch of completions; one float in [0, 1] or None per completion.

        With TRL's `log_extra` and `log_metric` in `kwargs`, each completion's status, reward
        components and violations go to the completions table, and the step's shares (gate
        failures, unscored) and each component's mean to the logged metrics.
        """
        started = time.perf_counter()
        try:
            return await self._score(completions, kwargs)
        finally:
            self.seconds += time.perf_counter() - started

    async def _score(self, completions: list[Any], kwargs: dict[str, Any]) -> list[float | None]:
        n = len(completions)
        seeds = kwargs.get("seed") or [0] * n
        subjects = kwargs.get("subject") or [None] * n
        primers = kwargs.get("reply_primer") or [""] * n
        state = kwargs.get("trainer_state")
        step = (state.global_step + 1) if state is not None else 0
        replies = [(primers[i] or "") + completion_text(completions[i]) for i in range(n)]
        in_flight = asyncio.Semaphore(max(1, min(n, self.max_parallel)))

        async def one(i: int) -> tuple[WatercolourObservation | None, str]:
            async with in_flight:
                return await self._episode(replies[i], int(seeds[i]), subjects[i])

        results = await asyncio.gather(*(one(i) for i in range(n)))
        refused = [error for _, error in results if error.startswith("refused: ")]
        if refused:
            raise ConfigurationRefused(refused[0].removeprefix("refused: "))
        rewards, first = [], self.process_index * n  # TRL slices a step's completions by process, in order
        for i, (observation, error) in enumerate(results):
            rewards.append(observation.reward if observation is not None else None)
            if self.log is not None:
                self.log.add(*self._rollout(step, first + i, replies[i], seeds[i], subjects[i], observation, error))
        if self.log is not None:
            self.log.flush()
        self._report_unscored(step, results)
        if "log_extra" in kwargs and "log_metric" in kwargs:
            log_to_trl(results, kwargs["log_extra"], kwargs["log_metric"])
        return rewards

    def _report_unscored(self, step: int, results: list[tuple[WatercolourObservation | None, str]]) -> None:
        """Logs an error when more than `max_unscored_share` of a step's rollouts went unscored."""
        reasons: Counter[str] = Counter()
        for observation, error in results:
            if observation is None:
                reasons[error.split(":", 1)[0] or "no answer"] += 1
            elif observation.reward is None:
                reasons[(observation.detail or observation.status.value)[:80]] += 1
        unscored = sum(reasons.values())
        if results and unscored / len(results) > self.max_unscored_share:
            counted = "; ".join(f"{n} x {reason}" for reason, n in reasons.most_common())
            log.error(
                "step %d: %d of %d rollouts unscored (over %.0f%%), they train nothing: %s",
                step,
                unscored,
                len(results),
                100 * self.max_unscored_share,
                counted,
            )

    async def _episode(self, reply: str, seed: int, subject: str | None) -> tuple[WatercolourObservation | None, str]:
        """Runs reset and step on one socket of one replica; returns (observation, "") or (None, error).

        A server at its session limit (`CAPACITY_REACHED`) is asked again with backoff (0.5 s,
        doubling, at most `CAPACITY_BACKOFF_MAX_S`) until `timeout_s` has passed since the first
        try; only then is the rollout unscored, with the refusal as its reason. A replica that
        does not answer is left out and the episode goes to another one once, in the same time.
        """
        deadline = time.monotonic() + self.timeout_s
        wait, moved = 0.5, False
        while True:
            replica = await self.replicas.acquire()
            if replica is None:
                return None, f"ConnectionError: no environment replica answers ({', '.join(self.replicas.urls)})"
            observation, error, lost = await self._episode_once(replica, reply, seed, subject)
            self.replicas.release(replica, failed=lost)
            left = deadline - time.monotonic()
            if lost and not moved and left > 0 and self.replicas.any_up():
                moved = True
                log.info("episode moved from %s to another replica: %s", replica.url, error[:120])
                continue
            if "(code: CAPACITY_REACHED)" not in error:
                return observation, error
            if left <= 0:
                log.warning("episode not scored: the environment stayed at capacity for %.0f s", self.timeout_s)
                return observation, error
            log.info("environment at capacity; trying again in %.1f s", min(wait, left))
            await asyncio.sleep(min(wait, left))
            wait = min(2 * wait, CAPACITY_BACKOFF_MAX_S)

    async def _episode_once(
        self, replica: Replica, reply: str, seed: int, subject: str | None
    ) -> tuple[WatercolourObservation | None, str, bool]:
        """(observation, "", False), or (None, error, lost): lost when the replica gave no answer."""
        try:
            async with WatercolourEnv(base_url=replica.url, message_timeout_s=self.timeout_s) as env:
                try:
                    await env.reset(**self._reset_options(seed, subject, self.log is not None))
                except RuntimeError as err:
                    refused = self._refused(err, replica.url)
                    if refused is not None:
                        return None, f"refused: {refused}", False
                    raise
                sketch = extract_sketch(reply)
                # the code alone: comments and blank space earn no length (issue 33)
                tokens = self.count_tokens(code_text(sketch)) if self.count_tokens and sketch is not None else None
                result = await env.step(WatercolourAction(reply=reply, sketch_tokens=tokens))
                return result.observation, "", False
        except Exception as err:  # noqa: BLE001 (any failure to finish an episode is the infrastructure's)
            answered = server_error(err) is not None
            if "(code: CAPACITY_REACHED)" not in str(err):
                log.warning("episode not scored (%s): %s: %s", replica.url, type(err).__name__, err)
            return None, f"{type(err).__name__}: {err}", not answered

    def _rollout(
        self,
        step: int,
        index: int,
        reply: str,
        seed: int,
        subject: str | None,
        obs: WatercolourObservation | None,
        error: str,
    ) -> tuple[Rollout, str | None]:
        group, position = divmod(index, self.num_generations)
        if obs is None:
            rollout = Rollout(
                step,
                group,
                position,
                subject or "",
                int(seed),
                reply,
                extract_sketch(reply),
                None,
                "infra_error",
                detail=error,
            )
            return rollout, None
        rollout = Rollout.from_observation(step, group, position, reply, obs)
        return rollout, obs.image_png_b64


def log_to_trl(
    results: list[tuple[WatercolourObservation | None, str]],
    log_extra: Callable[[str, list], None],
    log_metric: Callable[[str, float], None],
) -> None:
    """Sends a batch's episodes to TRL's completions table and metrics.

    Columns: each completion's status, violations, JavaScript errors and component values. Metrics (`env/...`,
    averaged by TRL over a logging step): the gate-failure and unscored shares, each component's
    mean over the completions it scored, the mean render time.
    """
    observations = [obs for obs, _ in results]
    n = max(len(results), 1)
    log_extra("status", [obs.status.value if obs else "infra_error" for obs in observations])
    log_extra("violations", [",".join(v.value for v in obs.violations) if obs else "" for obs in observations])
    log_extra("js_errors", [" | ".join(obs.js_errors)[:500] if obs else "" for obs in observations])
    names = sorted({c.name for obs in observations if obs for c in obs.reward_components})
    for name in names:
        values = [
            next((c.value for c in obs.reward_components if c.name == name), None) if obs else None
            for obs in observations
        ]
        log_extra(name, values)
        scored = [v for v in values if v is not None]
        if scored:
            log_metric(f"env/{name}", sum(scored) / len(scored))
    log_metric("env/gate_fail_share", sum(1 for obs in observations if obs and obs.status.value == "rejected") / n)
    log_metric("env/unscored_share", sum(1 for obs in observations if obs is None or obs.reward is None) / n)
    render_ms = [obs.render_ms for obs in observations if obs and obs.render_ms]
    if render_ms:
        log_metric("env/render_ms", sum(render_ms) / len(render_ms))
