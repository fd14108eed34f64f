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

Run: `uvicorn hpsv3_space.app:app --host 0.0.0.0 --port 7860` from `scorers/`.
"""

from __future__ import annotations

import asyncio
import base64
import binascii
import io
import logging
import math
import secrets
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any, Literal, Protocol

from fastapi import FastAPI, HTTPException, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field, SecretStr, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

log = logging.getLogger("hpsv3_space")

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
SCORE_SCALE = 4.0
"""mu is divided by this before the logistic: the seed project's mapping (decision 0003, "The recipe")."""
DEFAULT_PROMPT = "a loose watercolour flower"
"""The prompt the public reproduction gave HPSv3; the prompt moves mu's range a lot (decision 0003, "The recipe")."""


class Settings(BaseSettings):
    """The scorer's settings; each is `HPSV3_<FIELD>` in the environment."""

    model_config = SettingsConfigDict(env_prefix="HPSV3_", extra="ignore")

    api_token: SecretStr | None = None
    config_path: str | None = None  # None: the packaged HPSv3_7B.yaml (base Qwen/Qwen2-VL-7B-Instruct)
    checkpoint_path: str | None = None  # None: downloaded from checkpoint_repo at checkpoint_revision
    checkpoint_repo: str = "MizzenAI/HPSv3"
    checkpoint_revision: str = "main"
    device: str = "auto"  # auto: cuda when available, else cpu
    max_batch: int = Field(16, ge=1, le=256)
    max_wait_ms: float = Field(10.0, ge=0, le=1000)
    batches_in_flight: int = Field(2, ge=1, le=8)  # 2: the next batch is prepared during a forward pass
    max_images_per_request: int = Field(64, ge=1)
    max_image_bytes: int = Field(8 * 2**20, ge=1)
    max_image_side: int = Field(2048, ge=28)
    max_request_bytes: int = Field(64 * 2**20, ge=1024)  # counted as the body streams in
    max_queued_images: int = Field(256, ge=1)  # more waiting than this: 503 with Retry-After
    default_prompt: str = DEFAULT_PROMPT
    block_diagonal_vision: bool = True  # see _block_diagonal_forward; False runs transformers' own


class Inferencer(Protocol):
    """What the app needs of a model: the two halves of hpsv3's `reward(images, prompts)`."""

    model: Any  # called as model(return_dict=True, **inputs)["logits"] -> tensor [B, 2]

    def prepare_batch(self, image_paths: list[Any], prompts: list[str]) -> Any:  # noqa: D102
        ...


@dataclass
class Loaded:
    """A loaded inferencer and what `/info` says about it."""

    inferencer: Inferencer
    info: dict[str, Any]


def _block_diagonal_forward(self, hidden_states, cu_seqlens, rotary_pos_emb=None):  # noqa: ANN001, ANN202
    """Qwen2-VL's SDPA vision attention, one image at a time instead of one masked square.

    transformers 4.45.2 runs the vision tower's SDPA attention over all images of a batch as one
    sequence with a block-diagonal [N, N] mask (N = 1,024 patches per 448x448 image times the
    batch), so time and memory grow with the square of the batch: measured on an H200 with the
    7B shapes, batch 32 took 10.8 s and 130 GiB against 0.105 s and 15.7 GiB at batch 1
    (docs/LOG.md). This computes the same blocks: images of one size as one batched SDPA call
    without a mask, others one by one. Flash-attention's varlen kernel does the same when the
    `flash-attn` package is installed, and then this is not used.
    """
    import torch
    import torch.nn.functional as F
    from transformers.models.qwen2_vl.modeling_qwen2_vl import apply_rotary_pos_emb_vision

    seq_length = hidden_states.shape[0]
    q, k, v = self.qkv(hidden_states).reshape(seq_length, 3, self.num_heads, -1).permute(1, 0, 2, 3).unbind(0)
    q = apply_rotary_pos_emb_vision(q.unsqueeze(0), rotary_pos_emb).squeeze(0)
    k = apply_rotary_pos_emb_vision(k.unsqueeze(0), rotary_pos_emb).squeeze(0)
    lengths = (cu_seqlens[1:] - cu_seqlens[:-1]).tolist()
    if len(set(lengths)) == 1:  # [seq, heads, d] -> [images, heads, patches, d]
        n, size = len(lengths), lengths[0]
        q, k, v = (t.reshape(n, size, self.num_heads, -1).transpose(1, 2) for t in (q, k, v))
        out = F.scaled_dot_product_attention(q, k, v).transpose(1, 2).reshape(seq_length, -1)
    else:
        blocks = [
            F.scaled_dot_product_attention(*(t[a:b].transpose(0, 1) for t in (q, k, v))).transpose(0, 1)
            for a, b in zip(cu_seqlens[:-1].tolist(), cu_seqlens[1:].tolist(), strict=True)
        ]
        out = torch.cat(blocks).reshape(seq_length, -1)
    return self.proj(out)


def use_block_diagonal_vision_attention(enabled: bool = True) -> None:
    """Installs (or removes) `_block_diagonal_forward` on transformers' `VisionSdpaAttention`."""
    from transformers.models.qwen2_vl import modeling_qwen2_vl as qwen

    original = qwen.__dict__.setdefault("_hpsv3_space_original_forward", qwen.VisionSdpaAttention.forward)
    qwen.VisionSdpaAttention.forward = _block_diagonal_forward if enabled else original


def load_hpsv3(settings: Settings) -> Loaded:
    """The real loading code: `hpsv3.HPSv3RewardInferencer`, checkpoint from the Hub when unset.

    Raises:
        Whatever hpsv3, huggingface_hub or torch raise; the app shows it on `/health`.
    """
    import hpsv3
    import huggingface_hub
    import torch
    import transformers
    from hpsv3 import HPSv3RewardInferencer

    device = settings.device if settings.device != "auto" else ("cuda" if torch.cuda.is_available() else "cpu")
    use_block_diagonal_vision_attention(settings.block_diagonal_vision)
    checkpoint = settings.checkpoint_path or huggingface_hub.hf_hub_download(
        settings.checkpoint_repo, "HPSv3.safetensors", revision=settings.checkpoint_revision
    )
    verbosity = transformers.logging.get_verbosity()
    transformers.logging.set_verbosity_error()  # the base loads without the reward head, which the checkpoint fills
    try:
        inferencer = HPSv3RewardInferencer(config_path=settings.config_path, checkpoint_path=checkpoint, device=device)
    finally:
        transformers.logging.set_verbosity(verbosity)
    model = inferencer.model
    info = {
        "model": model.config._name_or_path or "Qwen/Qwen2-VL-7B-Instruct",
        "checkpoint": settings.checkpoint_path or f"{settings.checkpoint_repo}/HPSv3.safetensors",
        "revision": None if settings.checkpoint_path else settings.checkpoint_revision,
        "device": str(next(model.parameters()).device),
        "dtype": str(next(model.parameters()).dtype).removeprefix("torch."),
        "parameters": sum(p.numel() for p in model.parameters()),
        "versions": {
            "hpsv3": getattr(hpsv3, "__version__", _dist_version("hpsv3")),
            "transformers": transformers.__version__,
            "torch": torch.__version__,
        },
    }
    return Loaded(inferencer, info)


def _dist_version(name: str) -> str | None:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(name)
    except PackageNotFoundError:
        return None


def to_score(mu: float) -> float:
    """HPSv3's mu mapped into (0, 1) by the logistic with scale `SCORE_SCALE`."""
    return 1.0 / (1.0 + math.exp(-mu / SCORE_SCALE))


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


@dataclass
class _Item:
    image: Any  # PIL.Image.Image, RGB
    prompt: str
    future: asyncio.Future


@dataclass
class Counters:
    """What the batcher has done since start-up."""

    requests: int = 0
    images: int = 0
    batches: int = 0
    largest_batch: int = 0

    def as_dict(self) -> dict[str, int]:
        """JSON-ready counters."""
        return dict(self.__dict__)


def _fail(item: _Item, err: Exception) -> None:
    if not item.future.done():
        item.future.set_exception(HTTPException(500, f"scoring failed: {type(err).__name__}: {err}"))


class MicroBatcher:
    """Gathers images from concurrent requests into GPU batches, preparing one while another runs.

    A batch closes when it holds `max_batch` images or `max_wait_ms` has passed since its first
    image arrived. Its preprocessing (resize, normalise, tokenise: `prepare`) runs on a CPU
    thread while the previous batch's forward pass (`forward`) runs on the GPU thread, so the
    GPU sees one batch at a time and the CPU work hides behind it. At most two batches are in
    flight; requests that arrive meanwhile wait in the queue and make the next batch bigger.

    Args:
        prepare: (images, prompts) -> model inputs, on the CPU thread.
        forward: model inputs -> list of (mu, log sigma), on the GPU thread.
        max_batch: images per batch, >= 1.
        max_wait_ms: longest wait for company, >= 0.
        in_flight: batches between gathering and result, >= 1; 1 runs prepare and forward in
            turn, with no overlap.
    """

    def __init__(self, prepare: Callable[[list[Any], list[str]], Any],
                 forward: Callable[[Any], list[tuple[float, float]]], max_batch: int,
                 max_wait_ms: float, in_flight: int = 2) -> None:  # fmt: skip
        self.prepare = prepare
        self.forward = forward
        self.max_batch = max_batch
        self.max_wait_s = max_wait_ms / 1000
        self.queue: asyncio.Queue[_Item] = asyncio.Queue()
        self.counters = Counters()
        self._cpu = ThreadPoolExecutor(max_workers=1, thread_name_prefix="hpsv3-prepare")
        self._gpu = ThreadPoolExecutor(max_workers=1, thread_name_prefix="hpsv3-gpu")
        self._in_flight = asyncio.Semaphore(in_flight)
        self._task: asyncio.Task | None = None
        self._batches: set[asyncio.Task] = set()

    def start(self) -> None:
        """Starts the gathering loop on the running event loop."""
        self._task = asyncio.get_running_loop().create_task(self._loop())

    async def stop(self) -> None:
        """Stops gathering; images still queued fail with 503."""
        if self._task is not None:
            self._task.cancel()
        while not self.queue.empty():
            self.queue.get_nowait().future.set_exception(HTTPException(503, "the scorer is shutting down"))
        for executor in (self._cpu, self._gpu):
            executor.shutdown(wait=False, cancel_futures=True)

    async def score(self, images: list[Any], prompt: str) -> list[tuple[float, float]]:
        """Queues `images` and waits for their (mu, log sigma), in order."""
        loop = asyncio.get_running_loop()
        items = [_Item(image, prompt, loop.create_future()) for image in images]
        for item in items:
            self.queue.put_nowait(item)
        self.counters.requests += 1
        return list(await asyncio.gather(*(item.future for item in items)))

    async def _gather(self) -> list[_Item]:
        """The next batch; images whose request went away (future cancelled) are dropped."""
        loop = asyncio.get_running_loop()
        batch = []
        while not batch:
            batch = [item for item in [await self.queue.get()] if not item.future.done()]
        deadline = loop.time() + self.max_wait_s
        while len(batch) < self.max_batch:
            try:
                item = self.queue.get_nowait()
            except asyncio.QueueEmpty:
                remaining = deadline - loop.time()
                if remaining <= 0:
                    break
                try:
                    item = await asyncio.wait_for(self.queue.get(), remaining)
                except TimeoutError:
                    break
            if not item.future.done():
                batch.append(item)
        return batch

    def waiting(self) -> int:
        """Images queued and not yet in a batch."""
        return self.queue.qsize()

    async def _loop(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            await self._in_flight.acquire()
            batch = await self._gather()
            self._note(len(batch))
            prepared = loop.run_in_executor(
                self._cpu, self.prepare, [i.image for i in batch], [i.prompt for i in batch]
            )
            task = loop.create_task(self._finish(batch, prepared))
            self._batches.add(task)
            task.add_done_callback(self._batches.discard)

    async def _finish(self, batch: list[_Item], prepared: asyncio.Future) -> None:
        loop = asyncio.get_running_loop()
        try:
            try:
                results = await loop.run_in_executor(self._gpu, self.forward, await prepared)
            except Exception:  # noqa: BLE001 (one bad item must not fail its neighbours)
                if len(batch) == 1:
                    raise
                log.warning("HPSv3 batch of %d failed; scoring its images one by one", len(batch), exc_info=True)
                for item in batch:
                    await self._one(item)
                return
        except Exception as err:  # noqa: BLE001 (the waiting request hears why)
            log.exception("HPSv3 failed on an image")
            _fail(batch[0], err)
            return
        finally:
            self._in_flight.release()
        for item, result in zip(batch, results, strict=True):
            if not item.future.done():
                item.future.set_result(result)

    async def _one(self, item: _Item) -> None:
        loop = asyncio.get_running_loop()
        try:
            inputs = await loop.run_in_executor(self._cpu, self.prepare, [item.image], [item.prompt])
            (result,) = await loop.run_in_executor(self._gpu, self.forward, inputs)
        except Exception as err:  # noqa: BLE001 (this item alone fails)
            _fail(item, err)
            return
        if not item.future.done():
            item.future.set_result(result)

    def _note(self, size: int) -> None:
        c = self.counters
        c.batches += 1
        c.images += size
        c.largest_batch = max(c.largest_batch, size)


def split_reward(inferencer: Inferencer) -> tuple[Callable[[list[Any], list[str]], Any], Callable[[Any], list]]:
    """hpsv3's `reward()` as its two halves: (prepare on the CPU, forward on the GPU).

    `HPSv3RewardInferencer.reward` is `prepare_batch` then `model(return_dict=True, **batch)`;
    splitting it lets the batcher overlap them. Both run under `torch.inference_mode()`.
    """
    import torch

    def to_pairs(out: Any, size: int) -> list[tuple[float, float]]:
        if tuple(out.shape) != (size, 2):  # one reward token per image, or the rows misalign
            raise RuntimeError(f"HPSv3 returned {tuple(out.shape)} for {size} images, not ({size}, 2)")
        return [(float(row[0]), float(row[1])) for row in out.float().cpu().tolist()]

    def prepare(images: list[Any], prompts: list[str]) -> Any:
        with torch.inference_mode():
            return inferencer.prepare_batch(images, prompts)

    def forward(batch: Any) -> list[tuple[float, float]]:
        with torch.inference_mode():
            return to_pairs(inferencer.model(return_dict=True, **batch)["logits"], len(batch["image_grid_thw"]))

    return prepare, forward


MAX_ASPECT = 200
"""Qwen2-VL's image processor refuses an aspect ratio above 200 (`smart_resize`)."""


def decode_png(data: str, index: int, settings: Settings):  # noqa: ANN201 (PIL.Image.Image)
    """A base64 PNG as an 8-bit RGB PIL image, transparency composited onto white.

    Whitespace in the base64 (line-wrapped output of `base64`) is ignored; a `data:` prefix is
    allowed. Only Pillow's PNG decoder ever sees the bytes.

    Raises:
        HTTPException: 400 bad base64 or an undecodable PNG, 413 too many bytes or pixels,
            415 not a PNG, 422 an aspect ratio over 200.
    """
    from PIL import Image

    if data.startswith("data:"):
        data = data.partition(",")[2]
    if len(data) > settings.max_image_bytes * 4 // 3 + 4096:
        raise HTTPException(413, f"image {index} is over {settings.max_image_bytes} bytes")
    try:
        raw = base64.b64decode("".join(data.split()), validate=True)
    except (binascii.Error, ValueError) as err:
        raise HTTPException(400, f"image {index} is not valid base64: {err}") from err
    if len(raw) > settings.max_image_bytes:
        raise HTTPException(413, f"image {index} is over {settings.max_image_bytes} bytes")
    if not raw.startswith(PNG_SIGNATURE):
        raise HTTPException(415, f"image {index} is not a PNG (only image/png is accepted)")
    try:
        image = Image.open(io.BytesIO(raw), formats=["PNG"])
        width, height = image.size
        if max(width, height) > settings.max_image_side:
            raise HTTPException(413, f"image {index} is {width}x{height}, over {settings.max_image_side} px a side")
        if max(width, height) > MAX_ASPECT * min(width, height):
            raise HTTPException(422, f"image {index} is {width}x{height}: an aspect ratio over {MAX_ASPECT}")
        image.load()
    except HTTPException:
        raise
    except Image.DecompressionBombError as err:
        raise HTTPException(413, f"image {index} has too many pixels") from err
    except Exception as err:  # noqa: BLE001 (PIL raises many types for broken files)
        raise HTTPException(400, f"image {index} is not a readable PNG ({type(err).__name__})") from err
    return to_rgb(image)


def to_rgb(image):  # noqa: ANN001, ANN201 (PIL.Image.Image)
    """8-bit RGB: 16-bit grey scaled down (not clipped), transparency composited onto white."""
    import numpy as np
    from PIL import Image

    if image.mode in ("I;16", "I;16B", "I;16L", "I"):
        grey = np.asarray(image, dtype=np.uint32)
        scale = 257 if grey.max(initial=0) > 255 or image.mode != "I" else 1
        image = Image.fromarray((grey // scale).clip(0, 255).astype(np.uint8), "L")
    if image.mode == "P" and "transparency" in image.info:
        image = image.convert("RGBA")
    if image.mode in ("RGBA", "LA", "PA"):
        rgba = image.convert("RGBA")
        paper = Image.new("RGBA", rgba.size, (255, 255, 255, 255))
        return Image.alpha_composite(paper, rgba).convert("RGB")
    return image.convert("RGB")


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
