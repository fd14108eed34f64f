"""The reward function TRL calls: one environment episode per completion, over the websocket.

Every completion of a group carries its prompt row's seed, so the whole group faces the same
render seed (and, with issue 6, the same references). An episode that the infrastructure could
not finish (server down, socket dropped, render crash) returns None: TRL leaves that rollout
out of the group's mean and std and gives it advantage 0 (FIELD-NOTES, "TRL").
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from watercolour_env import WatercolourAction, WatercolourEnv, WatercolourObservation
from watercolour_env.sketch import extract_sketch
from watercolour_trainer.rollouts import Rollout, RolloutLog

log = logging.getLogger(__name__)


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
        timeout_s: seconds to wait for one episode's reply.
        max_parallel: episodes in flight at once.
        count_tokens: the policy tokenizer's count for a sketch, sent to the environment's length
            term; the environment approximates from characters when None.
        weights: reward weights sent at every reset (validated by the server); the
            deployment's when None.

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
        timeout_s: float = 120.0,
        max_parallel: int = 16,
        count_tokens: Callable[[str], int] | None = None,
        weights: dict[str, float] | str | None = None,
    ) -> None:
        self.env_url = env_url
        self.num_generations = num_generations
        self.log = log
        self.timeout_s = timeout_s
        self.max_parallel = max_parallel
        self.count_tokens = count_tokens
        self.weights = weights

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
        rewards = []
        for i, (observation, error) in enumerate(results):
            rewards.append(observation.reward if observation is not None else None)
            if self.log is not None:
                self.log.add(*self._rollout(step, i, replies[i], seeds[i], subjects[i], observation, error))
        if self.log is not None:
            self.log.flush()
        return rewards

    def _episode(self, reply: str, seed: int, subject: str | None) -> tuple[WatercolourObservation | None, str]:
        """Runs reset and step on one socket; returns (observation, "") or (None, error)."""
        try:
            with WatercolourEnv(base_url=self.env_url, message_timeout_s=self.timeout_s).sync() as env:
                options = {"weights": self.weights} if self.weights else {}
                env.reset(seed=int(seed), subject=subject, return_image=self.log is not None, **options)
                sketch = extract_sketch(reply)
                tokens = self.count_tokens(sketch) if self.count_tokens and sketch is not None else None
                return env.step(WatercolourAction(reply=reply, sketch_tokens=tokens)).observation, ""
        except Exception as err:  # noqa: BLE001 (any failure to finish an episode is the infrastructure's)
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
            detail=obs.detail,
        )
        return rollout, obs.image_png_b64
