"""An optional shared token in front of everything that costs compute.

With `WATERCOLOUR_API_TOKEN` set, the websocket and every HTTP route except the open ones
(`/health` and the routes that only describe the server) need the token, as
`Authorization: Bearer <token>` or, where `Authorization` already carries a Hugging Face token
for a private Space, as `X-Watercolour-Token: <token>`. A plain ASGI middleware, since
Starlette's HTTP middleware never sees websocket handshakes.

The token is compared in constant time and never written to a log, an error or a response.
"""

from __future__ import annotations

import hmac
import json
import logging
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from watercolour_env.client import TOKEN_HEADER, TOKEN_VARIABLE

log = logging.getLogger(__name__)

OPEN_PATHS = frozenset({"/health", "/metadata", "/schema", "/openapi.json", "/docs", "/docs/oauth2-redirect", "/redoc"})
"""Routes anyone may call: they describe the server and cost no render or score."""

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

REFUSAL = f"this environment server needs its token: set {TOKEN_VARIABLE} (the client sends it as a bearer token)"


def presented_tokens(headers: list[tuple[bytes, bytes]]) -> list[bytes]:
    """The tokens a request carries: the bearer credential and the `X-Watercolour-Token` value."""
    found = []
    header = TOKEN_HEADER.lower().encode()
    for name, value in headers:
        if name == b"authorization" and value[:7].lower() == b"bearer ":
            found.append(value[7:].strip())
        elif name == header:
            found.append(value.strip())
    return found


class _RefusedHandshakeFilter(logging.Filter):
    """Drops uvicorn's "returned without completing handshake" error for a refused handshake.

    uvicorn 0.54 logs it after every handshake answered with an HTTP response, since it counts only
    accept and close as the end of one; the refusal is logged here instead, at info level.
    """

    def filter(self, record: logging.LogRecord) -> bool:
        return record.getMessage() != "ASGI callable returned without completing handshake."


class _RedactQueries(logging.Filter):
    """Drops the query string from uvicorn's access log.

    A client that puts its token in the URL is refused, but the access log would keep the token.
    """

    def filter(self, record: logging.LogRecord) -> bool:
        args = record.args
        if isinstance(args, tuple) and len(args) >= 3 and isinstance(args[2], str) and "?" in args[2]:
            record.args = (*args[:2], args[2].split("?", 1)[0] + "?[query redacted]", *args[3:])
        return True


class TokenMiddleware:
    """Refuses requests without the token: HTTP 401, or a websocket handshake refused with 401.

    Args:
        app: the ASGI app it guards.
        token: the shared secret (non-empty).
    """

    def __init__(self, app: ASGIApp, token: str) -> None:
        self.app = app
        self._token = token.encode()
        for name, kind in (("uvicorn.error", _RefusedHandshakeFilter), ("uvicorn.access", _RedactQueries)):
            logger = logging.getLogger(name)
            if not any(isinstance(f, kind) for f in logger.filters):
                logger.addFilter(kind())

    def authorised(self, scope: Scope) -> bool:
        """Whether the request may pass: an open path, or a matching token."""
        if scope.get("path") in OPEN_PATHS:
            return True
        # Every candidate is compared (no early exit), each in constant time.
        matches = [hmac.compare_digest(t, self._token) for t in presented_tokens(scope.get("headers", []))]
        return any(matches)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Passes an authorised request on; answers any other with 401 and the setting to use."""
        if scope["type"] not in ("http", "websocket") or self.authorised(scope):
            await self.app(scope, receive, send)
            return
        log.info("refused %s %s from %s: no valid token", scope["type"], scope.get("path"), _peer(scope))
        body = json.dumps({"detail": REFUSAL}).encode()
        headers = [(b"content-type", b"application/json"), (b"www-authenticate", b"Bearer")]
        if scope["type"] == "http":
            await send({"type": "http.response.start", "status": 401, "headers": headers})
            await send({"type": "http.response.body", "body": body})
        elif "websocket.http.response" in scope.get("extensions", {}):
            await send({"type": "websocket.http.response.start", "status": 401, "headers": headers})
            await send({"type": "websocket.http.response.body", "body": body})
        else:  # a server without the denial-response extension answers 403
            await send({"type": "websocket.close", "code": 1008})


def _peer(scope: Scope) -> str:
    client = scope.get("client")
    return f"{client[0]}:{client[1]}" if client else "unknown"
