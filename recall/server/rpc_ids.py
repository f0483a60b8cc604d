"""MCP request ids checked before the SDK reads a message: an id that is no string or
integer gets a JSON-RPC Invalid Request (-32600, ``id: null``), over HTTP and stdio.

JSON-RPC 2.0 and MCP take a string or an integer as a request's id (MCP: never null). The
SDK reads a message whose id is an object, an array, a float, a boolean or null as a
notification (the id dropped), and a notification gets no answer: silence on stdio, an
empty 202 over HTTP, while the client waits for its answer. :class:`CheckedIds` (before
``/mcp``) and :func:`checked_lines` (stdio) answer such a message themselves, and refuse
a body that is not UTF-8 (RFC 8259) with a parse error (-32700) saying so. Messages with
no ``method`` (a client's answers to the server) are left to the SDK.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterable, AsyncIterator, Awaitable, Callable, Sequence
from typing import Any

from starlette.responses import JSONResponse
from starlette.routing import BaseRoute, Route
from starlette.types import ASGIApp, Receive, Scope, Send

from .bodies import replayed

__all__ = ["CheckedIds", "bad_id_error", "checked_lines", "checked_routes"]

INVALID_REQUEST = -32600
PARSE_ERROR = -32700
_NOT_UTF8 = "Parse error: the body is not UTF-8 text; send UTF-8 JSON (RFC 8259)"


def _error(code: int, message: str) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": None, "error": {"code": code, "message": message}}


def bad_id_error(message: object) -> dict[str, Any] | None:
    """The JSON-RPC error answering ``message`` (a parsed request, notification or batch)
    when it carries an id no request may have; None when its ids are fine."""
    for item in message if isinstance(message, list) else [message]:
        if not isinstance(item, dict) or "method" not in item or "id" not in item:
            continue
        rid = item["id"]
        if isinstance(rid, str) or (isinstance(rid, int) and not isinstance(rid, bool)):
            continue
        kind = "null" if rid is None else type(rid).__name__
        kind = {"dict": "an object", "list": "an array", "float": "a float"}.get(kind, kind)
        return _error(
            INVALID_REQUEST,
            f"Invalid Request: a request's id must be a string or an integer, got {kind}",
        )
    return None


def _check(raw: bytes | str) -> dict[str, Any] | None:
    """The error answering the body or line ``raw``, or None: the SDK reads it."""
    try:
        text = raw.decode("utf-8") if isinstance(raw, bytes) else raw
    except UnicodeDecodeError:
        return _error(PARSE_ERROR, _NOT_UTF8)
    if '"id"' not in text:  # most notifications: no need to parse twice
        return None
    try:
        return bad_id_error(json.loads(text))
    except (ValueError, RecursionError):
        return None  # not JSON: the SDK's parse error


class CheckedIds:
    """The ``/mcp`` ASGI app behind a check of each POSTed message's id (module docs).
    The body is whole by now (the Gate read it), so reading it here costs no wait."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "POST":
            await self.app(scope, receive, send)
            return
        chunks: list[bytes] = []
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            chunks.append(message.get("body", b""))
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        error = _check(body)
        if error is not None:
            await JSONResponse(error, status_code=400)(scope, receive, send)
            return
        await self.app(scope, replayed(body, receive), send)


def checked_routes(routes: Sequence[BaseRoute]) -> list[BaseRoute]:
    """The MCP app's ``routes``, each behind :class:`CheckedIds`."""
    return [
        Route(r.path, CheckedIds(r.app), methods=r.methods and sorted(r.methods), name=r.name)
        if isinstance(r, Route)
        else r
        for r in routes
    ]


async def checked_lines(
    lines: AsyncIterable[bytes], refuse: Callable[[dict[str, Any]], Awaitable[None]]
) -> AsyncIterator[str]:
    """The lines of ``lines`` the SDK may read, as text; each other line's error goes to
    ``refuse`` (to be written back to the host) instead."""
    async for line in lines:
        error = _check(line) if line.strip() else None
        if error is None:
            yield line.decode("utf-8")
        else:
            await refuse(error)
