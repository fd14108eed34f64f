"""The environment server: settings read once, one shared renderer, OpenEnv's websocket app."""

from __future__ import annotations

import atexit
import functools
import json
import logging
from dataclasses import dataclass

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from openenv.core.env_server.http_server import create_app
from openenv.core.env_server.types import ConcurrencyConfig

from watercolour_env.errors import ConfigError, WatercolourError
from watercolour_env.models import WatercolourAction, WatercolourObservation, WatercolourState
from watercolour_env.pool import Pool
from watercolour_env.pool.subjects import SubjectCoverage
from watercolour_env.prompt import system_prompt
from watercolour_env.server import derived, health, pool_route
from watercolour_env.server.auth import OPEN_PATHS, TokenMiddleware
from watercolour_env.server.copies import CopyGuard
from watercolour_env.server.frames import FrameGuard
from watercolour_env.server.reward import build_terms
from watercolour_env.server.reward.rubric import Rubric
from watercolour_env.server.reward.vision.encoder import ImageEncoder
from watercolour_env.server.sandbox import Renderer, browsers
from watercolour_env.server.settings import ServerSettings, load_settings
from watercolour_env.server.watercolour_environment import SessionCount, WatercolourEnvironment, uncovered_subject

log = logging.getLogger(__name__)


def build_app(settings: ServerSettings | None = None, renderer: Renderer | browsers.Browsers | None = None) -> FastAPI:
    """Builds the FastAPI app and starts the shared renderer (fails fast if Chromium is missing).

    Args:
        settings: validated settings; read from `WATERCOLOUR_*` variables when None.
        renderer: a started renderer to use instead of one built from the settings (a
            benchmark's stand-in where Chromium cannot run: `bench/grpo_gpu.py`); the caller
            closes it.

    Raises:
        ConfigError: invalid settings, a reference pool that fails validation, or a scorer that
            refuses what the settings point it at.
    """
    settings = settings or load_settings()
    one_blas_thread()
    scoring = build_scoring(settings)
    pool, rubric, subject = scoring.pool, scoring.rubric, scoring.subject
    if renderer is None:
        renderer = browsers.from_settings(settings)
        renderer.start()
        atexit.register(renderer.close)
    sessions = SessionCount()
    factory = functools.partial(
        WatercolourEnvironment,
        sessions=sessions,
        renderer=renderer,
        rubric=rubric,
        strict=settings.strict_allowlist,
        default_subject=subject,
        system_prompt=system_prompt(pool.declaration.hint),
        paint_floor=settings.paint_floor,
        max_reply_bytes=settings.max_reply_bytes,
        max_revisions=settings.max_revisions,
        episode_deadline_s=settings.episode_deadline_s,
        copy_guard=scoring.guard,
        coverage=scoring.coverage,
        oracle_id=pool.oracle.id if pool.oracle is not None else None,
        subject_hint=pool.declaration.subject_hint,
    )
    if not settings.copy_guard:
        log.warning("WATERCOLOUR_COPY_GUARD=false: a reply that copies a painting of the pool earns its score")
    app = create_app(
        factory,
        WatercolourAction,
        WatercolourObservation,
        env_name="watercolour_env",
        concurrency_config=ConcurrencyConfig(
            max_concurrent_envs=settings.max_concurrent_envs, session_timeout=settings.session_timeout_s
        ),
        state_cls=WatercolourState,
    )
    app.add_middleware(FrameGuard, max_reply_bytes=settings.max_reply_bytes)
    if settings.api_token is not None:  # added last, so it runs first: strangers reach nothing
        app.add_middleware(TokenMiddleware, token=settings.api_token.get_secret_value())
        log.info("a token is required on the websocket and on every route but %s", ", ".join(sorted(OPEN_PATHS)))
    else:
        log.warning("no WATERCOLOUR_API_TOKEN: anyone who can reach this server can use it")
    limits = {
        name: getattr(settings, name)
        for name in ("episode_deadline_s", "render_deadline_s", "session_timeout_s", "max_reply_bytes")
    }
    health.install(app, renderer, rubric, pool, sessions, settings.max_concurrent_envs, limits)
    pool_route.install(app, rubric, pool, settings.copy_guard, subject)
    install_error_answers(app)
    app.state.renderer = renderer
    app.state.pool = pool
    app.state.rubric = rubric
    return app


@dataclass(frozen=True)
class Scoring:
    """What a server scores with, built from its settings before it serves (`build_scoring`).

    Attributes:
        pool: the validated reference pool.
        subject: what an episode asks for when reset names nothing.
        coverage: the subjects the pool's paintings cover.
        rubric: the reward's terms, fitted.
        guard: the copy guard, or None with `WATERCOLOUR_COPY_GUARD=false`.
    """

    pool: Pool
    subject: str
    coverage: SubjectCoverage
    rubric: Rubric
    guard: CopyGuard | None


def build_scoring(settings: ServerSettings) -> Scoring:
    """Loads the pool, fits the reward's terms and readies the copy guard; no browser.

    What they compute from the pool's paintings is kept in `WATERCOLOUR_CACHE_DIR`
    (`server/derived.py`): the second start on the same pool and code skips it.

    Raises:
        ConfigError: as `build_app`.
    """
    derived.configure(settings.cache_dir)
    pool = Pool.load(settings.pool)  # validated now: a broken pool refuses to start
    log.info("reference pool %s: %s", pool.source, pool.counts())
    weights = settings.weights()
    coverage = pool.coverage()
    subject = settings.default_subject or pool.subject
    if weights["embedded"] > 0 and not coverage.covers(subject):
        if settings.default_subject:
            raise ConfigError(f"WATERCOLOUR_DEFAULT_SUBJECT={subject!r}: " + uncovered_subject(subject, coverage))
        raise ConfigError(
            f"the pool {pool.source} declares the subject {subject!r} (pool.toml), but its paintings are of "
            f"{coverage.describe()}: correct the subject in its pool.toml, or set WATERCOLOUR_DEFAULT_SUBJECT to one "
            "of those"
        )
    log.info("the pool covers %s; an episode asks for %r unless reset names one", coverage.describe(), subject)
    rubric = Rubric(weights, build_terms(settings.term_options(), dict(weights), pool), settings.fail_reward)
    atexit.register(rubric.close)
    log.info("reward weights%s: %s", f" (preset {settings.preset})" if settings.preset else "", weights)
    guard = CopyGuard(guarded_pool(pool, rubric), encoder=guard_encoder(rubric)) if settings.copy_guard else None
    return Scoring(pool, subject, coverage, rubric, guard)


def one_blas_thread() -> None:
    """Limits numpy's BLAS to one thread a call, for the whole process (threadpoolctl).

    The server scores many episodes at once, on threads, beside Chromium's renders. OpenBLAS
    starts a thread a core for each product, and they spin against each other and the renders:
    the copy guard's product of a painting's 72 orientations with the pool's 166 maps took 13 ms
    on one thread and 190-290 ms with two on a busy 2-core machine; a step's scoring 0.11-0.39 s
    against 0.09-4.1 s (docs/LOG.md, twenty-first session).
    """
    from threadpoolctl import threadpool_limits

    threadpool_limits(limits=1, user_api="blas")


def install_error_answers(app: FastAPI) -> None:
    """HTTP answers for bad requests: 400 with the environment's message, a short 422.

    OpenEnv's HTTP routes let an environment's own refusal ("call reset before step": HTTP
    `/step` is stateless, a fresh environment per request) become a 500 with a traceback, and
    FastAPI's 422 echoes the whole input back (a 100 MB field came back as 100 MB) and fails with
    a 500 on a lone surrogate.
    """

    @app.exception_handler(WatercolourError)
    async def refused(request: Request, err: WatercolourError) -> JSONResponse:
        detail = str(err)
        if request.url.path == "/step":
            detail += " (HTTP /step runs on a fresh environment each time: run an episode over the websocket /ws)"
        return JSONResponse({"detail": detail}, status_code=400)

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, err: RequestValidationError) -> JSONResponse:
        errors = [
            {"loc": [str(part)[:80] for part in e.get("loc", ())], "msg": str(e.get("msg", ""))[:300]}
            for e in err.errors()[:10]
        ]
        text = json.dumps({"detail": errors}, ensure_ascii=True)  # a lone surrogate becomes an escape
        return JSONResponse(json.loads(text.encode("utf-8", "replace").decode()), status_code=422)


def guard_encoder(rubric: Rubric) -> ImageEncoder | None:
    """The image encoder the embedded (or gold) term runs, for the copy guard's check at any seed; None without."""
    for name in ("embedded", "gold"):
        scorer = getattr(rubric.terms.get(name), "scorer", None)
        if scorer is not None:
            return scorer.encoder
    return None


def guarded_pool(pool: Pool, rubric: Rubric) -> Pool:
    """The paintings the copy guard holds: the pool's, its oracle (issue 54), and the gold pool's when one is set."""
    gold = getattr(rubric.terms.get("gold"), "pool", None)
    held = pool.references + ([pool.oracle] if pool.oracle is not None else []) + (gold.references if gold else [])
    return Pool(held, pool.source, pool.declared_subjects)


def warm() -> str:
    """Builds what the server scores with (`build_scoring`), keeping it in the cache, and says where.

    The image build runs it (`watercolour serve --warm-only`), so a container serves in seconds.

    Raises:
        ConfigError: as `build_app`.
    """
    import time

    started = time.perf_counter()
    settings = load_settings()
    scoring = build_scoring(settings)
    scoring.rubric.close()
    root, tally = derived.cache_root(), derived.TALLY
    said = f"{tally['read']} rows read from the cache, {tally['computed']} computed"
    if root is None:
        said += ", none kept (WATERCOLOUR_CACHE_DIR=off)"
    elif tally["unwritable"]:
        said += f", none kept: {tally['unwritable']}; set WATERCOLOUR_CACHE_DIR to a folder you can write"
    elif tally["computed"]:
        said += f" and kept in {root / derived.code_digest()}"
    took = time.perf_counter() - started
    return f"{len(scoring.pool.references)} paintings of {scoring.pool.source} ready in {took:.1f} s: {said}"


def main(host: str | None = None, port: int | None = None) -> None:
    """Serves the environment with uvicorn until interrupted.

    Raises:
        ConfigError: a setting is wrong, or the address is taken (checked before Chromium starts).
    """
    import uvicorn

    settings = load_settings()
    host, port = host or settings.host, port or settings.port
    refuse_a_taken_address(host, port)
    app = build_app(settings)
    uvicorn.run(app, host=host, port=port, log_level="info")


def refuse_a_taken_address(host: str, port: int, port_flag: str = "--port or WATERCOLOUR_PORT") -> None:
    """Raises ConfigError when `host:port` cannot be listened on (another server has it, or no such address).

    `port_flag` is what the refusal tells the user to change.
    """
    import socket

    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn: a closed server's port is free
        try:
            probe.bind((host, port))
        except socket.gaierror as err:
            raise ConfigError(
                f"cannot listen on {host}:{port} ({err.strerror or err}); give another --host or WATERCOLOUR_HOST"
            ) from err
        except OSError as err:
            raise ConfigError(
                f"cannot listen on {host}:{port} ({err.strerror or err}); "
                f"give another {port_flag}, or stop what holds it"
            ) from err


if __name__ == "__main__":
    main()
