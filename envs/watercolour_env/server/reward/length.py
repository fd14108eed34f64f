"""The length term: the seed's ramp on the sketch's length in the policy's tokens."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from watercolour_env.server.reward.term import Painting, Term, Verdict

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


class LengthOptions(BaseModel):
    """The ramp's bounds in tokens: `WATERCOLOUR_LENGTH_START_TOKENS`, `_FULL_TOKENS`, `_RUNAWAY_TOKENS`."""

    model_config = ConfigDict(extra="forbid")

    start_tokens: int = Field(LENGTH_RAMP_START_TOKENS, ge=0)
    full_tokens: int = Field(LENGTH_RAMP_FULL_TOKENS, ge=1)
    runaway_tokens: int = Field(LENGTH_RUNAWAY_TOKENS, ge=1)


class LengthTerm(Term):
    """`length_score` of the sketch's tokens; needs nothing, so it is in every observation.

    Args:
        start, full, runaway: the ramp's bounds in tokens, start < full <= runaway.
    """

    name = "length"
    default_weight = 0.05
    always_scored = True
    Options = LengthOptions

    def __init__(
        self,
        start: int = LENGTH_RAMP_START_TOKENS,
        full: int = LENGTH_RAMP_FULL_TOKENS,
        runaway: int = LENGTH_RUNAWAY_TOKENS,
    ) -> None:
        self.ramp = (start, full, runaway)

    @classmethod
    def check(cls, options: LengthOptions, weight: float, source: str) -> str | None:
        """Refuses a ramp that does not rise."""
        if not options.start_tokens < options.full_tokens <= options.runaway_tokens:
            return (
                "WATERCOLOUR_LENGTH_START_TOKENS < WATERCOLOUR_LENGTH_FULL_TOKENS <= "
                "WATERCOLOUR_LENGTH_RUNAWAY_TOKENS must hold"
            )
        return None

    @classmethod
    def build(cls, options: LengthOptions, pool: object, weight: float) -> LengthTerm:
        """The ramp the settings give."""
        return cls(options.start_tokens, options.full_tokens, options.runaway_tokens)

    def score(self, painting: Painting) -> Verdict:
        """The ramp's value, with the token count as detail."""
        return Verdict(length_score(painting.tokens, *self.ramp), f"{painting.tokens} tokens")
