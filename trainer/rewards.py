"""The reward function TRL calls: one environment episode per completion, over the websocket.

Every completion of a group carries its prompt row's seed, so the whole group faces the same
render seed (and, with issue 6, the same references). An episode that the infrastructure could
not finish (server down, socket dropped, render crash) returns None: TRL leaves that rollout
out of the group's mean and std and gives it advantage 0 (decision 0003, "TRL").
"""

from __future__ import annotations

import logging
import re
import time
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from watercolour_env import WatercolourAction, WatercolourEnv, WatercolourObservation
from watercolour_env.client import connection_problem
from watercolour_env.errors import ConfigError
from watercolour_env.sketch import extract_sketch
from watercolour_trainer.rollouts import Rollout, RolloutLog

log = logging.getLogger(__name__)

# OpenEnv's error frame, as its client raises it: "Server error: <message> (code: <CODE>)".
_SERVER_ERROR = re.compile(r"^Server error: (?P<message>.*) \(code: (?P<code>[A-Z_]+)\)$", re.DOTALL)
# What `reset` answers when it refuses the run's own options (weights, subject): the run's
# configuration is wrong, and every later episode would be refused the same way.
REFUSAL_CODES = frozenset({"EXECUTION_ERROR", "VALIDATION_ERROR"})


CAPACITY_BACKOFF_MAX_S = 5.0
"""The longest wait between two tries of a server at its session limit, in seconds."""
EPISODE_TIMEOUT_MARGIN_S = 30.0
"""How much longer than the server's episode deadline a client waits: the server answers by its
deadline (`infra_error` at worst), so a client that hears nothing by then has lost the server."""
DEFAULT_EPISODE_TIMEOUT_S = 120.0 + EPISODE_TIMEOUT_MARGIN_S
"""The server's default episode deadline (`WATERCOLOUR_EPISODE_DEADLINE_S`, 120 s) plus the margin."""


class ConfigurationRefused(ConfigError):
    """The environment refused this run's episode options at `reset`; the message is the server's."""


def refusal(err: BaseException) -> str | None:
    """The server's message when `err` is its refusal of reset options, else None (infrastructure)."""
    match = _SERVER_ERROR.match(str(err)) if isinstance(err, RuntimeError) else None
    return match["message"] if match and match["code"] in REFUSAL_CODES else None


def completion_text(completion: Any) -> str:
    """The text of a completion, whether TRL passes a string or a list of chat messages."""
    if isinstance(completion, str):
        return completion
    return "".join(m.get("content", "") for m in completion if isinstance(m, dict))


class EnvironmentReward:
    """A TRL reward function backed by a watercolour environment server.

    Args:
        env_url: the server's base URL (http:// or ws://).
        num_generations: completions per prompt (the GRPO group size).
        log: where rollouts are written; None keeps nothing.
        timeout_s: seconds to wait for one episode's reply; None: the server's episode deadline
            (`/health`'s `limits`, read by `check_configuration`) plus `EPISODE_TIMEOUT_MARGIN_S`,
            or `DEFAULT_EPISODE_TIMEOUT_S` before that is read.
        max_parallel: episodes in flight at once.
        count_tokens: the policy tokenizer's count for a sketch, sent to the environment's length
            term; the environment approximates from characters when None.
        weights: reward weights sent at every reset (validated by the server); the
            deployment's when None.
        max_unscored_share: share of a step's rollouts in [0, 1] that may go unscored (reward
            None) before the step logs an error with the reasons counted; the seed's runs lost
            1.5% on average and 5.2% at worst (docs/LOG.md), so 0.25 means something is broken.
        references: the judge's references per episode, sent at every reset (the seed's
            `--references`); the deployment's when None.

    Raises (when called):
        ConfigurationRefused: the server refused the run's reset options; the run cannot train.

    Example:
        >>> reward = EnvironmentReward("http://127.0.0.1:8000", num_generations=4)  # doctest: +SKIP
        >>> GRPOTrainer(model, reward_funcs=[reward], ...)  # doctest: +SKIP
    """

    __name__ = "environment"

    def __init__(
        self,
        env_url: str,
        num_generations: int,
        log: RolloutLog | None = None,
        timeout_s: float | None = None,
        max_parallel: int = 16,
        count_tokens: Callable[[str], int] | None = None,
        weights: dict[str, float] | str | None = None,
        max_unscored_share: float = 0.25,
        references: int | None = None,
    ) -> None:
        self.env_url = env_url
        self.num_generations = num_generations
        self.log = log
        self.timeout_s = DEFAULT_EPISODE_TIMEOUT_S if timeout_s is None else timeout_s
        self._timeout_from_server = timeout_s is None
        self.max_parallel = max_parallel
        self.count_tokens = count_tokens
        self.weights = weights
        self.max_unscored_share = max_unscored_share
        self.references = references

    def check_configuration(self, subject: str | None = None) -> None:
        """Resets one episode with this run's options, so a refusal stops the run before it starts.

        Raises:
            ConfigurationRefused: the server refused the options, with its own message.
            ConfigError: no server answered, or it refused this client's token.
            RuntimeError, TimeoutError: the server failed.
        """
        if self._timeout_from_server:
            self._follow_server_deadline()
        try:
            with WatercolourEnv(base_url=self.env_url, message_timeout_s=self.timeout_s).sync() as env:
                self._reset(env, seed=0, subject=subject)
        except ConnectionError as err:
            raise ConfigError(connection_problem(err, self.env_url)) from err

    def _follow_server_deadline(self) -> None:
        """Waits for an episode as long as the server's own deadline allows, plus the margin."""
        import httpx

        url = self.env_url.replace("ws://", "http://", 1).replace("wss://", "https://", 1).rstrip("/")
        try:
            deadline_s = httpx.get(f"{url}/health", timeout=10).json()["limits"]["episode_deadline_s"]
        except (httpx.HTTPError, ValueError, KeyError, TypeError):
            return  # an older or unreachable server: the default stands, and the reset says why
        self.timeout_s = float(deadline_s) + EPISODE_TIMEOUT_MARGIN_S
        log.info("episode timeout %.0f s: the server's deadline of %.0f s plus a margin", self.timeout_s, deadline_s)

    def _reset(self, env: Any, seed: int, subject: str | None, return_image: bool = False) -> None:
        """Resets with this run's options; a refusal of them becomes `ConfigurationRefused`."""
        try:
            env.reset(
                seed=seed,
                subject=subject,
                return_image=return_image,
                **({"weights": self.weights} if self.weights else {}),
                **({"references": self.references} if self.references else {}),
            )
        except RuntimeError as err:
            message = refusal(err)
            if message is None:
                raise
            raise ConfigurationRefused(
                f"the environment at {self.env_url} refused this run's episode options: {message}"
            ) from err

    def __call__(self, prompts: list[Any], completions: list[Any], **kwargs: Any) -> list[float | None]:
        """Scores a batch of completions; one float in [0, 1] or None per completion."""
        n = len(completions)
        seeds = kwargs.get("seed") or [0] * n
        subjects = kwargs.get("subject") or [None] * n
        primers = kwargs.get("reply_primer") or [""] * n
        state = kwargs.get("trainer_state")
        step = (state.global_step + 1) if state is not None else 0
        replies = [(primers[i] or "") + completion_text(completions[i]) for i in range(n)]
        with ThreadPoolExecutor(max_workers=max(1, min(n, self.max_parallel))) as pool:
            results = list(pool.map(self._episode, replies, seeds, subjects))
        refused = [error for _, error in results if error.startswith("refused: ")]
        if refused:
            raise ConfigurationRefused(refused[0].removeprefix("refused: "))
        rewards = []
        for i, (observation, error) in enumerate(results):
            rewards.append(observation.reward if observation is not None else None)
            if self.log is not None:
                self.log.add(*self._rollout(step, i, replies[i], seeds[i], subjects[i], observation, error))
        if self.log is not None:
            self.log.flush()
        self._report_unscored(step, results)
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
                step, unscored, len(results), 100 * self.max_unscored_share, counted,
            )  # fmt: skip

    def _episode(self, reply: str, seed: int, subject: str | None) -> tuple[WatercolourObservation | None, str]:
        """Runs reset and step on one socket; returns (observation, "") or (None, error).

        A server at its session limit (`CAPACITY_REACHED`) is asked again with backoff (0.5 s,
        doubling, at most `CAPACITY_BACKOFF_MAX_S`) until `timeout_s` has passed since the first
        try; only then is the rollout unscored, with the refusal as its reason.
        """
        deadline = time.monotonic() + self.timeout_s
        wait = 0.5
        while True:
            observation, error = self._episode_once(reply, seed, subject)
            left = deadline - time.monotonic()
            if "(code: CAPACITY_REACHED)" not in error:
                return observation, error
            if left <= 0:
                log.warning("episode not scored: the environment stayed at capacity for %.0f s", self.timeout_s)
                return observation, error
            log.info("environment at capacity; trying again in %.1f s", min(wait, left))
            time.sleep(min(wait, left))
            wait = min(2 * wait, CAPACITY_BACKOFF_MAX_S)

    def _episode_once(self, reply: str, seed: int, subject: str | None) -> tuple[WatercolourObservation | None, str]:
        try:
            with WatercolourEnv(base_url=self.env_url, message_timeout_s=self.timeout_s).sync() as env:
                self._reset(env, int(seed), subject, return_image=self.log is not None)
                sketch = extract_sketch(reply)
                tokens = self.count_tokens(sketch) if self.count_tokens and sketch is not None else None
                return env.step(WatercolourAction(reply=reply, sketch_tokens=tokens)).observation, ""
        except ConfigurationRefused as err:
            return None, f"refused: {err}"
        except Exception as err:  # noqa: BLE001 (any failure to finish an episode is the infrastructure's)
            if "(code: CAPACITY_REACHED)" not in str(err):
                log.warning("episode not scored: %s: %s", type(err).__name__, err)
            return None, f"{type(err).__name__}: {err}"

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
        rollout = Rollout(
            step=step,
            group=group,
            position=position,
            subject=obs.subject,
            seed=obs.seed,
            completion=reply,
            sketch=obs.sketch,
            reward=obs.reward,
            status=obs.status.value,
            violations=[v.value for v in obs.violations],
            components=[c.model_dump(mode="json") for c in obs.reward_components],
            js_errors=obs.js_errors,
            paint_fraction=obs.paint_fraction,
            render_ms=obs.render_ms,
            queue_ms=obs.queue_ms,
            detail=obs.detail,
        )
        return rollout, obs.image_png_b64
