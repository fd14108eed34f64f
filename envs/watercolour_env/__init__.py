"""Watercolour environment: a policy paints with p5.brush; the picture is gated and scored."""

from watercolour_env.client import WatercolourEnv
from watercolour_env.models import (
    EpisodeStatus,
    RewardComponent,
    ScoreStatus,
    Violation,
    WatercolourAction,
    WatercolourObservation,
    WatercolourState,
)

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
