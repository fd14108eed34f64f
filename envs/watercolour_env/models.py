"""Wire types of the watercolour environment: what crosses the websocket, nothing else."""

from __future__ import annotations

import enum

from openenv.core.env_server.types import Action, Observation, State
from pydantic import BaseModel, Field


class Violation(str, enum.Enum):
    """A named reason the gate rejected a reply."""

    NO_SKETCH = "no_sketch"
    NO_SETUP = "no_setup"
    NO_BRUSH_PAINT = "no_brush_paint"
    SKETCH_ERROR = "sketch_error"
    RENDER_TIMEOUT = "render_timeout"
    BLANK_CANVAS = "blank_canvas"


class EpisodeStatus(str, enum.Enum):
    """Where an episode stands; `infra_error` means the reward is None, not a verdict."""

    READY = "ready"
    SCORED = "scored"
    REJECTED = "rejected"
    INFRA_ERROR = "infra_error"


class ScoreStatus(str, enum.Enum):
    """How one reward component came out."""

    OK = "ok"
    UNAVAILABLE = "unavailable"
    NOT_CONFIGURED = "not_configured"
    SKIPPED_BY_GATE = "skipped_by_gate"


class RewardComponent(BaseModel):
    """One term of the reward: raw value in [0, 1] (or None), its weight and contribution."""

    name: str
    value: float | None = None
    weight: float = 0.0
    contribution: float = 0.0
    status: ScoreStatus = ScoreStatus.OK


class WatercolourAction(Action):
    """The policy's raw reply; the environment extracts the sketch from it."""

    reply: str = Field(..., description="The model's completion text, fenced or bare JavaScript.")


class WatercolourObservation(Observation):
    """What the policy and the trainer see after `reset` (prompts) and `step` (the verdict).

    `reward` is in [0, 1] for a judged episode, 0.0 (by default) for a reply rejected by the
    gate, and None when the infrastructure failed (`status == "infra_error"`).
    """

    status: EpisodeStatus = EpisodeStatus.READY
    subject: str = ""
    seed: int = 0
    system_prompt: str = ""
    prompt: str = ""
    sketch: str | None = None
    violations: list[Violation] = Field(default_factory=list)
    js_errors: list[str] = Field(default_factory=list)
    reward_components: list[RewardComponent] = Field(default_factory=list)
    paint_fraction: float | None = Field(default=None, description="Share of painted pixels, [0, 1].")
    render_ms: float | None = Field(default=None, description="Render wall time in milliseconds.")
    renderer: str = ""
    image_png_b64: str | None = Field(default=None, description="600x600 PNG, base64, when asked.")
    detail: str = ""


class WatercolourState(State):
    """Server-side episode state: the options given at `reset`."""

    seed: int = 0
    subject: str = ""
    return_image: bool = False
    status: EpisodeStatus = EpisodeStatus.READY
