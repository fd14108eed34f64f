"""The environment server: settings read once, one shared renderer, OpenEnv's websocket app."""

from __future__ import annotations

import atexit
import functools
import logging

from fastapi import FastAPI
from openenv.core.env_server.http_server import create_app

from watercolour_env.errors import ConfigError
from watercolour_env.models import WatercolourAction, WatercolourObservation, WatercolourState
from watercolour_env.pool import Pool
from watercolour_env.server.reward.embedded import EmbeddedScorer
from watercolour_env.server.reward.hpsv3 import HPSv3Client
from watercolour_env.server.reward.judge import PairwiseJudge
from watercolour_env.server.reward.rubric import Rubric
from watercolour_env.server.sandbox import Renderer
from watercolour_env.server.settings import Settings, load_settings
from watercolour_env.server.watercolour_environment import WatercolourEnvironment

log = logging.getLogger(__name__)


def build_app(settings: Settings | None = None) -> FastAPI:
    """Builds the FastAPI app and starts the shared renderer (fails fast if Chromium is missing).

    Args:
        settings: validated settings; read from `WATERCOLOUR_*` variables when None.

    Raises:
        ConfigError: invalid settings or a reference pool that fails validation.
    """
    settings = settings or load_settings()
    pool = Pool.load(settings.pool)  # validated now: a broken pool refuses to start
    log.info("reference pool %s: %s", pool.source, pool.counts())
    scorer = EmbeddedScorer.fit(pool)  # 0.6 s; fitted even at weight 0 so an episode may ask for it
    judge = build_judge(settings) if settings.weight_judge > 0 else None
    hpsv3 = build_hpsv3(settings) if settings.hpsv3_url else None
    log.info("reward weights%s: %s", f" (preset {settings.preset})" if settings.preset else "", settings.weights())
    renderer = Renderer(
        workers=settings.render_workers,
        deadline_s=settings.render_deadline_s,
        max_queue=settings.render_max_queue,
        chromium_path=settings.chromium_path,
        network_namespace=settings.render_network_namespace,
    )
    renderer.start()
    atexit.register(renderer.close)
    if hpsv3 is not None:
        atexit.register(hpsv3.close)
    factory = functools.partial(
        WatercolourEnvironment,
        renderer=renderer,
        rubric=Rubric(
            settings.weights(),
            fail_reward=settings.fail_reward,
            length_ramp=settings.length_ramp(),
            scorer=scorer,
            judge=judge,
            pool=pool,
            references_per_episode=settings.references_per_episode,
            reference_mix=settings.reference_mix,
            hpsv3=hpsv3,
        ),
        strict=settings.strict_allowlist,
        default_subject=settings.default_subject,
        paint_floor=settings.paint_floor,
    )
    app = create_app(
        factory,
        WatercolourAction,
        WatercolourObservation,
        env_name="watercolour_env",
        max_concurrent_envs=settings.max_concurrent_envs,
        state_cls=WatercolourState,
    )
    app.state.renderer = renderer
    app.state.pool = pool
    return app


def build_judge(settings: Settings) -> PairwiseJudge:
    """The pairwise judge the settings describe (the token is never logged)."""
    from openai import OpenAI

    token = settings.judge_token.get_secret_value() if settings.judge_token else "none"
    client = OpenAI(base_url=settings.judge_base_url, api_key=token, max_retries=3, timeout=settings.judge_timeout_s)
    return PairwiseJudge(
        client,
        settings.judge_model,
        criteria=settings.judge_criteria,
        max_concurrency=settings.judge_max_concurrency,
        structured_output=settings.judge_structured_output,
    )


def build_hpsv3(settings: Settings) -> HPSv3Client:
    """The HPSv3 Space client the settings describe; logs the Space's health, never the token.

    A Space that is still loading or unreachable is not an error at start-up (the Spaces of a
    deployment start in any order): episodes scored before it answers come back unavailable.

    Raises:
        ConfigError: the URL answers but is not an HPSv3 scorer, or refuses the token.
    """
    token = settings.hpsv3_token.get_secret_value() if settings.hpsv3_token else None
    client = HPSv3Client(settings.hpsv3_url or "", token, settings.hpsv3_prompt, settings.hpsv3_timeout_s,
                         settings.hpsv3_retries)  # fmt: skip
    problem = client.check()
    if problem is not None and problem.startswith("refused"):
        raise ConfigError(problem.removeprefix("refused: "))
    if problem is not None:
        log.warning("HPSv3 scorer %s: %s", client.base_url, problem)
    else:
        log.info("HPSv3 scorer %s answers", client.base_url)
    return client


def main(host: str | None = None, port: int | None = None) -> None:
    """Serves the environment with uvicorn until interrupted."""
    import uvicorn

    settings = load_settings()
    app = build_app(settings)
    uvicorn.run(app, host=host or settings.host, port=port or settings.port, log_level="info")


if __name__ == "__main__":
    main()
