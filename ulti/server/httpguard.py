"""An ASGI middleware in front of the HTTP API: size, content type and origin, checked before routing.

- A body larger than the limit is refused with 413 as soon as its declared length (or the bytes
  received so far) exceed it, so a 20 MiB upload costs the server nothing but the refusal.
- A state-changing request (POST, PUT, PATCH, DELETE under ``/api/``) must carry a JSON body type:
  a form of another site (``text/plain``, ``application/x-www-form-urlencoded``, ``multipart``) can
  be sent cross-site without a preflight, JSON cannot.
- When the session cookie is what authenticates such a request (no ``Authorization`` header),
  the browser's ``Origin`` must be this server's own (or a configured one), as for the WebSocket.
- The JSON body of such a request is read and checked here, whole, before any route sees it
  (``inputs.decode_json``: malformed, too deep, not re-encodable are refused with 400 by name), so a
  route that parses its body by itself, or one added later, can never meet a body that crashes its
  parser: there is no route-by-route check to forget.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any
from urllib.parse import urlsplit

import orjson
from starlette.requests import cookie_parser

from ulti.server.errors import WireError
from ulti.server.inputs import BadInput, decode_json

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

STATE_CHANGING = {"POST", "PUT", "PATCH", "DELETE"}
#: the scope key under which a WebSocket's own ``receive`` and ``send`` (the server's, before the framework
#: wraps them) are left for its route (``socket_routes.py``: every frame skips the wrappers)
SOCKET_CHANNEL = "ulti.socket_channel"


class BodyTooLarge(Exception):
    """The body went over the limit while it was being read."""


def same_origin(origin: str, host: str | None, allowed: tuple[str, ...]) -> bool:
    """Whether a browser's ``Origin`` header names this server (its ``Host``) or a configured origin."""
    if origin in allowed:
        return True
    return host is not None and urlsplit(origin).netloc == host


class RequestGuard:
    """Refuse oversized bodies, non-JSON state changes and cross-site cookie requests before routing."""

    def __init__(
        self,
        app: ASGIApp,
        max_body_bytes: int,
        cookie_name: str,
        allowed_origins: tuple[str, ...] = (),
        on_refusal: Callable[[str], None] | None = None,
    ) -> None:
        """Wrap ``app``; ``on_refusal(code)`` is told of each refusal (metrics), never logged per request."""
        self.app = app
        self.max_body_bytes = max_body_bytes
        self.cookie_name = cookie_name
        self.allowed_origins = allowed_origins
        self.on_refusal = on_refusal

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """The ASGI entry point."""
        if scope["type"] != "http":
            if scope["type"] == "websocket":
                scope[SOCKET_CHANNEL] = (receive, send)
            await self.app(scope, receive, send)
            return
        raw_headers = [(k.decode("latin-1").lower(), v.decode("latin-1")) for k, v in scope.get("headers", [])]
        refusal = self._refusal(scope, dict(raw_headers), self._has_session_cookie(raw_headers))
        if refusal is not None:
            await self._answer(send, *refusal)
            return
        limit = self.max_body_bytes
        if self._json_body(scope, raw_headers):
            await self._checked_json(scope, receive, send)
            return
        received = 0

        async def bounded_receive() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:
                    raise BodyTooLarge
            return message

        started = False

        async def tracking_send(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, bounded_receive, tracking_send)
        except BodyTooLarge:
            if not started:
                await self._answer(
                    send, 413, "too_large", f"a request body may be at most {limit} bytes", {"max_bytes": limit}
                )

    @staticmethod
    def _json_body(scope: Scope, headers: list[tuple[str, str]]) -> bool:
        """Whether the request is a state change under ``/api/`` with a body (``_refusal`` has already
        made sure such a body is declared JSON)."""
        if scope["method"] not in STATE_CHANGING or not scope["path"].startswith("/api/"):
            return False
        fields = dict(headers)
        return fields.get("content-length") not in (None, "0") or "transfer-encoding" in fields

    async def _checked_json(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Read the whole body (bounded), refuse it unless it is JSON the routes can safely parse, then
        hand the app the same bytes as one message."""
        limit = self.max_body_bytes
        chunks: list[bytes] = []
        size = 0
        more = True
        while more:
            message = await receive()
            if message["type"] != "http.request":
                return  # the client went away before its body was complete: nothing to answer
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > limit:
                await self._answer(
                    send, 413, "too_large", f"a request body may be at most {limit} bytes", {"max_bytes": limit}
                )
                return
            chunks.append(chunk)
            more = bool(message.get("more_body", False))
        body = b"".join(chunks)
        if body:  # an empty body is the route's to judge (most answer bad_json or take it as {})
            try:
                decode_json(body, limit, "request body")
            except BadInput as exc:
                await self._answer(send, 413 if exc.code == "too_large" else 400, exc.code, exc.message, exc.params)
                return
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()  # after the body: the disconnect, as the server tells it

        await self.app(scope, replay, send)

    def _has_session_cookie(self, headers: list[tuple[str, str]]) -> bool:
        # every Cookie header, parsed as Starlette parses them (keys stripped): no spelling slips by
        return any(
            name == "cookie" and self.cookie_name in cookie_parser(value) for name, value in headers
        )

    def _refusal(
        self, scope: Scope, headers: dict[str, str], session_cookie: bool
    ) -> tuple[int, str, str, dict[str, int] | None] | None:
        length = headers.get("content-length")
        if length is not None and (not (length.isascii() and length.isdigit()) or int(length) > self.max_body_bytes):
            limit = self.max_body_bytes
            return 413, "too_large", f"a request body may be at most {limit} bytes", {"max_bytes": limit}
        if scope["method"] not in STATE_CHANGING or not scope["path"].startswith("/api/"):
            return None
        content_type = headers.get("content-type", "").split(";")[0].strip().lower()
        has_body = length not in (None, "0") or "transfer-encoding" in headers
        if has_body and content_type != "application/json":
            return 415, "bad_content_type", "a request body must be JSON (content-type: application/json)", None
        # Only a bearer token authenticates without the cookie: any other Authorization (a proxy's
        # Basic credentials, which browsers attach by themselves) leaves the cookie in charge.
        bearer = headers.get("authorization", "").lower().startswith("bearer ")
        if not bearer and session_cookie:
            origin = headers.get("origin")
            if origin is None or not same_origin(origin, headers.get("host"), self.allowed_origins):
                return 403, "bad_origin", "a request authenticated by the session cookie must come from this site", None
        return None

    async def _answer(self, send: Send, status: int, code: str, message: str, args: dict[str, int] | None) -> None:
        if self.on_refusal is not None:
            self.on_refusal(code)
        error: WireError = {"code": code, "message": message}
        if args:
            error["args"] = args  # the values the page words the refusal with (docs/protocol/errors.md §16)
        body = orjson.dumps({"error": error})
        await send(
            {
                "type": "http.response.start",
                "status": status,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())],
            }
        )
        await send({"type": "http.response.body", "body": body})
