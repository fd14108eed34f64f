"""Frames OpenEnv's websocket loop would die on get an error frame instead, and the session lives.

OpenEnv 0.10 closes a session on a binary frame (`receive_text` fails) and on JSON that is not
an object (`.get` on a list), and parses any frame up to uvicorn's 16 MiB. This ASGI middleware
sits in front of `/ws` and answers those frames itself, in OpenEnv's own error shape
(`{"type": "error", "data": {"message", "code"}}`), without passing them on; the session keeps
its episode. Everything else goes through untouched.
"""

from __future__ import annotations

import json
import logging
from typing import Any

from watercolour_env.server.auth import ASGIApp, Receive, Scope, Send

log = logging.getLogger(__name__)

ENVELOPE_BYTES = 65_536
"""Room in a frame for the JSON around a reply (a reply's escapes can double its size)."""


def frame_limit(max_reply_bytes: int) -> int:
    """The largest text frame (UTF-8 bytes) the guard passes on, for a reply limit in bytes."""
    return 2 * max_reply_bytes + ENVELOPE_BYTES


def error_frame(message: str, code: str) -> dict[str, Any]:
    """An ASGI send event carrying OpenEnv's error response."""
    return {"type": "websocket.send", "text": json.dumps({"type": "error", "data": {"message": message, "code": code}})}


class FrameGuard:
    """Answers bad frames on `/ws` with an error frame and keeps the session.

    Args:
        app: the ASGI app it guards.
        max_reply_bytes: the reply limit (`WATERCOLOUR_MAX_REPLY_BYTES`); frames over
            `frame_limit(max_reply_bytes)` are refused before they are parsed.
    """

    def __init__(self, app: ASGIApp, max_reply_bytes: int) -> None:
        self.app = app
        self.max_reply_bytes = max_reply_bytes
        self.limit = frame_limit(max_reply_bytes)

    def problem(self, event: dict[str, Any]) -> tuple[str, str] | None:
        """Why a received frame cannot go on (message, OpenEnv error code), or None if it can."""
        text = event.get("text")
        if text is None:
            return "binary frames are not accepted: send each message as JSON text", "INVALID_JSON"
        size = len(text.encode("utf-8", "surrogatepass"))
        if size > self.limit:
            return (
                f"a frame of {size} bytes is over this server's limit of {self.limit} "
                f"(replies up to WATERCOLOUR_MAX_REPLY_BYTES={self.max_reply_bytes})",
                "VALIDATION_ERROR",
            )
        try:
            message = json.loads(text)
        except ValueError:
            return None  # OpenEnv answers INVALID_JSON itself and keeps the session
        if not isinstance(message, dict):
            return f"a message is a JSON object with type and data, not {type(message).__name__}", "VALIDATION_ERROR"
        return None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Wraps `receive` on `/ws`; every other scope passes straight through."""
        if scope["type"] != "websocket" or scope.get("path") != "/ws":
            await self.app(scope, receive, send)
            return

        async def guarded_receive() -> Any:
            while True:
                event = await receive()
                if event["type"] != "websocket.receive":
                    return event
                problem = self.problem(event)
                if problem is None:
                    return event
                log.info("refused a websocket frame: %s", problem[0])
                await send(error_frame(*problem))

        await self.app(scope, guarded_receive, send)
