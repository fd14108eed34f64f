"""What a reward term is: one class that says what it needs, how it is built and how it scores.

A term scores a painting that passed the gate with a value in [0, 1], or gives no verdict (None)
and says why. Everything else about it follows from its class, through the registry in
`watercolour_env.server.reward`:

- its weight is the setting `WATERCOLOUR_WEIGHT_<NAME>` (default `default_weight`) and a key of
  the per-episode weights and of the presets (a preset that does not name it gives it 0);
- each field of its `Options` is the setting `WATERCOLOUR_<NAME>_<FIELD>` (a field with an
  `alias` is `WATERCOLOUR_<ALIAS>`), with the field's default, bounds and description;
- `check` refuses settings that cannot work, at start-up, naming the variable to set;
- `build` makes it for a deployment, or returns None when the deployment has not set it up; a
  weight above zero for a term that is not built refuses to start, and the observation reports
  an unbuilt term at weight 0 as `not_configured`, with `needs` in the refusal.

Example (a whole term; registering it is one more line, `register(Sharpness)`):

    class Sharpness(Term):
        name = "sharpness"
        needs = "nothing"

        def score(self, painting: Painting) -> Verdict:
            return Verdict(edge_sharpness(painting.png))
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from pydantic import BaseModel, ConfigDict

from watercolour_env.pool import Pool


@dataclass(frozen=True)
class Painting:
    """What a term sees of one gated reply.

    Attributes:
        png: the rendered painting, a 600x600 RGBA PNG (checked by the sandbox).
        tokens: the sketch's length in the policy's tokens (approximated from its characters
            when the trainer did not send it), >= 0.
        seed: the episode seed in [0, 2**32); the same for every completion of a GRPO group.
        deadline_at: the episode's deadline, a `time.monotonic()` instant (None: none). A remote
            term ends its calls by then; the rubric stops waiting for it then.
        references: how many references the judge draws for this episode, >= 1 (None: the
            deployment's `WATERCOLOUR_REFERENCES_PER_EPISODE`).
        subject: what the episode asked for, e.g. "a peach hibiscus" (None: the pool's default).
    """

    png: bytes
    tokens: int
    seed: int
    deadline_at: float | None = None
    references: int | None = None
    subject: str | None = None


@dataclass(frozen=True)
class Verdict:
    """A term's value in [0, 1], or None (no verdict: the reward becomes None), and a detail line.

    `detail` is why there was no verdict, or the raw numbers behind the value (HPSv3's mu and
    sigma); it reaches the observation, at most 300 characters.
    """

    value: float | None
    detail: str = ""


class NoOptions(BaseModel):
    """The settings of a term that has none."""

    model_config = ConfigDict(extra="forbid")


class Term:
    """A reward term; subclass it, set the class attributes, implement `score`.

    Class attributes:
        name: the component's name in observations, weights and settings (lowercase, `[a-z0-9]`).
        default_weight: the weight of `WATERCOLOUR_WEIGHT_<NAME>` when unset, in [0, 1]. The
            registered terms' defaults and `weight_gate` sum to 1.
        needs: what a deployment must set up for the term, for the refusal when it is weighted
            but not built (e.g. "WATERCOLOUR_HPSV3_URL").
        remote: True when `score` waits on the network; remote terms of one step run
            concurrently, local ones on the step's thread meanwhile.
        always_scored: True for a cheap term reported in every observation, even at weight 0.
        Options: a pydantic model of the term's settings (see the module docstring).
    """

    name: ClassVar[str]
    default_weight: ClassVar[float] = 0.0
    needs: ClassVar[str] = "nothing"
    remote: ClassVar[bool] = False
    always_scored: ClassVar[bool] = False
    Options: ClassVar[type[BaseModel]] = NoOptions

    @classmethod
    def check(cls, options: BaseModel, weight: float, source: str) -> str | None:
        """What is wrong with these settings, naming the variables to set; None when nothing.

        Args:
            options: the term's validated `Options`.
            weight: the deployment's weight for the term, in [0, 1].
            source: the variable that set the weight (`WATERCOLOUR_WEIGHT_<NAME>` or
                `WATERCOLOUR_PRESET=<name>`), for the message.
        """
        return None

    @classmethod
    def build(cls, options: BaseModel, pool: Pool, weight: float) -> Term | None:
        """The term for a deployment, or None when it is not set up there.

        Args:
            options: the term's validated `Options`.
            pool: the deployment's reference pool, loaded and validated.
            weight: the deployment's weight for the term (an episode may still ask for a term
                built at weight 0).

        Raises:
            ConfigError: a setting is refused by what it points at (a token, a URL).
        """
        return cls()

    def score(self, painting: Painting) -> Verdict:
        """The verdict on one painting; an exception counts as no verdict (its type and message)."""
        raise NotImplementedError

    def close(self) -> None:
        """Releases what `build` opened (connections); called once at shutdown."""
