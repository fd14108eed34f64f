"""Watercolour environment: a policy paints with p5.brush; the picture is gated and scored.

The client and the models are imported on first use (PEP 562), so that the command line and the
renderer start without loading OpenEnv's server package, which imports Gradio (~5 s).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from watercolour_env.client import WatercolourEnv
    from watercolour_env.models import WatercolourAction, WatercolourObservation, WatercolourState
    from watercolour_env.terms import EpisodeStatus, RewardComponent, ScoreStatus, Violation

# where each public name lives; the verdict types come from `terms`, which loads without OpenEnv
_HOMES = {
    "WatercolourEnv": "watercolour_env.client",
    "WatercolourAction": "watercolour_env.models",
    "WatercolourObservation": "watercolour_env.models",
    "WatercolourState": "watercolour_env.models",
    "EpisodeStatus": "watercolour_env.terms",
    "RewardComponent": "watercolour_env.terms",
    "ScoreStatus": "watercolour_env.terms",
    "Violation": "watercolour_env.terms",
}

__all__ = [
    "EpisodeStatus",
    "RewardComponent",
    "ScoreStatus",
    "Violation",
    "WatercolourAction",
    "WatercolourEnv",
    "WatercolourObservation",
    "WatercolourState",
]


def __getattr__(name: str) -> Any:
    if name in _HOMES:
        return getattr(importlib.import_module(_HOMES[name]), name)
    raise AttributeError(f"module 'watercolour_env' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted([*globals(), *_HOMES])
