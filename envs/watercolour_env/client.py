"""Typed OpenEnv client: every observation field parsed, reward None kept as None."""

from __future__ import annotations

import json
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


def parse_reward_weights(text: str | None) -> dict[str, float] | str | None:
    """Reward weights as a user types them (`--weights`, `--env_reward_weights`), for `reset(weights=...)`.

    Args:
        text: JSON weights by component (`{"gate": 0.1, "embedded": 0.9}`), or a preset name
            (`hps-led`), which is passed as is for the server to check; None or "" for none.

    Raises:
        json.JSONDecodeError: text that starts with "{" but is not JSON.
    """
    if not text or not text.strip():
        return None
    return json.loads(text) if text.lstrip().startswith("{") else text.strip()
