"""HPSv3 behind HTTP: a human-preference score for each painting, batched on the GPU.

Endpoints:
- `GET /health`: 200 `{"status": "loaded"}` once the model is ready; 503 with `"loading"` while
  the weights are still arriving (it answers from the first second) or `"error"` and the load
  error, which stays visible instead of a crash loop.
- `GET /info`: model, checkpoint revision, device, dtype, library versions, batching limits and
  counters (requests, images, batches, largest batch).
- `POST /score`: `{"images": [base64 PNG, ...], "prompt": "..."}` gives, per image in order,
  `mu` and `sigma` (HPSv3's preference mean and its uncertainty, unbounded; the model outputs
  (mu, log sigma), and sigma = exp of the second, as in hpsv3's "uncertainty" loss) and
  `score = 1 / (1 + exp(-mu / 4))` in (0, 1). The scale 4 is the seed project's logistic
  (decision 0003, "The recipe"); it maps mu in [-8, 8] to [0.12, 0.88].

Images from concurrent requests are gathered into one batch of at most `HPSV3_MAX_BATCH`,
waiting at most `HPSV3_MAX_WAIT_MS` for company; one batch is preprocessed on a CPU thread while
the one before it runs under `torch.inference_mode()` on the GPU thread; a batch that fails is
rescored image by image, so one bad image fails only its own request. Images never touch the
disk. Input that is not JSON, not a PNG, too large or malformed gets a 4xx that says why, and a
full queue a 503 with `Retry-After`. With `HPSV3_API_TOKEN` set, every path but `/health` (the
Space's health check) needs `Authorization: Bearer <token>`, checked before the body is read.

The model is the `hpsv3` package's own `HPSv3RewardInferencer`, weights from the Hub at
start-up (`MizzenAI/HPSv3` on top of `Qwen/Qwen2-VL-7B-Instruct`, ~33 GB, ~16.6 GB of GPU memory
in bf16; docs/decisions/0003). hpsv3 pins transformers 4.45.2, so this app has its own requirements
file and environment, never the project's main one.

Run: `uvicorn hpsv3_space.app:app --host 0.0.0.0 --port 7860` (the package installs from
`scorers/hpsv3_space`; `make test` does that in both venvs). The rooms: settings.py, model.py
(loading), batcher.py, images.py (PNG checks), this file (HTTP, auth, the app).
"""

from __future__ import annotations

import asyncio
import logging
import math
import secrets
import threading
import time
from collections.abc import Callable
from contextlib import asynccontextmanager
from typing import Any, Literal

from fastapi import FastAPI, HTTPException, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field, field_validator

from hpsv3_space.batcher import MicroBatcher
from hpsv3_space.images import decode_png
from hpsv3_space.model import Inferencer, Loaded, load_hpsv3, split_reward
from hpsv3_space.settings import DEFAULT_PROMPT, SCORE_SCALE, Settings, to_score

log = logging.getLogger("hpsv3_space")

__all__ = [
    "DEFAULT_PROMPT",
    "SCORE_SCALE",
    "Inferencer",
    "Loaded",
    "MicroBatcher",
    "Settings",
    "create_app",
    "load_hpsv3",
    "to_score",
]


class ScoreRequest(BaseModel):
    """A batch of base64 PNG images and the prompt they are scored against."""

    images: list[str] = Field(min_length=1)
    prompt: str | None = Field(None, max_length=2000)

    @field_validator("prompt")
    @classmethod
    def _no_special_tokens(cls, prompt: str | None) -> str | None:
        # "<|Reward|>" in a prompt would add a second reward token and shift every row of the
        # batch onto its neighbour's score; Qwen's special tokens all look like <|...|>
        if prompt is not None and "<|" in prompt:
            raise ValueError("the prompt may not contain '<|' (Qwen special tokens such as <|Reward|>)")
        return prompt


class ImageScore(BaseModel):
    """One image's verdict: mu and sigma (unbounded) and score in (0, 1)."""

    mu: float
    sigma: float
    score: float


class ScoreResponse(BaseModel):
    """Scores in the order of the request's images."""

    scores: list[ImageScore]
    prompt: str


class Scorer:
    """The app's state: load status, the loaded model and the batcher."""

    def __init__(self, settings: Settings, loader: Callable[[Settings], Loaded]) -> None:
        self.settings = settings
        self.loader = loader
        self.status: Literal["loading", "loaded", "error"] = "loading"
        self.error: str | None = None
        self.loaded: Loaded | None = None
        self.batcher: MicroBatcher | None = None
        self.started = time.monotonic()
        self.load_s: float | None = None

    def load_in_background(self, loop: asyncio.AbstractEventLoop) -> threading.Thread:
        """Loads the model on a thread; the batcher starts on `loop` once it is ready."""

        def target() -> None:
            try:
                loaded = self.loader(self.settings)
            except BaseException as err:  # noqa: BLE001 (shown on /health instead of a crash loop)
                log.exception("HPSv3 failed to load")
                self.error, self.status = f"{type(err).__name__}: {err}", "error"
                return
            s = self.settings
            batcher = MicroBatcher(*split_reward(loaded.inferencer), s.max_batch, s.max_wait_ms, s.batches_in_flight)
            loop.call_soon_threadsafe(batcher.start)
            self.loaded, self.batcher = loaded, batcher
            self.load_s = time.monotonic() - self.started
            self.status = "loaded"
            log.info("HPSv3 loaded in %.1f s: %s", self.load_s, loaded.info)

        thread = threading.Thread(target=target, name="hpsv3-load", daemon=True)
        thread.start()
        return thread


class Guard:
    """ASGI middleware: the bearer token before anything is read, and the body counted as it streams.

    Every path but `/health` needs `Authorization: Bearer <HPSV3_API_TOKEN>` when a token is
    set; a body over `HPSV3_MAX_REQUEST_BYTES` gets 413 whether or not it declared its length.
    """

    def __init__(self, app: Any, settings: Settings) -> None:
        self.app = app
        self.limit = settings.max_request_bytes
        self.token = settings.api_token.get_secret_value().encode() if settings.api_token else None

    async def __call__(self, scope: dict, receive: Callable, send: Callable) -> None:
        """Refuses (401, 413) or passes the request on with its body counted."""
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        headers = dict(scope.get("headers") or [])
        if self.token is not None and scope.get("path") != "/health":
            scheme, _, given = headers.get(b"authorization", b"").partition(b" ")
            if scheme.lower() != b"bearer" or not secrets.compare_digest(given.strip(), self.token):
                body = {"detail": "missing or wrong bearer token (HPSV3_API_TOKEN)"}
                return await JSONResponse(body, 401, {"WWW-Authenticate": "Bearer"})(scope, receive, send)
        if scope.get("method") == "POST" and not headers.get(b"content-type", b"").startswith(b"application/json"):
            return await JSONResponse({"detail": "send JSON (content-type: application/json)"}, 415)(
                scope, receive, send
            )
        declared = headers.get(b"content-length", b"")
        if declared.isdigit() and int(declared) > self.limit:
            return await JSONResponse({"detail": f"request body over {self.limit} bytes"}, 413)(scope, receive, send)
        seen = 0

        async def counted() -> dict:
            nonlocal seen
            message = await receive()
            seen += len(message.get("body", b""))
            if seen > self.limit:
                raise HTTPException(413, f"request body over {self.limit} bytes")
            return message

        return await self.app(scope, counted, send)


def create_app(settings: Settings | None = None, loader: Callable[[Settings], Loaded] = load_hpsv3) -> FastAPI:
    """The scorer app; loading starts with the server and `/health` answers meanwhile.

    Args:
        settings: read from `HPSV3_*` variables when None.
        loader: builds the model; `load_hpsv3` (the real one) unless a test passes its own.
    """
    settings = settings or Settings()
    if settings.api_token is None:
        log.warning("no HPSV3_API_TOKEN: anyone who can reach this scorer can use its GPU")
    scorer = Scorer(settings, loader)

    @asynccontextmanager
    async def lifespan(app: FastAPI):  # noqa: ANN202
        scorer.load_in_background(asyncio.get_running_loop())
        yield
        if scorer.batcher is not None:
            await scorer.batcher.stop()

    app = FastAPI(title="HPSv3 scorer", lifespan=lifespan)
    app.state.scorer = scorer
    app.add_middleware(Guard, settings=settings)

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, err: RequestValidationError) -> JSONResponse:
        # the default handler echoes the input back: megabytes of base64, and a 500 for a NaN
        errors = [{"loc": list(e.get("loc", ())), "msg": str(e.get("msg", ""))[:300]} for e in err.errors()[:10]]
        return JSONResponse({"detail": errors}, status_code=422)

    @app.get("/health")
    def health() -> JSONResponse:
        body = {"status": scorer.status, "error": scorer.error, "load_s": scorer.load_s}
        return JSONResponse(body, status_code=200 if scorer.status == "loaded" else 503)

    @app.get("/info")
    def info() -> dict[str, Any]:
        return {
            "status": scorer.status,
            **(scorer.loaded.info if scorer.loaded else {}),
            "score": f"1 / (1 + exp(-mu / {SCORE_SCALE:g}))",
            "default_prompt": settings.default_prompt,
            "max_batch": settings.max_batch,
            "max_wait_ms": settings.max_wait_ms,
            "counters": scorer.batcher.counters.as_dict() if scorer.batcher else None,
        }

    @app.post("/score")
    async def score(request: ScoreRequest) -> ScoreResponse:
        if scorer.status != "loaded" or scorer.batcher is None:
            detail = (
                "the model is still loading"
                if scorer.status == "loading"
                else f"the model failed to load: {scorer.error}"
            )
            raise HTTPException(503, detail, headers={"Retry-After": "10"} if scorer.status == "loading" else None)
        if len(request.images) > settings.max_images_per_request:
            raise HTTPException(
                413, f"{len(request.images)} images, over {settings.max_images_per_request} per request"
            )
        if scorer.batcher.waiting() + len(request.images) > settings.max_queued_images:
            raise HTTPException(503, "the scorer is busy; try again shortly", headers={"Retry-After": "1"})
        # decoded on worker threads (PIL releases the GIL), not on the event loop
        images = await asyncio.gather(
            *(run_in_threadpool(decode_png, data, i, settings) for i, data in enumerate(request.images))
        )
        prompt = request.prompt or settings.default_prompt
        results = await scorer.batcher.score(images, prompt)
        return ScoreResponse(
            scores=[ImageScore(mu=mu, sigma=math.exp(log_sigma), score=to_score(mu)) for mu, log_sigma in results],
            prompt=prompt,
        )

    return app


def __getattr__(name: str) -> FastAPI:
    # `uvicorn hpsv3_space.app:app` builds the app on first access, so importing this module
    # (tests, benchmarks) reads no settings and loads no model.
    if name == "app":
        return create_app()
    raise AttributeError(name)
