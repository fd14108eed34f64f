"""The gold term: a second embedded scorer, fitted on ratings the reward never saw, reported and never paid.

Set `WATERCOLOUR_GOLD_POOL` to a pool (the other half of `watercolour pool split`) and every
observation carries a `gold` component beside the reward's: the same painting under a scorer
fitted on held-out ratings. Its weight stays 0 (a preset or an episode may weigh it, but then it
is no longer gold). The proxy rising while the gold falls is reward over-optimisation
(`watercolour_env.curate.split`, issue 34).
"""

from __future__ import annotations

from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field

from watercolour_env.pool import Pool
from watercolour_env.server.reward.embedded import EmbeddedScorer
from watercolour_env.server.reward.term import Painting, Term, Verdict
from watercolour_env.server.reward.vision.encoder import shared_encoder


class GoldOptions(BaseModel):
    """The gold term's setting."""

    model_config = ConfigDict(extra="forbid")

    pool: str | None = Field(None, description="The gold pool: a folder or a Hub dataset (WATERCOLOUR_GOLD_POOL).")
    encoder: Path | None = Field(
        None,
        alias="embedded_encoder",
        description="The image encoder's ONNX file, the embedded term's (WATERCOLOUR_EMBEDDED_ENCODER).",
    )


class GoldTerm(Term):
    """The embedded scorer fitted on the gold pool; scored in every observation, weight 0.

    Args:
        scorer: the scorer fitted on the gold pool.
        pool: the gold pool (the copy guard holds its paintings too: a copy of one would inflate the gold).
    """

    name = "gold"
    default_weight = 0.0
    needs = "WATERCOLOUR_GOLD_POOL"
    always_scored = True
    Options = GoldOptions

    def __init__(self, scorer: EmbeddedScorer, pool: Pool | None = None) -> None:
        self.scorer = scorer
        self.pool = pool

    @classmethod
    def build(cls, options: GoldOptions, pool: Pool, weight: float) -> GoldTerm | None:
        """Fits on the gold pool (1.04-1.08 s for 46 paintings, docs/LOG.md); None when the pool is unset.

        Raises:
            ConfigError: the gold pool cannot be loaded (the loader names what is wrong).
        """
        if options.pool is None:
            return None
        gold = Pool.load(options.pool)
        return cls(EmbeddedScorer.fit(gold, shared_encoder(options.encoder), folds=0), gold)

    def score(self, painting: Painting) -> Verdict:
        """The gold scorer's value in (0, 1) for the episode's subject; no detail."""
        return Verdict(self.scorer.score(painting.png, painting.subject))
