"""An episode with revisions as TRL's `environment_factory` drives it: the policy paints by a tool.

TRL 1.16's multi-turn path (`GRPOTrainer(environment_factory=...)`, its docs' "OpenEnv
integration") makes every public method of the environment class but `reset` and `get_reward`
a tool the policy may call. Here there is one, `paint(sketch)`: each call is one step of a
watercolour episode of 1 + K paintings (`reset(revisions=K)`), and it answers with the
critique of the picture, which never names the pool or the score. `get_reward` gives the
episode's reward once its last painting is in: None while it is open or when the
infrastructure failed (TRL leaves None out, as `EnvironmentReward` does).

The trainer's side of issue 37 builds on this: the `--revisions K` flag, a warm start in the
tool-call form, and the gallery's turns are still to come (docs/LOG.md, 2026-12-05).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from watercolour_env import WatercolourAction, WatercolourEnv
from watercolour_env.client import DEFAULT_EPISODE_TIMEOUT_S


@dataclass
class Turn:
    """One painting of an episode: its sketch, the critique it got, and its status."""

    sketch: str
    critique: str
    status: str
    reward: float | None = None


@dataclass
class PaintingEpisode:
    """One rollout's episode on a watercolour server, with a `paint` tool for TRL.

    TRL makes instances with no argument: pass `PaintingEpisode.factory(url, revisions)` as
    `environment_factory`. An instance keeps one websocket session and is reset for each rollout.

    Attributes:
        base_url: the server.
        revisions: paintings after the first, in [0, the server's WATERCOLOUR_MAX_REVISIONS].
        token: the server's token; None reads WATERCOLOUR_API_TOKEN.
        timeout_s: seconds to wait for one step's answer.
        turns: this rollout's paintings so far.
    """

    base_url: str
    revisions: int
    token: str | None = None
    timeout_s: float = DEFAULT_EPISODE_TIMEOUT_S
    turns: list[Turn] = field(default_factory=list)
    _client: Any = None
    _done: bool = False

    @classmethod
    def factory(cls, base_url: str, revisions: int, **kwargs: Any) -> Callable[[], PaintingEpisode]:  # noqa: ANN401
        """A callable with no argument that makes an episode bound to `base_url`, as TRL asks."""
        return functools.partial(cls, base_url, revisions, **kwargs)

    def reset(self, seed: int | None = None, subject: str | None = None, **columns: Any) -> str | None:  # noqa: ANN401
        """Starts this rollout's episode (TRL passes the dataset row's columns: its seed and subject).

        Returns:
            None: the prompt is the dataset's, so nothing is added to it.
        """
        if self._client is None:
            self._client = WatercolourEnv(
                base_url=self.base_url, token=self.token, message_timeout_s=self.timeout_s
            ).sync()
            self._client.connect()
        self._client.reset(seed=seed, subject=subject, revisions=self.revisions)
        self.turns, self._done = [], False
        return None

    def paint(self, sketch: str) -> str:
        """Paint a watercolour: render the sketch, then read what the picture looks like.

        Args:
            sketch: the whole p5.js sketch, setup() and draw(), painting only with the ten allowed
                brush methods.

        Returns:
            A critique of the painting: what the gate refused, where the paint sits, how much of
            the paper it covers and its palette; after the last painting, that the episode is over.

        Raises:
            ValueError: the episode's last painting is in (TRL hands the message to the policy).
        """
        if self._done:
            raise ValueError("The painting is finished: every revision is used. Stop calling paint.")
        result = self._client.step(WatercolourAction(reply=sketch))
        observation = result.observation
        self._done = result.done
        self.turns.append(Turn(sketch, observation.critique, observation.status.value, result.reward))
        if result.done:
            return f"{observation.critique} That was the last painting of this episode."
        left = 1 + self.revisions - len(self.turns)
        return f"{observation.critique} You may revise it {left} more time{'s' if left > 1 else ''}."

    def get_reward(self) -> float | None:
        """The episode's reward: its last turn's, once the episode is over; None before, or unscored."""
        if not self._done or not self.turns:
            return None
        return self.turns[-1].reward

    def _close(self) -> None:
        """Closes the websocket session (private: TRL would make a public method a tool)."""
        if self._client is not None:
            self._client.close()
            self._client = None
