"""`GET /health`: what a person or a Space's health check needs to see, and nothing that costs.

It stays open when a token is set (server/auth.py) and answers from counters the server keeps
anyway: it never renders, never calls a scorer, never waits on a lock held by a render.
"""

from __future__ import annotations

import hashlib
import json
from importlib import metadata
from pathlib import Path
from typing import Any

from fastapi import FastAPI

from watercolour_env.pool import Pool
from watercolour_env.server.reward.rubric import Rubric
from watercolour_env.server.sandbox import Renderer
from watercolour_env.server.watercolour_environment import SessionCount

LOCK_FILE = Path(__file__).parent / "sandbox" / "js" / "package-lock.json"


def pool_revision(pool: Pool) -> str:
    """The hub revision a pool was pinned to, or a digest of its contents (ids, tiers, sketches)."""
    if "@" in pool.source:
        return pool.source.rpartition("@")[2]
    rows = [(r.id, r.tier.value, r.sketch) for r in pool.references]
    return "sha256:" + hashlib.sha256(json.dumps(rows).encode()).hexdigest()[:16]


def versions() -> dict[str, str]:
    """This package, OpenEnv, and the pinned p5 and p5.brush."""
    found = {}
    for name in ("watercolour", "openenv", "fastapi", "playwright"):
        try:
            found[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            found[name] = "not installed"
    packages = json.loads(LOCK_FILE.read_text()).get("packages", {})
    for name in ("p5", "p5.brush"):
        found[name] = packages.get(f"node_modules/{name}", {}).get("version", "unknown")
    return found


def install(
    app: FastAPI,
    renderer: Renderer,
    rubric: Rubric,
    pool: Pool,
    sessions: SessionCount,
    capacity: int,
    limits: dict[str, float] | None = None,
) -> None:
    """Replaces OpenEnv's `/health` ({"status": "healthy"}) with the full report, same status field.

    The report: `status` ("healthy", or "degraded" when the renderer is not running), `render`
    (workers, busy, queued, max_queue, the GPU string, Chromium's version, network isolation),
    `sessions` (live, capacity), `scorers` (per configured term: weight, whether its last call
    gave a verdict, calls, failures, the last failure), `pool` (source, revision, counts),
    `limits` (the episode deadline and the others a client sizes its timeouts by) and `versions`.
    """
    app.router.routes = [r for r in app.router.routes if getattr(r, "path", None) != "/health"]
    fixed = {
        "versions": versions(),
        "pool": {"source": pool.source, "revision": pool_revision(pool), "counts": pool.counts()},
        "limits": dict(limits or {}),
    }

    @app.get("/health", tags=["Health"], summary="Health, load, scorers, pool and versions")
    def health() -> dict[str, Any]:
        render = renderer.stats()
        status = "healthy" if render["started"] and not render["closed"] else "degraded"
        return {
            "status": status,
            "render": render,
            "sessions": {"live": sessions.live, "capacity": capacity},
            "scorers": rubric.health(),
            **fixed,
        }
