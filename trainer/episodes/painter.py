"""An episode with revisions as TRL's `environment_factory` drives it: the policy paints by a tool.

TRL 1.16's multi-turn path (`GRPOTrainer(environment_factory=...)`, its docs' "OpenEnv
integration") makes every public method of the environment class but `reset` and `get_reward`
a tool the policy may call. Here there is one, `paint(sketch)`: each call is one step of a
watercolour episode of 1 + K paintings (`reset(revisions=K)`), and it answers with the
critique of the picture, which never names the pool or the score.

The class has no `get_reward`, on purpose: TRL would add it as a reward of its own, and an
episode the policy leaves open (it stopped calling `paint`, or never called it) must first be
finished with the completion's last words, which `get_reward` is not given.
`watercolour_trainer.episodes.revisions.RevisionReward` finishes it (`_finish`) and reads `reward`.
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from typing import Any

from watercolour_env import WatercolourAction, WatercolourEnv, WatercolourObservation
from watercolour_env.client import DEFAULT_EPISODE_TIMEOUT_S
from watercolour_env.sketch import code_text, extract_sketch


@dataclass
class Turn:
    """One painting of an episode: the reply sent, and the server's observation of it."""

    reply: str
    observation: WatercolourObservation
    repeated: bool = False  # painted again by `_finish`, not written by the policy

    @property
    def record(self) -> dict[str, Any]:
        """What the rollouts log keeps of a turn: sketch, status, critique, violations, paint fraction."""
        o = self.observation
        return {
            "turn": o.turn,
            "sketch": o.sketch,
            "status": o.status.value,
            "critique": o.critique,
            "violations": [v.value for v in o.violations],
            "paint_fraction": o.paint_fraction,
            "repeated": self.repeated,
        }


@dataclass
class PaintingEpisode:
    """One rollout's episode on a watercolour server, with a `paint` tool for TRL.

    TRL makes instances with no argument: pass `PaintingEpisode.factory(url, revisions)` as
    `environment_factory`. An instance keeps one websocket session and is reset for each rollout
    (a session the server closed is opened again at the next reset).

    Attributes:
        base_url: the server.
        revisions: paintings after the first, in [0, the server's WATERCOLOUR_MAX_REVISIONS].
        token: the server's token; None reads WATERCOLOUR_API_TOKEN.
        timeout_s: seconds to wait for one step's answer.
        options: more reset options sent every time (`weights`, `references`, `revision_reward`).
        spent: a context manager factory that times each call to the server (the run's environment
            time; `tool_turns.BusyClock.timing`, which counts overlapping calls once).
        others: more replicas' URLs, tried in turn when `base_url` fails to start an episode; the
            first that starts one is kept.
        count_tokens: the policy tokenizer's count, sent as each sketch's code length (the length
            term's `sketch_tokens`, as `EnvironmentReward` sends it); the server approximates without.
        images: answer `paint` with the picture too, for a vision-language policy: TRL's multimodal
            tool answer, `[{"type": "image", "image": <PIL 600x600>}, {"type": "text", ...}]`.
        turns: this rollout's paintings so far.
    """

    base_url: str
    revisions: int
    token: str | None = None
    timeout_s: float = DEFAULT_EPISODE_TIMEOUT_S
    options: dict[str, Any] = field(default_factory=dict)
    spent: Callable[[], AbstractContextManager[Any]] | None = None
    others: tuple[str, ...] = ()
    count_tokens: Callable[[str], int] | None = None
    images: bool = False
    turns: list[Turn] = field(default_factory=list)
    _client: Any = None
    _done: bool = False
    _broken: str = ""  # why the episode could not start ("" when it did)

    @classmethod
    def factory(cls, base_url: str, revisions: int, **kwargs: Any) -> Callable[[], PaintingEpisode]:  # noqa: ANN401
        """A callable with no argument that makes an episode bound to `base_url`, as TRL asks."""
        return functools.partial(cls, base_url, revisions, **kwargs)

    def reset(self, seed: int | None = None, subject: str | None = None, **columns: Any) -> str | None:  # noqa: ANN401
        """Starts this rollout's episode (TRL passes the dataset row's columns: its seed and subject).

        Returns:
            None: the prompt is the dataset's, so nothing is added to it.

        A server that fails to start the episode (twice: a session the server closed is opened
        again) leaves the rollout unscored, not the run stopped: `paint` then says so to the
        policy and `_finish` raises. The run's options were checked once before training began.
        """
        options = {"seed": seed, "subject": subject, "revisions": self.revisions, **self.options}
        if self.images:
            options["return_image"] = True
        self.turns, self._done, self._broken = [], False, ""
        urls = [self.base_url, self.base_url, *(u for u in self.others if u != self.base_url)]
        for url in urls:
            if url != self.base_url:
                self._close()
                self.others = (*(u for u in self.others if u != url), self.base_url)
                self.base_url = url  # another replica: kept for the next rollouts if it answers
            try:
                self._timed(lambda: self._connected().reset(**options))
                self._broken = ""
                return None
            except Exception as err:  # noqa: BLE001 (any failure to start is the infrastructure's)
                self._close()
                self._broken = f"{type(err).__name__}: {err}"
        return None

    def paint(self, sketch: str) -> str | list[dict[str, Any]]:
        """Paint a watercolour: render the sketch, then read what the picture looks like.

        Args:
            sketch: the whole p5.js sketch, setup() and draw(), painting only with the ten allowed
                brush methods.

        Returns:
            A critique of the painting: what the gate refused, where the paint sits, how much of
            the paper it covers and its palette; after the last painting, that the episode is over.
            With `images`, the picture comes first (a painting the gate refused before it
            rendered has none).

        Raises:
            ValueError: the episode's last painting is in (TRL hands the message to the policy).
        """
        if self._broken:
            raise ValueError("The environment is unavailable for this episode. Stop calling paint.")
        if self._done and self.turns[-1].observation.reward is None:
            raise ValueError("The episode ended: the environment failed to paint. Stop calling paint.")
        if self._done:
            raise ValueError("The painting is finished: every revision is used. Stop calling paint.")
        observation = self._step(sketch, final=False)
        if self._done:
            said = f"{observation.critique} That was the last painting of this episode."
        else:
            left = 1 + self.revisions - len(self.turns)
            said = f"{observation.critique} You may revise it {left} more time{'s' if left > 1 else ''}."
        if not self.images or not observation.image_png_b64:
            return said
        import base64
        import io

        from PIL import Image

        picture = Image.open(io.BytesIO(base64.b64decode(observation.image_png_b64))).convert("RGB")
        return [{"type": "image", "image": picture}, {"type": "text", "text": said}]

    @property
    def reward(self) -> float | None:
        """The episode's reward once it is over: [0, 1], or None while open or when unscored."""
        if not self._done or not self.turns:
            return None
        return self.turns[-1].observation.reward

    @property
    def done(self) -> bool:
        """Whether the episode's last painting is in."""
        return self._done

    def _finish(self, last_words: str) -> WatercolourObservation:
        """Ends an episode the policy left open; returns the judged observation.

        The completion's last message is painted as the final painting when it holds a sketch or
        a tool call TRL could not read (one cut short by the length limit: judged as it stands,
        so running out of tokens costs what a broken painting costs); otherwise the last painted
        sketch is painted again (it was the painter's last word; its turn is marked `repeated`),
        or, with none, the message itself, which the gate then refuses as a reply without a sketch.
        """
        if self._broken:
            raise ConnectionError(f"the episode cannot go on: {self._broken}")
        if self._done:
            return self.turns[-1].observation
        reply, repeated = last_words, False
        attempted = "<tool_call>" in last_words  # a call cut short or unreadable: judged as it stands
        if extract_sketch(last_words) is None and self.turns and not attempted:
            reply, repeated = self.turns[-1].reply, True
        return self._step(reply, final=True, repeated=repeated)

    def _step(self, reply: str, final: bool, repeated: bool = False) -> WatercolourObservation:
        sketch = extract_sketch(reply) if self.count_tokens is not None else None
        tokens = self.count_tokens(code_text(sketch)) if self.count_tokens is not None and sketch is not None else None
        action = WatercolourAction(reply=reply, final=final, sketch_tokens=tokens)
        try:
            result = self._timed(lambda: self._connected().step(action))
        except (ConnectionError, TimeoutError, OSError) as err:
            self._close()  # the session is gone or out of step: this episode cannot go on
            self._broken = f"{type(err).__name__}: {err}"
            raise
        self._done = result.done
        self.turns.append(Turn(reply, result.observation, repeated))
        return result.observation

    def _connected(self) -> Any:  # noqa: ANN401
        if self._client is None:
            client = WatercolourEnv(base_url=self.base_url, token=self.token, message_timeout_s=self.timeout_s)
            self._client = client.sync()
            self._client.connect()
        return self._client

    def _timed(self, call: Callable[[], Any]) -> Any:  # noqa: ANN401
        with self.spent() if self.spent is not None else contextlib.nullcontext():
            return call()

    def _close(self) -> None:
        """Closes the websocket session (private: TRL would make a public method a tool)."""
        if self._client is not None:
            try:
                self._client.close()
            finally:
                self._client = None
