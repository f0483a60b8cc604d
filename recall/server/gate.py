"""The HTTP front door: who may call, from where, with what, and how large and how slow.

An ASGI middleware in front of both the REST routes and the MCP endpoint, so neither can
be reached around it. In order, before any route runs:

1. **Host** (421): the ``Host`` header must name this server: ``localhost``, a loopback
   address, the bound address, the address the connection arrived on, or one of
   ``RECALL_SERVER_ALLOWED_HOSTS``. A DNS-rebinding page reaches a loopback server under
   its own name (``Host: evil.example``), so this is what keeps it out.
2. **Origin** (403): a browser request carries ``Origin``; only a loopback page, the
   server's own origin or one of ``RECALL_SERVER_ALLOWED_ORIGINS`` gets in. No Origin (a
   script, curl, an agent host) passes.
3. **Who** (400/401/403): one ``Authorization`` (or ``X-API-Key``) header at most; with
   API keys, every non-public path needs a known key; without,
   only loopback clients get in, whatever address the server was bound to. The key is
   read from the headers, or, for a GET or HEAD under ``/ui`` only (the read-only
   inspector), the token its login page keeps in a cookie (:func:`~recall.server.auth.ui_token`):
   a cookie, which a browser attaches by itself, never authorizes a write, ``/v1`` or ``/mcp``.
4. **What** (415): a write (POST, a DELETE with a body) under ``/v1`` must say its body is
   JSON (JSONL for an import); a method no route of the path takes (PUT, PATCH, a DELETE
   or POST where none is) gets the router's 405 whatever its body.
   A cross-site page can send ``text/plain`` or a form without asking the server first;
   it cannot send ``application/json`` without a CORS preflight, which this server never
   grants.
5. **How large, how slow** (413, 408): the body is read here in full, by its
   ``Content-Length`` or as it streams, up to ``max_body_bytes`` (``max_public_body_bytes``
   on a path that needs no key) and within ``body_timeout_s``; the route then gets it at
   once, so no handler waits on a slow client.

A request with no valid key (a public path, a refusal) first waits its turn in the keyless
budget (:mod:`recall.server.keyless`). A request refused before its body is read (any of
the above, or a 404 or 405) has its body left unread, and its connection closed after the
answer: a client cannot make the server read megabytes only to refuse them.

``GET /mcp`` answers 405: the MCP endpoint is stateless and answers in JSON, so it never
has anything to push on a standalone stream, and an idle stream would hold a connection.
Every refusal is ``{"error", "status"}`` JSON naming the setting that would let it in
(under ``/ui``, the same message as a page).
The Host and Origin rules (steps 1 and 2) live in :mod:`recall.server.doors`.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence

import anyio
from starlette.responses import JSONResponse
from starlette.routing import BaseRoute, Match
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..errors import InputError
from .auth import ApiKeys, is_loopback, is_ui_path, key_from_headers, ui_token
from .bodies import replayed
from .doors import Doors
from .errors import BodyTimeoutError, ForbiddenError, MediaTypeError, TooLargeError
from .keyless import KeylessBudget, carries_key, take_turn
from .rest import error_response
from .settings import ServerSettings
from .ui import html_error

__all__ = ["Doors", "Gate"]

# The methods the API writes with; any other (PUT, PATCH) reaches the router, which
# answers 405 for it, not a 415 about its body.
_WRITES = frozenset({"POST", "DELETE"})
# The inspector's token comes in the Cookie header: one of those too (a browser sends one).
_CREDENTIALS = (b"authorization", b"x-api-key", b"cookie")


def _one_credential(raw: list[tuple[bytes, bytes]]) -> None:
    """InputError (400) for a request with two ``Authorization`` (or ``X-API-Key``, or
    ``Cookie``) headers: the gate and the handlers must never read different keys."""
    for name in _CREDENTIALS:
        if sum(1 for k, _ in raw if k.lower() == name) > 1:
            raise InputError(
                f"send one {name.decode().title()} header, not several: which key is meant "
                "is ambiguous"
            )


_JSON = frozenset({"application/json"})
# An import body is a JSONL export; JSON is accepted too, a form or plain text never.
_JSONL = frozenset({"application/json", "application/x-ndjson", "application/jsonl"})
_IMPORT = re.compile(r"^/v1/users/[^/]+/import$")
_MCP = "/mcp"


class Gate:
    """Host and Origin rules, authentication, the loopback rule, the content type, and the
    body's size and time limits, before any route."""

    def __init__(
        self,
        app: ASGIApp,
        *,
        keys: ApiKeys | None,
        settings: ServerSettings,
        public: Collection[str] = (),
        routes: Sequence[BaseRoute] = (),
    ) -> None:
        self.app = app
        self.keys = keys
        self.doors = Doors.from_settings(settings)
        self.max_body_bytes = settings.max_body_bytes
        self.max_public_body_bytes = settings.max_public_body_bytes
        #: The app's routes: a request none takes (404, 405) has no body read. Empty: not
        #: checked here (the router still answers).
        self.routes = tuple(routes)
        self.body_timeout_s = settings.body_timeout_s
        self.public = frozenset(public)
        self.keyless = KeylessBudget(
            settings.keyless_rate, settings.keyless_burst, settings.keyless_total_rate
        )

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        declared = _declares_body(headers)
        routed, keyed = True, False
        try:
            _one_credential(scope["headers"])
            keyed = self._admit(scope, headers)
            routed = not declared or not self.routes or self._routed(scope)
            if routed:
                self._check_length(scope, headers)
        except Exception as exc:
            await self._refuse(exc, scope, receive, send, keyed=keyed, declared=declared)
            return
        if not keyed and not await take_turn(self.keyless, scope, send):
            return
        if scope["method"] == "GET" and scope["path"] == _MCP:
            await _no_stream(scope, receive, send)
        elif not routed:
            await self.app(scope, receive, _closing(send))  # the router's 404 or 405
        else:
            await self._forward(scope, receive, send)

    async def _refuse(
        self, exc: Exception, scope: Scope, receive: Receive, send: Send, **how: bool
    ) -> None:
        """Answer a refused request (``how``: keyed, declared), its turn waited when keyless."""
        keyless = not (how["keyed"] or carries_key(self.keys, scope))
        if keyless and not await take_turn(self.keyless, scope, send):
            return
        answer = html_error(exc) if is_ui_path(scope["path"]) else error_response(exc)
        if how["declared"]:  # its body stays unread: close rather than parse it as a request
            answer.headers["connection"] = "close"
        await answer(scope, receive, send)

    async def _forward(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Read the body within its limits, then hand the request to the route."""
        try:
            body = await self._read_body(receive, self._body_limit(scope))
        except (TooLargeError, BodyTimeoutError) as exc:
            # The rest of the body may still be on the wire: close rather than parse it as
            # the next request.
            answer = error_response(exc)
            answer.headers["connection"] = "close"
            await answer(scope, receive, send)
            return
        if body is None:  # the client went away before its body was in
            return
        await self.app(scope, replayed(body, receive), send)

    def _admit(self, scope: Scope, headers: dict[str, str]) -> bool:
        """Raise for a request refused; else whether it is keyed (never charged to the
        keyless budget): a valid key, or a keyless server's loopback client off the public
        paths."""
        host = headers.get("host")
        self.doors.check_host(host, scope)
        self.doors.check_origin(headers.get("origin"), host)
        if scope["path"] in self.public:
            keyed = carries_key(self.keys, scope)
        elif self.keys is None:
            client = scope.get("client")
            if not is_loopback(client[0] if client else None):
                raise ForbiddenError(
                    "this server has no API keys, so it answers loopback clients only; "
                    "configure RECALL_SERVER_API_KEYS to serve other hosts"
                )
            keyed = True
        else:
            token = ui_token(headers, scope["method"], scope["path"])
            self.keys.tenant(key_from_headers(headers), ui=token)
            keyed = True
        if not self.routes or self._routed(scope):  # no route takes it: a 405, not a 415
            self._check_media_type(scope, headers)
        return keyed

    def _check_length(self, scope: Scope, headers: dict[str, str]) -> None:
        length = headers.get("content-length")
        limit = self._body_limit(scope)
        if length is not None and length.isdigit() and int(length) > limit:
            raise TooLargeError(self._too_large(limit))

    @staticmethod
    def _check_media_type(scope: Scope, headers: dict[str, str]) -> None:
        method, path = scope["method"], scope["path"]
        if method not in _WRITES or not path.startswith("/v1/"):
            return
        has_body = headers.get("content-length", "0") != "0" or "transfer-encoding" in headers
        if method == "DELETE" and not has_body:
            return
        raw = headers.get("content-type")
        media = (raw or "").split(";", 1)[0].strip().lower()
        accepted = _JSONL if _IMPORT.match(path) else _JSON
        if media not in accepted:
            wanted = " or ".join(f"'Content-Type: {m}'" for m in sorted(accepted))
            got = f"{raw!r}" if raw else "no Content-Type"
            raise MediaTypeError(
                f"{method} {path} takes a JSON body: send {wanted} (got {got}); a form or "
                "text/plain write is refused so that no web page can write here"
            )

    def _body_limit(self, scope: Scope) -> int:
        return self.max_public_body_bytes if scope["path"] in self.public else self.max_body_bytes

    def _routed(self, scope: Scope) -> bool:
        """Whether a route takes this path and method (else the router answers 404/405)."""
        return any(route.matches(scope)[0] is Match.FULL for route in self.routes)

    def _too_large(self, limit: int) -> str:
        name = "PUBLIC_BODY_BYTES" if limit == self.max_public_body_bytes else "BODY_BYTES"
        return (
            f"the request body is over {limit} bytes (RECALL_SERVER_MAX_{name}); send less "
            "per request"
        )

    async def _read_body(self, receive: Receive, limit: int) -> bytes | None:
        """The whole body, within the size and time limits; None when the client left."""
        chunks: list[bytes] = []
        seen = 0
        with anyio.move_on_after(self.body_timeout_s):
            while True:
                message = await receive()
                if message["type"] == "http.disconnect":
                    return None
                chunk = message.get("body", b"")
                seen += len(chunk)
                if seen > limit:
                    raise TooLargeError(self._too_large(limit))
                chunks.append(chunk)
                if not message.get("more_body", False):
                    return b"".join(chunks)
        raise BodyTimeoutError(
            f"the request body did not arrive within {self.body_timeout_s:g} s "
            f"(RECALL_SERVER_BODY_TIMEOUT_S; {seen} bytes came); send it at once"
        )


def _declares_body(headers: dict[str, str]) -> bool:
    """Whether the request says a body follows (a Content-Length over 0, or chunks)."""
    return headers.get("content-length", "0").strip() not in ("0", "") or (
        "transfer-encoding" in headers
    )


def _closing(send: Send) -> Send:
    """``send`` whose answer closes the connection (the request's body is left unread)."""

    async def closing(message: Message) -> None:
        if message["type"] == "http.response.start":
            headers = [*message.get("headers", []), (b"connection", b"close")]
            message = {**message, "headers": headers}
        await send(message)

    return closing


async def _no_stream(scope: Scope, receive: Receive, send: Send) -> None:
    # The MCP spec's answer for a server that offers no standalone SSE stream.
    body = {
        "error": "this MCP endpoint is stateless and answers each POST in JSON; it opens no "
        "GET stream",
        "status": 405,
    }
    await JSONResponse(body, status_code=405, headers={"allow": "POST, DELETE"})(
        scope, receive, send
    )
