"""The closed sets both sides share: pool tiers, gate violations, episode and score statuses, reward components.

Kept apart from `models` (which builds on OpenEnv's types) so that the gate, the rubric and the
command line load without OpenEnv's server package, which imports Gradio (~5 s).
"""

from __future__ import annotations

import enum

from pydantic import BaseModel, Field


class Tier(str, enum.Enum):
    """A hand rating of a pool painting: `love` (the taste to reach), `okay`, `nope` (a counter-example)."""

    LOVE = "love"
    OKAY = "okay"
    NOPE = "nope"


TIER_NAMES = tuple(tier.value for tier in Tier)
"""Tier names in the order of a Hub dataset's ClassLabel (the dataset stores the index)."""


class Violation(str, enum.Enum):
    """A named reason the gate rejected a reply.

    Found in the source, before any render: `no_sketch`, `unparseable` (the reply broke the
    source check itself: the reply's fault, never the server's), `syntax_error`, `no_setup`,
    `canvas_not_webgl`, `canvas_size`, `unknown_brush_method`, `brush_method_not_allowed`,
    `bare_primitive`, `external_access`, `text_on_canvas`, `canvas_change`, `no_brush_paint`,
    `computed_access`, `offscreen_layer`, `direct_context`, `p5_not_allowed`.
    Found in the render: `sketch_error`, `render_timeout`, `blank_canvas`.
    Blocked inside the sandbox while the sketch ran (static/guard.js): `bare_primitive`,
    `text_on_canvas`, `canvas_change`, `brush_method_not_allowed`, `offscreen_layer`,
    `direct_context`, `p5_not_allowed`, and only there: `image_or_pixels`, `shader_or_3d`,
    `brush_argument` (an allowed method given an object other than a colour), `tampering` (the
    sketch reached for the report, the libraries' hooks or a frozen built-in), `invalid_frame` (the
    picture was not a 600x600 RGBA PNG).
    Found by the server after the render: `copied_reference` (the reply reproduces a painting of
    the pool, in its source or its picture: server/copies.py).
    Found by the server after scoring: `unencodable_observation` (the verdict held text that
    could not be sent as JSON; the sketch's fault, never None).
    """

    NO_SKETCH = "no_sketch"
    UNPARSEABLE = "unparseable"
    SYNTAX_ERROR = "syntax_error"
    NO_SETUP = "no_setup"
    CANVAS_NOT_WEBGL = "canvas_not_webgl"
    CANVAS_SIZE = "canvas_size"
    UNKNOWN_BRUSH_METHOD = "unknown_brush_method"
    BRUSH_METHOD_NOT_ALLOWED = "brush_method_not_allowed"
    BARE_PRIMITIVE = "bare_primitive"
    EXTERNAL_ACCESS = "external_access"
    TEXT_ON_CANVAS = "text_on_canvas"
    CANVAS_CHANGE = "canvas_change"
    NO_BRUSH_PAINT = "no_brush_paint"
    SKETCH_ERROR = "sketch_error"
    RENDER_TIMEOUT = "render_timeout"
    BLANK_CANVAS = "blank_canvas"
    COMPUTED_ACCESS = "computed_access"
    OFFSCREEN_LAYER = "offscreen_layer"
    DIRECT_CONTEXT = "direct_context"
    P5_NOT_ALLOWED = "p5_not_allowed"
    IMAGE_OR_PIXELS = "image_or_pixels"
    SHADER_OR_3D = "shader_or_3d"
    BRUSH_ARGUMENT = "brush_argument"
    TAMPERING = "tampering"
    INVALID_FRAME = "invalid_frame"
    UNENCODABLE_OBSERVATION = "unencodable_observation"
    COPIED_REFERENCE = "copied_reference"
    REPLY_TOO_LONG = "reply_too_long"


class EpisodeStatus(str, enum.Enum):
    """Where an episode stands; `infra_error` means the reward is None, not a verdict.

    `revise` answers a painting that is not the episode's last: the reward is None because it is
    not given yet (`done` is false), and the observation's `critique` describes the picture.
    """

    READY = "ready"
    REVISE = "revise"  # painted, and the episode waits for a revision (reset's `revisions`)
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
    detail: str = Field("", description="Why a scorer gave no verdict, or its raw numbers (HPSv3's mu, sigma).")
