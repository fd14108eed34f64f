"""The pairwise comparison: a vision-language model says which of two paintings is better.

Recipe (decision 0003, "The recipe"): each reference is compared in both presentation orders, so
position bias, which shows exactly when the judge has no real preference, becomes a visible tie;
the score is the share of resolved comparisons the candidate won (a split verdict counts 0.5).
The verdict is asked as JSON with the winner first and a capped reason, since a verdict written
after a long reason gets truncated. Any OpenAI-compatible chat endpoint that accepts images
works (Hugging Face Inference Providers, vLLM, TGI). A comparison that never resolves is left
out; a judge that resolves none is "unavailable" (value None), never 0. The reward term that
draws the references and weighs the share is `judge`.
"""

from __future__ import annotations

import base64
import enum
import json
import logging
import re
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

from watercolour_env.pool import Reference

log = logging.getLogger(__name__)


class _Late(Exception):
    """A comparison the episode's deadline cut short."""


def _left(deadline_at: float | None) -> float | None:
    """Seconds to a `time.monotonic()` deadline, >= 0; None for none."""
    return None if deadline_at is None else max(0.0, deadline_at - time.monotonic())


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
    LATE = "late"  # not finished before the episode's deadline: the judge then gives no verdict


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


STRUCTURED_REFUSALS = 3
"""Refusals of the response format in a row, each answered without it, before a judge stops asking."""


class PairwiseJudge:
    """Compares a painting with references through an OpenAI-compatible vision chat endpoint.

    Args:
        client: an `openai.OpenAI` client (its `max_retries` gives retries with backoff on
            timeouts, 429 and 5xx).
        model: the vision-language model, e.g. "Qwen/Qwen3-VL-30B-A3B-Instruct".
        criteria: what "better" means, e.g. `HIBISCUS_CRITERIA`.
        max_concurrency: comparisons in flight at once over every caller of this judge (one
            judge serves every session of a server), >= 1.
        malformed_retries: extra attempts when the reply holds no valid verdict.
        structured_output: ask for `VERDICT_SCHEMA` as the response format. A request the
            endpoint refuses with it (HTTP 400 or 422) is asked again without it. Only when
            `STRUCTURED_REFUSALS` requests in a row were refused with the format and answered
            without it, and none was ever answered with it, does the judge stop asking: a 400
            that is about one request (its image, its size) changes nothing for the others.

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
        self._in_flight = threading.BoundedSemaphore(max(1, max_concurrency))
        self._lock = threading.Lock()
        self._refusals = 0  # requests in a row refused with the format and answered without it
        self._structured_answered = False  # the endpoint has answered with the format at least once

    def score(self, png: bytes, references: list[Reference], deadline_at: float | None = None) -> JudgeScore:
        """Compares `png` with each reference in both orders; see the module docstring.

        With `deadline_at` (a `time.monotonic()` instant), no comparison starts or waits for the
        endpoint past it, and a comparison it cuts short (`LATE`) leaves the judge without a
        verdict: a share of the comparisons that happened to finish first is not the recipe's.
        """
        jobs = [(ref, first) for ref in references for first in (True, False)]
        with ThreadPoolExecutor(max_workers=max(1, min(self.max_concurrency, len(jobs)))) as pool:
            comparisons = list(pool.map(lambda job: self.compare(png, job[0], job[1], deadline_at), jobs))
        resolved = [c for c in comparisons if c.status is ComparisonStatus.OK]
        value = sum(bool(c.candidate_won) for c in resolved) / len(resolved) if resolved else None
        if any(c.status is ComparisonStatus.LATE for c in comparisons):
            value = None
        return JudgeScore(value, comparisons)

    def compare(
        self, png: bytes, reference: Reference, candidate_first: bool, deadline_at: float | None = None
    ) -> Comparison:
        """One comparison; never raises (failures come back as a status)."""
        images = [png, reference.png] if candidate_first else [reference.png, png]
        content = [
            *(
                {"type": "image_url", "image_url": {"url": "data:image/png;base64," + base64.b64encode(i).decode()}}
                for i in images
            ),
            {"type": "text", "text": PROMPT.format(criteria=self.criteria)},
        ]
        for _ in range(1 + self.malformed_retries):
            try:
                response = self._create(content, deadline_at)
            except _Late:
                return Comparison(reference.id, candidate_first, ComparisonStatus.LATE, reason="episode deadline")
            except Exception as err:  # noqa: BLE001 (after the client's own retries, any failure is "failed")
                log.warning("judge comparison failed: %s: %s", type(err).__name__, err)
                return Comparison(reference.id, candidate_first, ComparisonStatus.FAILED, reason=str(err)[:200])
            verdict = parse_verdict(response.choices[0].message.content or "")
            if verdict is not None:
                winner, reason = verdict
                won = (winner == "A") == candidate_first
                return Comparison(reference.id, candidate_first, ComparisonStatus.OK, won, reason)
        return Comparison(reference.id, candidate_first, ComparisonStatus.MALFORMED)

    def _create(self, content: list[dict], deadline_at: float | None = None):  # noqa: ANN202 (a ChatCompletion)
        import openai

        request = dict(
            model=self.model, messages=[{"role": "user", "content": content}], temperature=0.0, max_tokens=80
        )
        if not self._in_flight.acquire(timeout=_left(deadline_at)):
            raise _Late
        try:
            if not self.structured_output:
                return self._send(request, deadline_at)
            try:
                response = self._send(
                    {**request, "response_format": {"type": "json_schema", "json_schema": VERDICT_SCHEMA}}, deadline_at
                )
            except (openai.BadRequestError, openai.UnprocessableEntityError) as err:
                refusal = err
            else:
                with self._lock:
                    self._structured_answered, self._refusals = True, 0
                return response
            response = self._send(request, deadline_at)  # raises: the request was bad, not the format
            self._count_refusal(refusal)
            return response
        finally:
            self._in_flight.release()

    def _send(self, request: dict, deadline_at: float | None):  # noqa: ANN202 (a ChatCompletion)
        """One request; with a deadline, each try and the backoff between them end by it.

        Without one, the client's own timeout and retries apply. With one, tries run with the time
        left as their timeout and the client's `max_retries` as our own count (backoff 0.5, 1, 2
        s), since the client's retries know no deadline.

        Raises:
            _Late: the deadline passed before an answer.
        """
        import openai

        if deadline_at is None:
            return self.client.chat.completions.create(**request)
        transient = (openai.APIConnectionError, openai.RateLimitError, openai.InternalServerError)
        for attempt in range(1 + self.client.max_retries):
            left = _left(deadline_at)
            if left <= 0:
                raise _Late
            own = self.client.timeout if isinstance(self.client.timeout, (int, float)) else left
            try:
                bounded = self.client.with_options(timeout=min(left, own), max_retries=0)
                return bounded.chat.completions.create(**request)
            except openai.APITimeoutError:
                if left <= own:  # the deadline, not the request's own timeout, ran out
                    raise _Late from None
                if attempt == self.client.max_retries:
                    raise
            except transient:
                if attempt == self.client.max_retries or _left(deadline_at) <= 0.5 * 2**attempt:
                    raise
            time.sleep(0.5 * 2**attempt)
        raise _Late

    def _count_refusal(self, err: Exception) -> None:
        """Stops asking for the format after `STRUCTURED_REFUSALS` refusals in a row (see the class)."""
        with self._lock:
            if self._structured_answered or not self.structured_output:
                return
            self._refusals += 1
            if self._refusals >= STRUCTURED_REFUSALS:
                self.structured_output = False
                log.warning(
                    "the judge endpoint refused structured output %d times in a row (%s); using the strict parser",
                    self._refusals,
                    str(err)[:200],
                )
