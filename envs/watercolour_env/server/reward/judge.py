"""The pairwise judge: a vision-language model compares a painting with references from the pool.

Recipe (decision 0003, "The recipe"): each reference is compared in both presentation orders, so
position bias, which shows exactly when the judge has no real preference, becomes a visible tie;
the score is the share of resolved comparisons the candidate won (a split verdict counts 0.5).
The verdict is asked as JSON with the winner first and a capped reason, since a verdict written
after a long reason gets truncated. Any OpenAI-compatible chat endpoint that accepts images
works (Hugging Face Inference Providers, vLLM, TGI). A comparison that never resolves is left
out; a judge that resolves none is "unavailable" (value None), never 0.
"""

from __future__ import annotations

import base64
import enum
import json
import logging
import random
import re
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

from watercolour_env.pool import Pool, Reference, Tier

log = logging.getLogger(__name__)

HIBISCUS_CRITERIA = (
    "a loose watercolour of a hibiscus: translucent washes laid in layers, soft bleeding edges, "
    "a convincing flower with a dark throat, harmonious colour and a composition with room to breathe"
)
"""The default criteria text; a domain other than hibiscus brings its own."""

PROMPT = (
    "Two paintings, A (first image) and B (second image). Which is the better {criteria}? "
    'Answer with JSON only, the winner first: {{"winner": "A" or "B", "reason": "at most 20 words"}}'
)
_JSON_OBJECT = re.compile(r"\{.*?\}", re.DOTALL)
VERDICT_SCHEMA = {
    "name": "verdict",
    "strict": True,
    "schema": {
        "type": "object",
        "properties": {
            "winner": {"type": "string", "enum": ["A", "B"]},
            "reason": {"type": "string", "maxLength": 200},
        },
        "required": ["winner", "reason"],
        "additionalProperties": False,
    },
}
"""The verdict as an OpenAI `json_schema` response format, winner first (vLLM, TGI and several
Inference Providers constrain decoding to it); replies are parsed strictly either way."""


class ComparisonStatus(str, enum.Enum):
    """How one comparison ended."""

    OK = "ok"
    MALFORMED = "malformed"
    FAILED = "failed"


@dataclass(frozen=True)
class Comparison:
    """One presentation of (candidate, reference): did the candidate win?"""

    reference_id: str
    candidate_first: bool
    status: ComparisonStatus
    candidate_won: bool | None = None
    reason: str = ""


@dataclass
class JudgeScore:
    """The share of resolved comparisons won, in [0, 1], or None when nothing resolved."""

    value: float | None
    comparisons: list[Comparison] = field(default_factory=list)

    @property
    def available(self) -> bool:
        """False when no comparison resolved: the judge gave no verdict at all."""
        return self.value is not None


DEFAULT_REFERENCE_MIX = {Tier.LOVE: 0.5, Tier.OKAY: 0.5}
"""Half `love`, half `okay`: the seed project's mix (decision 0003, "The recipe")."""


def draw_references(pool: Pool, n: int, seed: int, mix: dict[Tier, float] | None = None) -> list[Reference]:
    """`n` references drawn from the pool by tier mix, reproducibly from the episode seed.

    Every completion of a GRPO group shares the seed and so faces the same references (else the
    reward difference measures the draw, not the painting).

    Args:
        pool: the reference pool.
        n: references to draw (>= 1).
        seed: the episode seed.
        mix: share of each tier, default half `love`, half `okay` (the seed project's choice).
    """
    mix = mix or DEFAULT_REFERENCE_MIX
    rng = random.Random(seed)
    tiers = list(mix)
    counts = {t: int(n * mix[t]) for t in tiers}
    for t in tiers[: n - sum(counts.values())]:
        counts[t] += 1
    drawn = []
    for tier in tiers:
        members = pool.tier(tier)
        drawn += rng.sample(members, min(counts[tier], len(members)))
    return drawn


def parse_verdict(text: str) -> tuple[str, str] | None:
    """("A" or "B", reason) from a reply, or None when no valid JSON verdict is in it."""
    for candidate in [text.strip(), *_JSON_OBJECT.findall(text)]:
        try:
            verdict = json.loads(candidate)
        except (json.JSONDecodeError, TypeError):
            continue
        if isinstance(verdict, dict) and str(verdict.get("winner", "")).strip().upper() in ("A", "B"):
            return str(verdict["winner"]).strip().upper(), str(verdict.get("reason", ""))[:200]
    return None


class PairwiseJudge:
    """Compares a painting with references through an OpenAI-compatible vision chat endpoint.

    Args:
        client: an `openai.OpenAI` client (its `max_retries` gives retries with backoff on
            timeouts, 429 and 5xx).
        model: the vision-language model, e.g. "Qwen/Qwen3-VL-30B-A3B-Instruct".
        criteria: what "better" means, e.g. `HIBISCUS_CRITERIA`.
        max_concurrency: comparisons in flight at once.
        malformed_retries: extra attempts when the reply holds no valid verdict.
        structured_output: ask for `VERDICT_SCHEMA` as the response format; an endpoint that
            refuses it (HTTP 400 or 422) is asked again without, and never again after.

    Example:
        >>> client = OpenAI(base_url=url, api_key=token)  # doctest: +SKIP
        >>> judge = PairwiseJudge(client, "Qwen/Qwen3-VL-30B-A3B-Instruct")  # doctest: +SKIP
        >>> judge.score(png, draw_references(pool, 4, seed=7)).value  # doctest: +SKIP
        0.625
    """

    def __init__(
        self,
        client,  # noqa: ANN001 (openai.OpenAI, imported by the caller)
        model: str,
        criteria: str = HIBISCUS_CRITERIA,
        max_concurrency: int = 8,
        malformed_retries: int = 1,
        structured_output: bool = True,
    ) -> None:
        self.client = client
        self.model = model
        self.criteria = criteria
        self.max_concurrency = max_concurrency
        self.malformed_retries = malformed_retries
        self.structured_output = structured_output

    def score(self, png: bytes, references: list[Reference]) -> JudgeScore:
        """Compares `png` with each reference in both orders; see the module docstring."""
        jobs = [(ref, first) for ref in references for first in (True, False)]
        with ThreadPoolExecutor(max_workers=max(1, min(self.max_concurrency, len(jobs)))) as pool:
            comparisons = list(pool.map(lambda job: self.compare(png, job[0], job[1]), jobs))
        resolved = [c for c in comparisons if c.status is ComparisonStatus.OK]
        value = sum(bool(c.candidate_won) for c in resolved) / len(resolved) if resolved else None
        return JudgeScore(value, comparisons)

    def compare(self, png: bytes, reference: Reference, candidate_first: bool) -> Comparison:
        """One comparison; never raises (failures come back as a status)."""
        images = [png, reference.png] if candidate_first else [reference.png, png]
        content = [
            *({"type": "image_url", "image_url": {"url": "data:image/png;base64," + base64.b64encode(i).decode()}}
              for i in images),
            {"type": "text", "text": PROMPT.format(criteria=self.criteria)},
        ]  # fmt: skip
        for _ in range(1 + self.malformed_retries):
            try:
                response = self._create(content)
            except Exception as err:  # noqa: BLE001 (after the client's own retries, any failure is "failed")
                log.warning("judge comparison failed: %s: %s", type(err).__name__, err)
                return Comparison(reference.id, candidate_first, ComparisonStatus.FAILED, reason=str(err)[:200])
            verdict = parse_verdict(response.choices[0].message.content or "")
            if verdict is not None:
                winner, reason = verdict
                won = (winner == "A") == candidate_first
                return Comparison(reference.id, candidate_first, ComparisonStatus.OK, won, reason)
        return Comparison(reference.id, candidate_first, ComparisonStatus.MALFORMED)

    def _create(self, content: list[dict]):  # noqa: ANN202 (openai's ChatCompletion)
        import openai

        request = dict(
            model=self.model, messages=[{"role": "user", "content": content}], temperature=0.0, max_tokens=80
        )
        if self.structured_output:
            try:
                return self.client.chat.completions.create(
                    **request, response_format={"type": "json_schema", "json_schema": VERDICT_SCHEMA}
                )
            except (openai.BadRequestError, openai.UnprocessableEntityError) as err:
                log.warning("the judge endpoint refused structured output (%s); using the strict parser", err)
                self.structured_output = False
        return self.client.chat.completions.create(**request)
