"""MCP over stdio that answers every line: a line that is not JSON-RPC gets an error back.

The SDK's stdio transport hands a line it cannot parse to the server as an exception, and
the server drops it: the host waits for an answer that never comes. :func:`run_stdio`
keeps the SDK's transport (stdin and stdout claimed as it claims them, one writer for the
wire) and puts a relay between it and the server: a line that is not JSON is answered with
a JSON-RPC parse error (-32700), a JSON value that is not a JSON-RPC message with an
invalid-request error (-32600, with its id when it has a usable one); the server keeps
serving. Blank lines are skipped. A request whose id is no string or integer, and a line
that is not UTF-8, are answered before the SDK reads them (:mod:`.rpc_ids`): the SDK would
take the first for a notification and say nothing. Standard input is read from a private
copy of descriptor 0, which reads the null device meanwhile (as the SDK's own transport
does), so that no child process reads the host's messages.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import AsyncIterator, Iterator
from contextlib import contextmanager
from typing import Any, cast

import anyio
from anyio.abc import ObjectReceiveStream
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
from .rpc_ids import checked_lines

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
    refusals, refused = anyio.create_memory_object_stream[dict[str, Any]](0)

    async def lines(raw: anyio.AsyncFile[bytes]) -> AsyncIterator[str]:
        async with refusals:  # closed at the end of input: refuse_all() ends
            async for line in checked_lines(raw, refusals.send):
                yield line

    with _stdin() as raw:
        stdin = cast("anyio.AsyncFile[str]", lines(raw))
        async with stdio_server(stdin=stdin) as (from_wire, to_wire):
            await _serve(lowlevel, from_wire, to_wire, refused, early)


async def _serve(
    lowlevel: Any,
    from_wire: Any,
    to_wire: Any,
    refused: ObjectReceiveStream[dict[str, Any]],
    early: Early | None,
) -> None:
    """The relay (module docs) between the transport and ``lowlevel``, the server."""
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
            reading.start_soon(_refuse_all, refused, to_wire)
            async with out:
                await lowlevel.run(receive, out, lowlevel.create_initialization_options())
            reading.cancel_scope.cancel()


async def _refuse_all(refused: ObjectReceiveStream[dict[str, Any]], to_wire: Any) -> None:
    """Each refused line's answer, through the transport's writer (one writer)."""
    async with refused:
        async for error in refused:
            try:
                await to_wire.send(SessionMessage(JSONRPCError.model_validate(error)))
            except (anyio.BrokenResourceError, anyio.ClosedResourceError):
                return


@contextmanager
def _stdin() -> Iterator[anyio.AsyncFile[bytes]]:
    """Standard input's bytes: from a private copy of descriptor 0 while descriptor 0
    reads the null device (restored after), or in place when ``sys.stdin`` is not the
    process's own (a test's runner)."""
    try:
        own = sys.stdin.fileno() == 0
    except (AttributeError, OSError, ValueError):
        own = False
    if not own:
        yield anyio.wrap_file(sys.stdin.buffer)
        return
    private = os.dup(0)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    try:
        # Never closed: a worker thread may still be blocked reading it after the end.
        yield anyio.wrap_file(os.fdopen(private, "rb", closefd=False))
    finally:
        os.dup2(private, 0)


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
