"""The environment servers of one run: which one takes the next rollout, and which are down.

A run may spread its rollouts over several replicas of one deployment (`--env-urls`, or
`--env-replicas N` for the Spaces `<name>-1 .. <name>-N`). Each rollout goes to the healthy
replica with the fewest episodes in flight. A replica that fails to answer is left out for
`retry_after_s`, then asked `/health` before it takes rollouts again. Replicas must score alike:
at start-up every one that answers must report the same pool (source and revision) and the same
reward weights, and one that comes back later with another is kept out.
"""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass, field
from typing import Any

import httpx

from watercolour_env.client import TOKEN_VARIABLE, auth_headers
from watercolour_env.errors import ConfigError

log = logging.getLogger(__name__)

RETRY_AFTER_S = 30.0
"""How long a replica that failed is left out before its `/health` is asked again, in seconds."""
HEALTH_TIMEOUT_S = 10.0
"""How long one `/health` may take, in seconds (it never renders: it answers in milliseconds)."""


def http_url(url: str) -> str:
    """The HTTP base of an environment URL (`ws://` becomes `http://`), without a trailing slash."""
    return url.replace("ws://", "http://", 1).replace("wss://", "https://", 1).rstrip("/")


def identity(health: dict[str, Any]) -> dict[str, Any]:
    """What must match across replicas, from a `/health` answer: pool source and revision, weights."""
    pool = health.get("pool") or {}
    scorers = health.get("scorers") or {}
    weights = {name: s.get("weight") for name, s in scorers.items() if isinstance(s, dict)}
    return {"pool source": pool.get("source"), "pool revision": pool.get("revision"), "reward weights": weights}


@dataclass
class Replica:
    """One environment server: its URL, its episodes in flight, and when it may be tried again."""

    url: str
    in_flight: int = 0
    down_until: float = 0.0  # time.monotonic(); 0: up
    failures: int = 0
    health: dict[str, Any] = field(default_factory=dict)


class Replicas:
    """Picks a replica for each rollout: healthy, then fewest episodes in flight, then list order.

    Args:
        urls: the replicas' base URLs (at least one).
        retry_after_s: how long a failed replica is left out before its `/health` is asked again.
        token: the servers' `WATERCOLOUR_API_TOKEN` (None reads the variable); `/health` needs none.

    Raises:
        ConfigError: no URL.
    """

    def __init__(self, urls: list[str], retry_after_s: float = RETRY_AFTER_S, token: str | None = None) -> None:
        if not urls:
            raise ConfigError("no environment URL: give --env-url or --env-urls")
        self.replicas = [Replica(http_url(u)) for u in urls]
        self.retry_after_s = retry_after_s
        self.token = token
        self.reference: dict[str, Any] | None = None  # the identity every replica must match

    @property
    def urls(self) -> list[str]:
        """The replicas' base URLs, in the order given."""
        return [r.url for r in self.replicas]

    def check(self) -> list[dict[str, Any]]:
        """Asks every replica's `/health` at start-up; returns the answers of those that answered.

        Raises:
            ConfigError: none answered, or two that answered differ in pool or weights (the
                message names each replica's value).
        """
        answers: dict[str, dict[str, Any]] = {}
        for replica in self.replicas:
            try:
                answers[replica.url] = replica.health = _get_health(replica.url, self.token)
            except (httpx.HTTPError, ValueError) as err:
                replica.down_until = time.monotonic() + self.retry_after_s
                log.warning("replica %s did not answer /health (%s); it is tried again later", replica.url, err)
        if not answers:
            raise ConfigError(f"no environment replica answered /health: {', '.join(self.urls)}")
        identities = {url: identity(h) for url, h in answers.items()}
        first_url, first = next(iter(identities.items()))
        for url, other in identities.items():
            differs = [key for key in first if other[key] != first[key]]
            if differs:
                lines = "; ".join(f"{key}: {first_url} has {first[key]!r}, {url} has {other[key]!r}" for key in differs)
                raise ConfigError(f"the environment replicas do not score alike ({lines}); deploy them from one config")
        self.reference = first
        return list(answers.values())

    async def acquire(self) -> Replica | None:
        """The replica for the next rollout (its count in flight raised), or None when all are down."""
        now = time.monotonic()
        for replica in self.replicas:
            if replica.down_until and replica.down_until <= now:
                await self._probe(replica)
        up = [r for r in self.replicas if not r.down_until]
        if not up:
            return None
        chosen = min(up, key=lambda r: r.in_flight)  # min keeps the first of equals: list order
        chosen.in_flight += 1
        return chosen

    def any_up(self) -> bool:
        """Whether some replica is taking rollouts now."""
        return any(not r.down_until for r in self.replicas)

    def release(self, replica: Replica, failed: bool) -> None:
        """Ends a rollout on `replica`; `failed` (no answer from it) leaves it out for a while.

        The last replica up is never left out: with nowhere else to go, the next rollout tries it
        again (a restarted server is back for the next batch).
        """
        replica.in_flight -= 1
        others_up = any(not r.down_until for r in self.replicas if r is not replica)
        if failed and not replica.down_until and others_up:
            replica.failures += 1
            replica.down_until = time.monotonic() + self.retry_after_s
            log.warning("replica %s failed; left out for %.0f s", replica.url, self.retry_after_s)

    async def _probe(self, replica: Replica) -> None:
        """Asks a replica that was down for `/health`: back in when it answers and scores alike."""
        replica.down_until = time.monotonic() + self.retry_after_s  # one probe at a time
        try:
            health = await asyncio.to_thread(_get_health, replica.url, self.token)
        except (httpx.HTTPError, ValueError) as err:
            log.info("replica %s still down (%s)", replica.url, err)
            return
        if self.reference is not None and identity(health) != self.reference:
            log.error("replica %s came back scoring differently (%s); it stays out", replica.url, identity(health))
            return
        replica.health, replica.down_until = health, 0.0
        log.info("replica %s is back", replica.url)


def _get_health(url: str, token: str | None) -> dict[str, Any]:
    """A replica's `/health` answer. Raises: httpx.HTTPError, ValueError (not JSON)."""
    import os

    token = os.environ.get(TOKEN_VARIABLE) if token is None else token
    response = httpx.get(f"{url}/health", timeout=HEALTH_TIMEOUT_S, headers=auth_headers(token))
    response.raise_for_status()
    return response.json()
