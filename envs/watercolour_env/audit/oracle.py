"""`watercolour oracle`: the deployment's own oracle sent as one episode, as a Space validates.

OpenEnv's reward contract asks for an oracle: an action that reaches the top of the reward. Ours
must be a painting the pool's taste loves. But any painting of the pool sent back is a copy
(`copied_reference`, reward 0). So the oracle is the `love` painting that the pool's `pool.toml`
holds out of the references (`oracle = "<id>"`). The server reports it in `GET /pool`; this
module sends it for the subject it was rated for (a pool of several subjects may hold out any
of theirs), with its own seed. It passes when the reward is at least
`ORACLE_FLOOR`.

A Space copied with `deploy env --duplicate-from` keeps the original's files but reads its own
pool, so the oracle it checks is always its pool's own
(docs/decisions/0006-the-pools-own-oracle.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from watercolour_env.audit.run import fetch_pool
from watercolour_env.errors import ConfigError

ORACLE_FLOOR = 0.9
"""The lowest passing reward: the top of the reward's range (1.0) less `oracle_tolerance` (0.1),
both from openenv.yaml's `validation.reward` (a test holds the two together)."""


@dataclass(frozen=True)
class OracleResult:
    """One oracle episode.

    Attributes:
        id: the pool painting sent, e.g. "jelly-16".
        subject: the subject the episode asked for (the oracle's own).
        observation: the observation as JSON, without its PNG and system prompt.
        reward: the episode's reward in [0, 1]; None when it went unscored (`infra_error`).
        passed: the episode was scored and `reward` >= `ORACLE_FLOOR`.
    """

    id: str
    subject: str
    observation: dict[str, Any]
    reward: float | None
    passed: bool


def declared_oracle(report: dict[str, Any]) -> dict[str, Any]:
    """The oracle of a `GET /pool` report: its id, subject, seed and sketch.

    Raises:
        ConfigError: the pool declares none; the message says how to choose one.
    """
    oracle = report.get("oracle")
    if not oracle:
        raise ConfigError(
            f"the pool {report.get('source', '?')} declares no oracle: `watercolour pool oracle FOLDER` chooses one of "
            "its love paintings and keeps it out of the references (pool.toml); push the pool again and point the "
            "Space at the new revision (docs/pool.md)"
        )
    return oracle


def run_oracle(env_url: str, token: str | None = None) -> OracleResult:
    """Sends the deployment's oracle as one episode, for the subject it was rated for.

    The episode is reset with `oracle=True`: the copy guard holds the oracle like the pool's
    paintings, and lets it through only there. A server from before the oracle's subject was
    reported (issue 54) is asked for its default.

    Args:
        env_url: the server, e.g. "http://127.0.0.1:8000" or a Space's URL.
        token: the server's `WATERCOLOUR_API_TOKEN`; None reads that variable here.

    Raises:
        ConfigError: no server answered, `GET /pool` was refused (a wrong or missing token), the
            pool declares no oracle, or the server refused the episode.
    """
    from watercolour_env import EpisodeStatus, WatercolourAction, WatercolourEnv
    from watercolour_env.client import TOKEN_VARIABLE, base_url_of, talking_to

    env_url = base_url_of(env_url)
    if token is None:
        import os

        token = os.environ.get(TOKEN_VARIABLE) or None
    report = fetch_pool(env_url, token)
    oracle = declared_oracle(report)
    with talking_to(env_url), WatercolourEnv(base_url=env_url, token=token or "").sync() as env:
        subject = oracle.get("subject") or report["subject"]
        env.reset(seed=oracle["seed"], subject=subject, oracle=True)
        observation = env.step(WatercolourAction(reply=f"```js\n{oracle['sketch']}\n```")).observation
    reward = None if observation.status is EpisodeStatus.INFRA_ERROR else observation.reward
    passed = observation.status is EpisodeStatus.SCORED and reward is not None and reward >= ORACLE_FLOOR
    shown = observation.model_dump(mode="json", exclude={"image_png_b64", "system_prompt"})
    return OracleResult(oracle["id"], subject, shown, reward, passed)
