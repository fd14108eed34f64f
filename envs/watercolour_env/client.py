"""Typed OpenEnv client: every observation field parsed, reward None kept as None."""

from __future__ import annotations

from typing import Any

from openenv.core.client_types import StepResult
from openenv.core.env_client import EnvClient

from watercolour_env.models import WatercolourAction, WatercolourObservation, WatercolourState


class WatercolourEnv(EnvClient[WatercolourAction, WatercolourObservation, WatercolourState]):
    """Client of a watercolour environment server over its websocket.

    Per-episode options go to `reset`: `seed`, `subject`, `return_image`.

    Example:
        >>> with WatercolourEnv(base_url="http://127.0.0.1:8000").sync() as env:  # doctest: +SKIP
        ...     env.reset(seed=7, subject="a peach hibiscus")
        ...     result = env.step(WatercolourAction(reply=reply))
        ...     result.reward, result.observation.violations
    """

    def _step_payload(self, action: WatercolourAction) -> dict[str, Any]:
        return action.model_dump(exclude={"metadata"})

    def _parse_result(self, payload: dict[str, Any]) -> StepResult[WatercolourObservation]:
        fields = dict(payload.get("observation", {}))
        fields["reward"] = payload.get("reward")
        fields["done"] = payload.get("done", False)
        observation = WatercolourObservation.model_validate(fields)
        return StepResult(observation=observation, reward=observation.reward, done=observation.done)

    def _parse_state(self, payload: dict[str, Any]) -> WatercolourState:
        return WatercolourState.model_validate(payload)
