"""The scorer's settings (`HPSV3_*`), its default prompt and the mu -> score mapping."""

from __future__ import annotations

import logging
import math

from pydantic import Field, SecretStr
from pydantic_settings import BaseSettings, SettingsConfigDict

log = logging.getLogger("hpsv3_space")


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


def to_score(mu: float) -> float:
    """HPSv3's mu mapped into (0, 1) by the logistic with scale `SCORE_SCALE`."""
    return 1.0 / (1.0 + math.exp(-mu / SCORE_SCALE))
