"""Typed OpenEnv client: every observation field parsed, reward None kept as None."""

from __future__ import annotations

import contextlib
import json
import logging
import os
import re
from collections.abc import Iterator
from typing import Any

from openenv.core.client_types import StepResult
from openenv.core.env_client import EnvClient

from watercolour_env.limits import DEFAULT_EPISODE_DEADLINE_S
from watercolour_env.models import ResetOptions, WatercolourAction, WatercolourObservation, WatercolourState

TOKEN_VARIABLE = "WATERCOLOUR_API_TOKEN"
"""The server's token setting, read by the client too when no `token` is given."""
TOKEN_HEADER = "X-Watercolour-Token"
"""Where the token goes when `Authorization` already carries another (a private Space's HF token)."""
EPISODE_TIMEOUT_MARGIN_S = 30.0
"""How much longer than the server's episode deadline a client waits: the server answers by its
deadline (`infra_error` at worst), so a client that hears nothing by then has lost the server."""
DEFAULT_EPISODE_TIMEOUT_S = DEFAULT_EPISODE_DEADLINE_S + EPISODE_TIMEOUT_MARGIN_S
"""The server's default episode deadline (`WATERCOLOUR_EPISODE_DEADLINE_S`, 120 s) plus the margin:
`WatercolourEnv`'s `message_timeout_s` unless given (OpenEnv's own 60 s would give up on a step
the server is still entitled to finish)."""


class RedactCredentials(logging.Filter):
    """Blanks credential headers in the websockets library's debug log of a handshake (both ends)."""

    SECRET = frozenset({"authorization", TOKEN_HEADER.lower()})

    def filter(self, record: logging.LogRecord) -> bool:
        """Keeps every record, with a credential header's value replaced."""
        args = record.args
        if isinstance(args, tuple) and len(args) == 2 and str(args[0]).lower() in self.SECRET:
            record.args = (args[0], "[redacted]")
        return True


for _name in ("websockets.client", "websockets.server"):
    if not any(isinstance(f, RedactCredentials) for f in logging.getLogger(_name).filters):
        logging.getLogger(_name).addFilter(RedactCredentials())


def checked_token(token: str | None) -> str | None:
    """`token` as given, once it is known that a header can carry it.

    Raises:
        ConfigError: it holds a space, a newline or a character outside printable ASCII (the
            message does not show it).
    """
    if token and not re.fullmatch(r"[\x21-\x7e]+", token):
        from watercolour_env.errors import ConfigError

        raise ConfigError(
            f"the token ({TOKEN_VARIABLE} or token=) holds a space, a newline or another "
            "character a header cannot carry; set it to the server's token"
        )
    return token


def base_url_of(url: str) -> str:
    """The server's base URL: `url` without a trailing slash or the websocket's `/ws`."""
    url = url.rstrip("/")
    return url[: -len("/ws")] if url.endswith("/ws") else url


def auth_headers(token: str | None, headers: dict[str, str] | None = None) -> dict[str, str] | None:
    """`headers` plus the token, or `headers` as given when there is no token.

    The token goes in `Authorization: Bearer`, or in `X-Watercolour-Token` when `headers` already
    has an `Authorization` (a Hugging Face token for a private Space).
    """
    if not token:
        return headers
    merged = dict(headers or {})
    if any(name.lower() == "authorization" for name in merged):
        merged[TOKEN_HEADER] = token
    else:
        merged["Authorization"] = f"Bearer {token}"
    return merged


# OpenEnv's error frame, as its client raises it: "Server error: <message> (code: <CODE>)".
_SERVER_ERROR = re.compile(r"^Server error: (?P<message>.*) \(code: (?P<code>[A-Z_]+)\)$", re.DOTALL)


def server_error(err: BaseException) -> tuple[str, str] | None:
    """(message, code) of the server's error frame when `err` is OpenEnv's RuntimeError for one, else None."""
    match = _SERVER_ERROR.match(str(err)) if isinstance(err, RuntimeError) else None
    return (match["message"], match["code"]) if match else None


def connection_problem(err: BaseException, base_url: str) -> str | None:
    """A one-line cause for a failure to open the websocket, or None when `err` is something else.

    A handshake the server answered with 401 means a missing or wrong token; any other
    connection failure means no server answered at `base_url`.
    """
    if not isinstance(err, ConnectionError):
        return None
    seen: BaseException | None = err
    while seen is not None:
        status = getattr(getattr(seen, "response", None), "status_code", None)
        if status == 401:
            return (
                f"the environment at {base_url} refused this client's token (HTTP 401): set {TOKEN_VARIABLE} "
                "to the server's token"
            )
        seen = seen.__cause__ or seen.__context__
    return f"no environment server answered at {base_url} ({err}); start one with `watercolour serve` or check the URL"


@contextlib.contextmanager
def talking_to(base_url: str) -> Iterator[None]:
    """Turns a failed conversation with the server at `base_url` into a one-line project error.

    Wrap the whole `with WatercolourEnv(...)` block: opening, `reset` and `step`.

    Raises:
        ConfigError: the server refused a request (with its own message), no server answered,
            the token was refused, or what answered does not speak OpenEnv.
        Unscored: the server closed the connection or went quiet mid-episode; try again.
    """
    from websockets.exceptions import ConnectionClosed

    from watercolour_env.errors import ConfigError, Unscored

    try:
        yield
    except ConnectionClosed as err:
        raise Unscored(f"the server at {base_url} closed the connection mid-episode ({err}); try again") from err
    except TimeoutError as err:
        raise Unscored(
            f"the server at {base_url} did not answer in time; try again, or check that it is a watercolour server"
        ) from err
    except ConnectionError as err:
        raise ConfigError(connection_problem(err, base_url)) from err
    except json.JSONDecodeError as err:
        raise ConfigError(
            f"what answered at {base_url} does not speak OpenEnv (a frame that is not JSON); check the URL"
        ) from err
    except RuntimeError as err:  # OpenEnv's "Server error: ..." for an error frame
        if not str(err).startswith("Server error"):
            raise
        raise ConfigError(f"the server refused the episode: {err}") from err


class WatercolourEnv(EnvClient[WatercolourAction, WatercolourObservation, WatercolourState]):
    """Client of a watercolour environment server over its websocket.

    Per-episode options go to `reset`: `ResetOptions` lists them (seed, episode_id, subject,
    return_image, weights, references, revisions, revision_reward, oracle) and checks them before they
    are sent. With `revisions` = K, step until `done`: each painting but the last comes back with
    a `critique` and reward None, the last with the episode's reward.

    Args:
        base_url: the server (`http://`, `https://` or a Space URL); its websocket's own URL,
            ending in `/ws`, is taken as the server's.
        token: the server's `WATERCOLOUR_API_TOKEN`; None reads that variable here, "" sends none.
        headers: extra handshake headers (OpenEnv's own argument).
        **kwargs: the rest of OpenEnv's `EnvClient` arguments. `message_timeout_s` defaults to
            `DEFAULT_EPISODE_TIMEOUT_S` (150 s); against a server with a longer
            `WATERCOLOUR_EPISODE_DEADLINE_S`, pass that plus 30 s (its `/health` has it).

    Example:
        >>> with WatercolourEnv(base_url="http://127.0.0.1:8000").sync() as env:  # doctest: +SKIP
        ...     env.reset(seed=7, subject="a peach hibiscus")
        ...     result = env.step(WatercolourAction(reply=reply))
        ...     result.reward, result.observation.violations
        >>> with WatercolourEnv(base_url="http://127.0.0.1:8000").sync() as env:  # doctest: +SKIP
        ...     result = env.reset(seed=7, revisions=2)
        ...     while not result.done:  # three paintings, each after reading the last one's critique
        ...         result = env.step(WatercolourAction(reply=paint(result.observation.critique)))
    """

    def __init__(
        self,
        base_url: str | None = None,
        *,
        token: str | None = None,
        headers: dict[str, str] | None = None,
        **kwargs: Any,
    ) -> None:
        token = checked_token(os.environ.get(TOKEN_VARIABLE) if token is None else token)
        kwargs.setdefault("message_timeout_s", DEFAULT_EPISODE_TIMEOUT_S)
        if base_url and base_url.rstrip("/").endswith("/ws"):  # the websocket's own URL: OpenEnv adds /ws itself
            base_url = base_url.rstrip("/")[: -len("/ws")]
        super().__init__(base_url, headers=auth_headers(token, headers), **kwargs)

    async def _reset_async(self, **kwargs: Any) -> StepResult[WatercolourObservation]:
        """OpenEnv's reset, the options checked here first: a bad one costs no round trip.

        Raises:
            InvalidOption: an option `ResetOptions` refuses, in the server's words.
        """
        ResetOptions.check(**kwargs)
        return await super()._reset_async(**kwargs)

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
        ConfigError: text that starts with "{" but is not a JSON object.
    """
    from watercolour_env.errors import ConfigError

    if not text or not text.strip():
        return None
    if not text.lstrip().startswith("{"):
        return text.strip()
    try:
        return json.loads(text)
    except json.JSONDecodeError as err:
        raise ConfigError(
            f"weights {text!r} are not JSON ({err.msg} at column {err.colno}); "
            'write them as {"gate": 0.1, "embedded": 0.9}, or name a preset'
        ) from err
