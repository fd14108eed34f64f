"""The one place that reads the environment: `WATERCOLOUR_*` variables, validated at start-up."""

from __future__ import annotations

import os
from typing import Literal

from pydantic import Field, SecretStr, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from watercolour_env.errors import ConfigError
from watercolour_env.pool import STARTER_POOL, Tier
from watercolour_env.server.gate import DEFAULT_PAINT_FLOOR
from watercolour_env.server.prompt import DEFAULT_SUBJECT
from watercolour_env.server.reward.hpsv3 import DEFAULT_PROMPT as HPSV3_DEFAULT_PROMPT
from watercolour_env.server.reward.judge import DEFAULT_REFERENCE_MIX, HIBISCUS_CRITERIA
from watercolour_env.server.reward.rubric import (
    LENGTH_RAMP_FULL_TOKENS,
    LENGTH_RAMP_START_TOKENS,
    LENGTH_RUNAWAY_TOKENS,
    PRESETS,
    RubricWeights,
)

WEIGHT_FIELDS = ("weight_gate", "weight_length", "weight_embedded", "weight_judge", "weight_hpsv3")


class Settings(BaseSettings):
    """Server settings; every field is also `WATERCOLOUR_<FIELD>` in the environment.

    Raises:
        ConfigError: through `load_settings`, when a value is out of range.
    """

    model_config = SettingsConfigDict(env_prefix="WATERCOLOUR_", extra="ignore")

    host: str = "127.0.0.1"
    port: int = Field(8000, ge=1, le=65535)
    render_workers: int = Field(default_factory=lambda: os.cpu_count() or 1, ge=1, le=64)
    render_deadline_s: float = Field(20.0, gt=0, le=300)
    render_max_queue: int = Field(64, ge=0)
    chromium_path: str = "/usr/bin/chromium"
    render_network_namespace: Literal["auto", "on", "off"] = "auto"  # see server/sandbox/netns.py
    max_concurrent_envs: int = Field(64, ge=1)
    default_subject: str = DEFAULT_SUBJECT
    paint_floor: float = Field(DEFAULT_PAINT_FLOOR, ge=0, le=1)
    fail_reward: float = Field(0.0, ge=0, le=1)
    pool: str = str(STARTER_POOL)
    strict_allowlist: bool = True
    length_start_tokens: int = Field(LENGTH_RAMP_START_TOKENS, ge=0)
    length_full_tokens: int = Field(LENGTH_RAMP_FULL_TOKENS, ge=1)
    length_runaway_tokens: int = Field(LENGTH_RUNAWAY_TOKENS, ge=1)
    weight_gate: float = Field(0.05, ge=0, le=1)
    weight_length: float = Field(0.05, ge=0, le=1)
    weight_embedded: float = Field(0.90, ge=0, le=1)
    weight_judge: float = Field(0.0, ge=0, le=1)
    weight_hpsv3: float = Field(0.0, ge=0, le=1)
    preset: str | None = None  # one of rubric.PRESETS; sets all five weights
    judge_base_url: str = "https://router.huggingface.co/v1"
    judge_model: str = "Qwen/Qwen3-VL-30B-A3B-Instruct"
    judge_token: SecretStr | None = None
    judge_timeout_s: float = Field(60.0, gt=0)
    judge_max_concurrency: int = Field(8, ge=1)
    judge_criteria: str = HIBISCUS_CRITERIA  # what "better" means: "Which is the better <criteria>?"
    judge_structured_output: bool = True  # ask for a JSON schema; falls back to the strict parser if refused
    references_per_episode: int = Field(4, ge=1, le=32)
    reference_mix: dict[Tier, float] = Field(default_factory=lambda: dict(DEFAULT_REFERENCE_MIX))
    hpsv3_url: str | None = None
    hpsv3_token: SecretStr | None = None
    hpsv3_prompt: str = HPSV3_DEFAULT_PROMPT
    hpsv3_timeout_s: float = Field(60.0, gt=0)
    hpsv3_retries: int = Field(3, ge=0, le=10)

    @model_validator(mode="after")
    def _preset_sets_the_weights(self) -> Settings:
        if self.preset is None:
            return self
        if self.preset not in PRESETS:
            raise ValueError(f"WATERCOLOUR_PRESET={self.preset!r} is not one of {', '.join(PRESETS)}")
        explicit = sorted(f"WATERCOLOUR_{f.upper()}" for f in WEIGHT_FIELDS if f in self.model_fields_set)
        if explicit:
            raise ValueError(f"WATERCOLOUR_PRESET sets every weight; unset {', '.join(explicit)} or the preset")
        for name, value in PRESETS[self.preset].__dict__.items():
            object.__setattr__(self, f"weight_{name}", value)
        return self

    @model_validator(mode="after")
    def _hpsv3_is_configured(self) -> Settings:
        source = f"WATERCOLOUR_PRESET={self.preset}" if self.preset else "WATERCOLOUR_WEIGHT_HPSV3"
        if self.weight_hpsv3 > 0 and not self.hpsv3_url:
            raise ValueError(
                f"{source} weighs HPSv3 at {self.weight_hpsv3:g}: set WATERCOLOUR_HPSV3_URL to the scorer Space"
            )
        if self.hpsv3_url and not self.hpsv3_url.startswith(("http://", "https://")):
            raise ValueError(f"WATERCOLOUR_HPSV3_URL={self.hpsv3_url!r} needs http:// or https://")
        return self

    @model_validator(mode="after")
    def _reference_mix_is_a_distribution(self) -> Settings:
        shares = self.reference_mix.values()
        if not shares or any(v < 0 for v in shares) or abs(sum(shares) - 1.0) > 1e-6:
            raise ValueError(f"WATERCOLOUR_REFERENCE_MIX shares must be >= 0 and sum to 1, got {self.reference_mix}")
        return self

    @model_validator(mode="after")
    def _judge_is_configured(self) -> Settings:
        if self.weight_judge > 0 and not self.judge_model:
            raise ValueError("WATERCOLOUR_WEIGHT_JUDGE > 0 needs WATERCOLOUR_JUDGE_MODEL")
        if self.weight_judge > 0 and "huggingface.co" in self.judge_base_url and self.judge_token is None:
            raise ValueError(
                "WATERCOLOUR_WEIGHT_JUDGE > 0 with Hugging Face Inference Providers needs WATERCOLOUR_JUDGE_TOKEN"
            )
        return self

    @model_validator(mode="after")
    def _length_ramp_rises(self) -> Settings:
        if not self.length_start_tokens < self.length_full_tokens <= self.length_runaway_tokens:
            raise ValueError(
                "WATERCOLOUR_LENGTH_START_TOKENS < WATERCOLOUR_LENGTH_FULL_TOKENS <= "
                "WATERCOLOUR_LENGTH_RUNAWAY_TOKENS must hold"
            )
        return self

    @model_validator(mode="after")
    def _weights_sum_to_one(self) -> Settings:
        total = sum(getattr(self, f) for f in WEIGHT_FIELDS)
        if abs(total - 1.0) > 1e-6:
            now = ", ".join(
                f"WATERCOLOUR_{f.upper()}={getattr(self, f):g}" + ("" if f in self.model_fields_set else " (default)")
                for f in WEIGHT_FIELDS
            )
            raise ValueError(
                f"reward weights sum to {total:g}, not 1 ({now}): make them sum to 1, or set WATERCOLOUR_PRESET"
            )
        return self

    def length_ramp(self) -> tuple[int, int, int]:
        """(start, full, runaway) token counts of the length term."""
        return self.length_start_tokens, self.length_full_tokens, self.length_runaway_tokens

    def weights(self) -> RubricWeights:
        """The rubric weights these settings describe."""
        return RubricWeights(self.weight_gate, self.weight_length, self.weight_embedded, self.weight_judge,
                             self.weight_hpsv3)  # fmt: skip


def load_settings(**overrides: object) -> Settings:
    """Reads and validates the settings once, at start-up.

    Raises:
        ConfigError: a variable is malformed or out of range; the message names it.
    """
    import difflib

    from pydantic import ValidationError

    known = {f"WATERCOLOUR_{name.upper()}" for name in Settings.model_fields}
    for variable in sorted(v for v in os.environ if v.upper().startswith("WATERCOLOUR_") and v.upper() not in known):
        close = difflib.get_close_matches(variable.upper(), known, n=1)
        hint = f"; did you mean {close[0]}?" if close else "; the README lists the settings"
        raise ConfigError(f"unknown setting {variable}{hint}")
    try:
        return Settings(**overrides)  # type: ignore[arg-type]
    except ValidationError as err:
        lines = [
            (f"- WATERCOLOUR_{str(e['loc'][0]).upper()}: " if e["loc"] else "- ")
            + e["msg"].removeprefix("Value error, ")
            for e in err.errors()
        ]
        raise ConfigError("invalid WATERCOLOUR_* setting:\n" + "\n".join(lines)) from err
