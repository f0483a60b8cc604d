"""The HTTP front door: who may call, and how large a request may be.

An ASGI middleware in front of both the REST routes and the MCP endpoint, so neither can
be reached around it. With API keys, every non-public path needs a known key (401 before
any work); without keys, only loopback clients get in (403), whatever address the server
was bound to. A body over ``max_body_bytes`` answers 413, by its ``Content-Length`` or,
when streamed, as soon as it passes the limit.
"""

from __future__ import annotations

from collections.abc import Collection

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .auth import ApiKeys, is_loopback, key_from_headers
from .errors import ForbiddenError, TooLargeError
from .rest import error_response

__all__ = ["Gate"]


class Gate:
    """Authentication, the loopback rule and the body limit, before any route."""

    def __init__(
        self,
        app: ASGIApp,
        *,
        keys: ApiKeys | None,
        max_body_bytes: int,
        public: Collection[str] = (),
    ) -> None:
        self.app = app
        self.keys = keys
        self.max_body_bytes = max_body_bytes
        self.public = frozenset(public)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        try:
            self._admit(scope, headers)
        except Exception as exc:
            await error_response(exc)(scope, receive, send)
            return
        await self._limited(scope, receive, send)

    def _admit(self, scope: Scope, headers: dict[str, str]) -> None:
        if scope["path"] not in self.public:
            if self.keys is None:
                client = scope.get("client")
                if not is_loopback(client[0] if client else None):
                    raise ForbiddenError(
                        "this server has no API keys, so it answers loopback clients only; "
                        "configure RECALL_SERVER_API_KEYS to serve other hosts"
                    )
            else:
                self.keys.tenant(key_from_headers(headers))
        length = headers.get("content-length")
        if length is not None and length.isdigit() and int(length) > self.max_body_bytes:
            raise TooLargeError(self._too_large())

    def _too_large(self) -> str:
        return (
            f"the request body is over {self.max_body_bytes} bytes "
            "(RECALL_SERVER_MAX_BODY_BYTES); send less per request"
        )

    async def _limited(self, scope: Scope, receive: Receive, send: Send) -> None:
        seen = 0
        started = False

        async def counted() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.max_body_bytes:
                    raise TooLargeError(self._too_large())
            return message

        async def watched(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, counted, watched)
        except TooLargeError as exc:
            if started:
                raise
            await error_response(exc)(scope, receive, send)
