"""MCP over stdio that answers every line: a line that is not JSON-RPC gets an error back.

The SDK's stdio transport hands a line it cannot parse to the server as an exception, and
the server drops it: the host waits for an answer that never comes. :func:`run_stdio`
keeps the SDK's transport (stdin and stdout claimed as it claims them, one writer for the
wire) and puts a relay between it and the server: a line that is not JSON is answered with
a JSON-RPC parse error (-32700), a JSON value that is not a JSON-RPC message with an
invalid-request error (-32600, with its id when it has a usable one); the server keeps
serving. Blank lines are skipped.
"""

from __future__ import annotations

import json
import sys
from typing import Any

import anyio
from mcp.server import MCPServer
from mcp.server.stdio import stdio_server
from mcp.shared.message import SessionMessage
from mcp_types import (
    INVALID_REQUEST,
    PARSE_ERROR,
    ErrorData,
    JSONRPCError,
    jsonrpc_message_adapter,
)
from pydantic import ValidationError

from .handshake import Early

__all__ = ["error_for", "run_stdio"]


def _request_id(inputs: list[Any]) -> str | int | None:
    for value in inputs:
        if isinstance(value, dict):
            rid = value.get("id")
            if isinstance(rid, str) or (isinstance(rid, int) and not isinstance(rid, bool)):
                return rid
    return None


def error_for(exc: Exception) -> JSONRPCError | None:
    """The JSON-RPC error answering the line the transport failed to read as ``exc``;
    None for a blank line (nothing to answer)."""
    if not isinstance(exc, ValidationError):
        return JSONRPCError(
            jsonrpc="2.0",
            id=None,
            error=ErrorData(code=PARSE_ERROR, message=f"Parse error: {type(exc).__name__}"),
        )
    errors = exc.errors()
    if any(e["type"] == "json_invalid" for e in errors):
        line = errors[0].get("input")
        if isinstance(line, str) and not line.strip():
            return None
        message = "Parse error: the line is not JSON; send one JSON-RPC message per line"
        return JSONRPCError(
            jsonrpc="2.0", id=None, error=ErrorData(code=PARSE_ERROR, message=message)
        )
    message = "Invalid Request: not a JSON-RPC 2.0 request, notification or response"
    return JSONRPCError(
        jsonrpc="2.0",
        id=_request_id([e.get("input") for e in errors]),
        error=ErrorData(code=INVALID_REQUEST, message=message),
    )


async def run_stdio(server: MCPServer[Any], early: Early | None = None) -> None:
    """Serve ``server`` over stdin and stdout until stdin closes, answering bad lines.

    ``early``: the host's first line, already read, and what was answered to it before
    the SDK loaded (:mod:`.handshake`). The line goes to the server first, as if just
    read; the server's own answer to a request answered early is not sent again (said on
    stderr when it differs from the early one)."""
    # The SDK serves stdio through its low-level server exactly like this, with the
    # transport's read stream where the relay's is.
    lowlevel = server._lowlevel_server
    async with stdio_server() as (from_wire, to_wire):
        send, receive = anyio.create_memory_object_stream[SessionMessage | Exception](0)
        out, outgoing = anyio.create_memory_object_stream[SessionMessage](0)

        async def deliver(item: SessionMessage | Exception) -> None:
            if isinstance(item, SessionMessage):
                await send.send(item)
                return
            answer = error_for(item)
            if answer is not None:
                # Through the transport's writer: one writer, no torn lines.
                await to_wire.send(SessionMessage(answer))

        async def relay() -> None:
            try:
                async with send:
                    if early is not None and early.line.strip():
                        await deliver(_read(early.line))
                    async for item in from_wire:
                        await deliver(item)
            except (anyio.BrokenResourceError, anyio.ClosedResourceError):
                pass  # the server stopped reading: it is shutting down

        async def forward() -> None:
            # Closing the transport's writer when the server's stream ends lets the
            # transport finish (as the server closes it when it writes there itself).
            async with outgoing, to_wire:
                async for message in outgoing:
                    if not _answered_early(message, early):
                        await to_wire.send(message)

        async with anyio.create_task_group() as tg:
            tg.start_soon(forward)  # ends when the server's stream closes, all sent
            async with anyio.create_task_group() as reading:
                reading.start_soon(relay)
                async with out:
                    await lowlevel.run(receive, out, lowlevel.create_initialization_options())
                reading.cancel_scope.cancel()


def _read(line: bytes) -> SessionMessage | Exception:
    """A line as the SDK's stdio transport reads it."""
    try:
        text = line.decode("utf-8", errors="replace")
        return SessionMessage(jsonrpc_message_adapter.validate_json(text, by_name=False))
    except Exception as exc:  # the transport hands the relay what failed, as this does
        return exc


def _answered_early(message: SessionMessage, early: Early | None) -> bool:
    """Whether ``message`` is the server's answer to the request ``early`` answered."""
    if early is None or early.answered is None:
        return False
    sent = message.message.model_dump(by_alias=True, exclude_unset=True, mode="json")
    if sent.get("id") != early.answered or "method" in sent:
        return False
    if sent.get("result") != early.result:
        print(
            "recall serve: the MCP SDK answers initialize otherwise than recall did early: "
            f"{json.dumps(sent.get('result'), ensure_ascii=False)} (recall.server.handshake)",
            file=sys.stderr,
        )
    return True
