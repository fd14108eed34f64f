"""Wire types of the watercolour environment: what crosses the websocket, nothing else."""

from __future__ import annotations

from typing import Literal

from openenv.core.env_server.types import Action, Observation, State
from pydantic import Field

# re-exported: the verdict types and the reset options have always been importable from here
from watercolour_env.options import ResetOptions as ResetOptions
from watercolour_env.terms import EpisodeStatus as EpisodeStatus
from watercolour_env.terms import RewardComponent as RewardComponent
from watercolour_env.terms import ScoreStatus as ScoreStatus
from watercolour_env.terms import Violation as Violation


class WatercolourAction(Action):
    """The policy's raw reply; the environment extracts the sketch from it."""

    reply: str = Field(..., description="The model's completion text, fenced or bare JavaScript.")
    sketch_tokens: int | None = Field(
        default=None,
        ge=0,
        description="Tokens of the extracted sketch's code (`sketch.code_text`: no comments, no dead code) under the "
        "policy's tokenizer, if known.",
    )
    final: bool = Field(
        default=False,
        description="In an episode with revisions: this painting is the last, although revisions are left; it is "
        "judged as the last painting would be. Ignored in an episode without revisions.",
    )


class WatercolourObservation(Observation):
    """What the policy and the trainer see after `reset` (prompts) and `step` (the verdict).

    `reward` is in [0, 1] for a judged episode, 0.0 (by default) for a reply rejected by the
    gate, and None when the infrastructure failed (`status == "infra_error"`) or, in an episode
    with revisions, while it is not over (`status == "revise"`, `done` false).
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
    render_ms: float | None = Field(default=None, description="Render wall time in milliseconds, queue included.")
    queue_ms: float | None = Field(default=None, description="Of render_ms, the wait for a render worker.")
    renderer: str = ""
    image_png_b64: str | None = Field(default=None, description="600x600 PNG, base64, when asked.")
    detail: str = ""
    turn: int = Field(default=0, description="Which painting of the episode this step answered, from 1; 0 after reset.")
    critique: str = Field(
        default="",
        description="In an episode with revisions: what the picture shows and what the gate refused, in words; "
        "never the pool, the score or its components.",
    )
    judged_turn: int | None = Field(
        default=None,
        description="On an episode's last observation: the painting (from 1) whose reward and status it carries; "
        "with revision_reward='best' it may be an earlier one than `turn`.",
    )


class WatercolourState(State):
    """Server-side episode state: the options given at `reset`."""

    seed: int = 0
    subject: str = ""
    return_image: bool = False
    references: int | None = None  # the judge's references for this episode; the deployment's when None
    status: EpisodeStatus = EpisodeStatus.READY
    revisions: int = 0  # paintings after the first that the episode waits for
    revision_reward: Literal["last", "best"] = "last"
    oracle: bool = False  # the episode sends the pool's oracle, which the copy guard then lets through
