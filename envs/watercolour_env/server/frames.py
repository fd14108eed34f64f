"""Frames OpenEnv's websocket loop would die on get an error frame instead, and the session lives.

OpenEnv 0.10 closes a session on a binary frame (`receive_text` fails), on JSON that is not an
object (`.get` on a list), on JSON its parser refuses with something other than a decode error
(nesting 100,000 deep, an integer of 5,000 digits) and on a lone surrogate in a field its error
answer would echo; and it parses any frame up to uvicorn's 16 MiB. This ASGI middleware
sits in front of `/ws` and answers those frames itself, in OpenEnv's own error shape
(`{"type": "error", "data": {"message", "code"}}`), without passing them on; the session keeps
its episode. Everything else goes through untouched.
"""

from __future__ import annotations

import json
import logging
from typing import Any

from watercolour_env.models import WatercolourAction
from watercolour_env.server.auth import ASGIApp, Receive, Scope, Send

log = logging.getLogger(__name__)

ACTION_FIELDS = frozenset(WatercolourAction.model_fields)
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
        except json.JSONDecodeError:
            return None  # OpenEnv answers INVALID_JSON itself and keeps the session
        except (ValueError, RecursionError) as err:  # an integer of over 4,300 digits; deep nesting
            return f"Invalid JSON: {type(err).__name__}: {str(err)[:120]}", "INVALID_JSON"
        if not isinstance(message, dict):
            return f"a message is a JSON object with type and data, not {type(message).__name__}", "VALIDATION_ERROR"
        data = message.get("data")
        if isinstance(data, dict) and isinstance(data.get("reply"), str) and set(data) <= ACTION_FIELDS:
            # a reply may hold anything: the gate judges it (a lone surrogate is "unparseable")
            message = {**message, "data": {**data, "reply": ""}}
        try:  # elsewhere OpenEnv's error answer, which echoes the field, cannot encode a lone surrogate
            json.dumps(message, ensure_ascii=False).encode("utf-8")
        except UnicodeEncodeError:
            return "a string in the message holds a lone surrogate (not valid Unicode)", "VALIDATION_ERROR"
        except RecursionError:
            return "the message is nested too deeply", "INVALID_JSON"
        return None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Wraps `receive` on `/ws` and bounds HTTP bodies; every other scope passes straight through."""
        if scope["type"] == "http":
            await self._bounded_http(scope, receive, send)
            return
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

    async def _bounded_http(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Reads an HTTP body of at most the frame limit, then replays it; a larger one is a 413."""
        declared = dict(scope.get("headers", [])).get(b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > self.limit:
            await _too_large(send, self.limit)
            return
        events, size = [], 0
        while True:
            event = await receive()
            events.append(event)
            if event["type"] != "http.request":
                break
            size += len(event.get("body", b""))
            if size > self.limit:
                await _too_large(send, self.limit)
                return
            if not event.get("more_body", False):
                break

        async def replay() -> Any:
            return events.pop(0) if events else await receive()

        await self.app(scope, replay, send)


async def _too_large(send: Send, limit: int) -> None:
    body = json.dumps({"detail": f"the request body is over this server's limit of {limit} bytes"}).encode()
    await send({"type": "http.response.start", "status": 413, "headers": [(b"content-type", b"application/json")]})
    await send({"type": "http.response.body", "body": body})
