"""The pairwise judge as a reward term: references drawn per episode, the share of comparisons won.

The comparisons themselves (the prompt, the verdict's schema, the endpoint's client) are
`pairwise`'s. Every completion of a GRPO group shares its seed, and so faces the same references.
"""

from __future__ import annotations

import random
from collections import Counter

from pydantic import BaseModel, ConfigDict, Field, SecretStr

from watercolour_env.pool import Pool, Reference, Tier
from watercolour_env.pool.subjects import SubjectCoverage
from watercolour_env.server.reward.pairwise import HIBISCUS_CRITERIA, PairwiseJudge
from watercolour_env.server.reward.term import Painting, Term, Verdict

DEFAULT_REFERENCE_MIX = {Tier.LOVE: 0.5, Tier.OKAY: 0.5}
"""Half `love`, half `okay`: the seed project's mix (decision 0003, "The recipe")."""


def draw_references(
    pool: Pool, n: int, seed: int, mix: dict[Tier, float] | None = None, subject: str | None = None
) -> list[Reference]:
    """`n` references drawn from the pool by tier mix, reproducibly from the episode seed.

    Every completion of a GRPO group shares the seed and so faces the same references (else the
    reward difference measures the draw, not the painting).

    Args:
        pool: the reference pool.
        n: references to draw (>= 1).
        seed: the episode seed.
        mix: share of each tier, default half `love`, half `okay` (the seed project's choice).
        subject: the episode's subject: references come from the pool's paintings of it (the
            pool's subject it matches, `SubjectCoverage.match`); from every painting when None or
            when the pool has none of it (a subject it covers only by `subjects.txt`).
    """
    mix = mix or DEFAULT_REFERENCE_MIX
    rng = random.Random(seed)
    tiers = list(mix)
    counts = {t: int(n * mix[t]) for t in tiers}
    for t in tiers[: n - sum(counts.values())]:
        counts[t] += 1
    part = subject and SubjectCoverage(r.subject for r in pool.references).match(subject)
    drawn = []
    for tier in tiers:
        members = [r for r in pool.tier(tier) if not part or r.subject == part]
        drawn += rng.sample(members, min(counts[tier], len(members)))
    return drawn


class JudgeOptions(BaseModel):
    """`WATERCOLOUR_JUDGE_*` (see `PairwiseJudge`), and the references each painting is compared with.

    `references_per_episode` and `reference_mix` keep their names without the prefix
    (`WATERCOLOUR_REFERENCES_PER_EPISODE`, `WATERCOLOUR_REFERENCE_MIX`).
    """

    model_config = ConfigDict(extra="forbid")

    base_url: str = "https://router.huggingface.co/v1"
    model: str = "Qwen/Qwen3-VL-30B-A3B-Instruct"
    token: SecretStr | None = None
    timeout_s: float = Field(60.0, gt=0)
    max_concurrency: int = Field(8, ge=1)
    criteria: str = Field(HIBISCUS_CRITERIA, description='what "better" means: "Which is the better <criteria>?"')
    structured_output: bool = Field(True, description="ask for a JSON schema; the strict parser if refused")
    references_per_episode: int = Field(4, ge=1, le=32, alias="references_per_episode")
    reference_mix: dict[Tier, float] = Field(default_factory=lambda: dict(DEFAULT_REFERENCE_MIX), alias="reference_mix")


def judge_from(options: JudgeOptions) -> PairwiseJudge:
    """The pairwise judge the settings describe (the token is never logged)."""
    from openai import OpenAI

    token = options.token.get_secret_value() if options.token else "none"
    client = OpenAI(base_url=options.base_url, api_key=token, max_retries=3, timeout=options.timeout_s)
    return PairwiseJudge(
        client,
        options.model,
        criteria=options.criteria,
        max_concurrency=options.max_concurrency,
        structured_output=options.structured_output,
    )


class JudgeTerm(Term):
    """The pairwise judge as a reward term: the share of comparisons won against drawn references.

    Built only when the deployment weighs it (each verdict costs 2 x `references` calls).

    Args:
        judge: the judge.
        pool: the pool the references are drawn from.
        references: references per painting (each compared in both orders), >= 1.
        mix: share of each tier among them; `DEFAULT_REFERENCE_MIX` when None.
    """

    name = "judge"
    needs = "WATERCOLOUR_WEIGHT_JUDGE above zero and WATERCOLOUR_JUDGE_* settings"
    remote = True
    Options = JudgeOptions

    def __init__(
        self, judge: PairwiseJudge, pool: Pool, references: int = 4, mix: dict[Tier, float] | None = None
    ) -> None:
        self.judge = judge
        self.pool = pool
        self.references = references
        self.mix = mix

    @classmethod
    def check(cls, options: JudgeOptions, weight: float, source: str) -> str | None:
        """Refuses a mix that is not a distribution, and a weight the endpoint cannot serve."""
        shares = options.reference_mix.values()
        if not shares or not all(0 <= v <= 1 for v in shares) or abs(sum(shares) - 1.0) > 1e-6:  # NaN too
            return f"WATERCOLOUR_REFERENCE_MIX shares must be in [0, 1] and sum to 1, got {options.reference_mix}"
        if weight > 0 and not options.model:
            return f"{source} weighs the judge at {weight:g}: set WATERCOLOUR_JUDGE_MODEL"
        if weight > 0 and "huggingface.co" in options.base_url and options.token is None:
            return (
                f"{source} weighs the judge at {weight:g}, and Hugging Face Inference Providers need "
                "WATERCOLOUR_JUDGE_TOKEN"
            )
        return None

    @classmethod
    def build(cls, options: JudgeOptions, pool: Pool, weight: float) -> JudgeTerm | None:
        """The judge, when weighted; None at weight 0."""
        if weight == 0:
            return None
        return cls(judge_from(options), pool, options.references_per_episode, options.reference_mix)

    def score(self, painting: Painting) -> Verdict:
        """The share won against references drawn with the episode seed; the statuses as detail."""
        references = draw_references(
            self.pool, painting.references or self.references, painting.seed, self.mix, painting.subject
        )
        verdict = self.judge.score(painting.png, references, painting.deadline_at)
        statuses = Counter(c.status.value for c in verdict.comparisons)
        return Verdict(verdict.value, ", ".join(f"{n} {s}" for s, n in sorted(statuses.items())))
