"""The client of the HPSv3 scorer Space (`scorers/hpsv3_space`): one painting in, one verdict out.

The Space answers `POST /score` with mu, sigma and `score = 1 / (1 + exp(-mu / 4))` per image
(see its docstring for the scale's source). Each environment episode sends its one painting; the
Space gathers concurrent episodes into GPU batches, so the client stays simple. A Space that is
still loading (503), overloaded (429, 5xx) or unreachable is retried with backoff; when it never
answers the verdict is None ("unavailable"), never 0.
"""

from __future__ import annotations

import base64
import logging
import time
from dataclasses import dataclass

import httpx
from pydantic import BaseModel, ConfigDict, Field, SecretStr

from watercolour_env.errors import ConfigError
from watercolour_env.server.reward.term import Painting, Term, Verdict

log = logging.getLogger(__name__)

DEFAULT_PROMPT = "a loose watercolour flower"
"""The public reproduction's HPSv3 prompt; the prompt moves mu's range a lot (decision 0003, "The recipe")."""
RETRYABLE = {408, 425, 429, 500, 502, 503, 504}


@dataclass(frozen=True)
class HPSv3Score:
    """One verdict: `value` (the bounded score, in (0, 1)) and mu/sigma, or None and why."""

    value: float | None
    mu: float | None = None
    sigma: float | None = None
    detail: str = ""

    @property
    def available(self) -> bool:
        """False when the Space gave no verdict."""
        return self.value is not None


class HPSv3Client:
    """Scores paintings with an HPSv3 Space over HTTP.

    Args:
        base_url: the Space, e.g. "https://you-hpsv3.hf.space" or "http://127.0.0.1:7860".
        token: the Space's `HPSV3_API_TOKEN`, sent as a bearer token; None for an open Space.
        prompt: the text HPSv3 scores each image against.
        timeout_s: per request, > 0.
        retries: extra attempts on connection errors, timeouts, 429 and 5xx (backoff 0.5 s,
            1 s, 2 s, ... capped at 8 s).

    Example:
        >>> client = HPSv3Client("http://127.0.0.1:7860")  # doctest: +SKIP
        >>> client.score(png).value  # doctest: +SKIP
        0.62
    """

    def __init__(
        self,
        base_url: str,
        token: str | None = None,
        prompt: str = DEFAULT_PROMPT,
        timeout_s: float = 60.0,
        retries: int = 3,
    ) -> None:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        self.base_url = base_url.rstrip("/")
        self.prompt = prompt
        self.retries = retries
        self.timeout_s = timeout_s
        self._http = httpx.Client(base_url=self.base_url, headers=headers, timeout=timeout_s)

    def score(self, png: bytes, deadline_at: float | None = None) -> HPSv3Score:
        """The verdict on one PNG; never raises (a failure comes back with value None).

        With `deadline_at` (a `time.monotonic()` instant) every try, and the backoff before it,
        ends by then: a try gets the time left as its timeout, and none starts without time left.
        """
        body = {"images": [base64.b64encode(png).decode()], "prompt": self.prompt}
        detail = ""
        for attempt in range(1 + self.retries):
            backoff_s = min(8.0, 0.5 * 2 ** (attempt - 1)) if attempt else 0.0
            left_s = self.timeout_s if deadline_at is None else deadline_at - time.monotonic() - backoff_s
            if left_s <= 0:
                detail = f"no answer before the episode's deadline ({detail or 'no time left to ask'})"
                break
            time.sleep(backoff_s)
            try:
                response = self._http.post("/score", json=body, timeout=min(self.timeout_s, left_s))
            except httpx.HTTPError as err:
                detail = f"{type(err).__name__} at {self.base_url}/score: {err}"
                if left_s < self.timeout_s and isinstance(err, httpx.TimeoutException):
                    detail = f"no answer before the episode's deadline ({detail})"
                    break
                continue
            if response.status_code == 200:
                try:
                    verdict = response.json()["scores"][0]
                    return HPSv3Score(float(verdict["score"]), float(verdict["mu"]), float(verdict["sigma"]))
                except (ValueError, KeyError, IndexError, TypeError) as err:
                    detail = f"malformed answer from {self.base_url}/score: {type(err).__name__}: {err}"
                    break
            detail = f"HTTP {response.status_code} from {self.base_url}/score: {response.text[:200]}"
            if response.status_code == 401:
                detail += " (set WATERCOLOUR_HPSV3_TOKEN to the Space's HPSV3_API_TOKEN)"
            if response.status_code not in RETRYABLE:
                break  # a 4xx will not change on a retry
        log.warning("HPSv3 gave no verdict: %s", detail)
        return HPSv3Score(None, detail=detail)

    def check(self) -> str | None:
        """None when the Space answers as an HPSv3 scorer that takes our token, else what is wrong.

        A problem starting with "refused: " is a misconfiguration (not an HPSv3 scorer, or the
        token refused); others (unreachable, still loading) may mend by themselves.
        """
        try:
            health, info = self._http.get("/health"), self._http.get("/info")
        except httpx.HTTPError as err:
            return f"not answering yet ({type(err).__name__}: {err})"
        if info.status_code == 401:
            return (
                f"refused: the HPSv3 scorer at {self.base_url} refuses the token; "
                "set WATERCOLOUR_HPSV3_TOKEN to its HPSV3_API_TOKEN"
            )
        if "score" not in _json(info) or "status" not in _json(health):
            return (
                f"refused: WATERCOLOUR_HPSV3_URL={self.base_url} is not an HPSv3 scorer "
                f"(GET /info: HTTP {info.status_code})"
            )
        status = _json(health)["status"]
        return None if status == "loaded" else f"status {status!r}: {_json(health).get('error') or 'still loading'}"

    def close(self) -> None:
        """Closes the connection pool."""
        self._http.close()


def _json(response: httpx.Response) -> dict:
    try:
        body = response.json()
    except ValueError:
        return {}
    return body if isinstance(body, dict) else {}


class HPSv3Options(BaseModel):
    """`WATERCOLOUR_HPSV3_URL`, `_TOKEN`, `_PROMPT`, `_TIMEOUT_S`, `_RETRIES`: see `HPSv3Client`."""

    model_config = ConfigDict(extra="forbid")

    url: str | None = None
    token: SecretStr | None = None
    prompt: str = DEFAULT_PROMPT
    timeout_s: float = Field(60.0, gt=0)
    retries: int = Field(3, ge=0, le=10)


class HPSv3Term(Term):
    """The HPSv3 Space as a reward term: built when `WATERCOLOUR_HPSV3_URL` is set.

    Args:
        client: the Space's client.
    """

    name = "hpsv3"
    needs = "WATERCOLOUR_HPSV3_URL"
    remote = True
    Options = HPSv3Options

    def __init__(self, client: HPSv3Client) -> None:
        self.client = client

    @classmethod
    def check(cls, options: HPSv3Options, weight: float, source: str) -> str | None:
        """Refuses a weight without a URL, and a URL without its scheme."""
        if weight > 0 and not options.url:
            return f"{source} weighs HPSv3 at {weight:g}: set WATERCOLOUR_HPSV3_URL to the scorer Space"
        if options.url and not options.url.startswith(("http://", "https://")):
            return f"WATERCOLOUR_HPSV3_URL={options.url!r} needs http:// or https://"
        return None

    @classmethod
    def build(cls, options: HPSv3Options, pool: object, weight: float) -> HPSv3Term | None:
        """The client, after asking the Space who it is; logs its health, never the token.

        A Space that is still loading or unreachable is not an error at start-up (the Spaces of a
        deployment start in any order): episodes scored before it answers come back unavailable.

        Raises:
            ConfigError: the URL answers but is not an HPSv3 scorer, or refuses the token.
        """
        if not options.url:
            return None
        token = options.token.get_secret_value() if options.token else None
        client = HPSv3Client(options.url, token, options.prompt, options.timeout_s, options.retries)
        problem = client.check()
        if problem is not None and problem.startswith("refused"):
            client.close()
            raise ConfigError(problem.removeprefix("refused: "))
        if problem is not None:
            log.warning("HPSv3 scorer %s: %s", client.base_url, problem)
        else:
            log.info("HPSv3 scorer %s answers", client.base_url)
        return cls(client)

    def score(self, painting: Painting) -> Verdict:
        """The Space's bounded score, with mu and sigma as detail."""
        verdict = self.client.score(painting.png, painting.deadline_at)
        if verdict.value is None:
            return Verdict(None, verdict.detail)
        return Verdict(verdict.value, f"mu {verdict.mu:.3f}, sigma {verdict.sigma:.3f}")

    def close(self) -> None:
        """Closes the client's connections."""
        self.client.close()
