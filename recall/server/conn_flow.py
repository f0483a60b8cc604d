"""Back-pressure on a connection, and one address's share of the server's door.

uvicorn reads a connection for as long as its client sends, and answers into it for as
long as its client sends requests, read or not: its own flow control stops a response's
writer while the socket's buffer is full, but every request's ``receive`` turns reading
back on, so a client that pipelines requests and never reads its answers had the server
parse them all and queue them (issue 35: 26.9 MB of ``GET /healthz`` on 16 sockets took
the server from 454 to 1,990 MB). :class:`FlowBounds`, mixed into uvicorn's protocol class
by :mod:`recall.server.conn`, bounds what one connection can make the server hold:

- **unsent bytes**: the transport's write buffer pauses the writer past
  ``max_unsent_bytes``; while it is paused the next request is not started, and no more
  requests are read;
- **pipelined requests**: at most ``max_pipelined`` parsed requests wait behind the one
  being answered; the bytes read past them (one socket read, 256 KiB at most) are held
  unparsed, and the socket is not read again until they are used;
- **a write deadline**: a connection whose unsent bytes do not shrink for
  ``write_timeout_s`` (its client does not read) is dropped, its buffers with it;
- **memory given back**: a closed connection's queued requests and held bytes go at once.

And the share of one address (:class:`ClientShare`): at most ``max_client_connections``
connections and ``max_client_requests`` requests in flight per client address (an IPv6
address by its /64), so one address cannot take every slot of ``max_connections``; past
them a JSON 503 with ``Retry-After``.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import json
import socket
import struct
from collections.abc import Iterator
from typing import Any

__all__ = ["ClientShare", "FlowBounds", "SHARE_ASIDE", "client_key", "json_answer"]

#: The scope key of a context manager that sets the request aside from its address's
#: requests in flight while it waits (:mod:`recall.server.keyless`): a wait holds no work.
SHARE_ASIDE = "recall_share_aside"


def json_answer(status: int, reason: str, message: str, extra: str = "") -> bytes:
    """A whole HTTP/1.1 answer, ``{"error", "status"}`` JSON, that closes the connection."""
    body = json.dumps({"error": message, "status": status}).encode()
    head = (
        f"HTTP/1.1 {status} {reason}\r\ncontent-type: application/json\r\n"
        f"content-length: {len(body)}\r\n{extra}connection: close\r\n\r\n"
    )
    return head.encode("ascii") + body


def client_key(host: str | None) -> str | None:
    """The share a client address counts against: the address, an IPv6 one by its /64
    (one host may hold a whole /64)."""
    if host is None:
        return None
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return host
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.ip_network(f"{host}/64", strict=False))
    return str(address)


class ClientShare:
    """Connections and requests in flight per client address, for one server."""

    def __init__(self, max_connections: int, max_requests: int) -> None:
        self.max_connections = max_connections
        self.max_requests = max_requests
        self.connections: dict[str, int] = {}
        self.requests: dict[str, int] = {}

    def enter(self, key: str | None) -> bool:
        """Count a new connection from ``key``; False (nothing counted) past the cap."""
        if key is None:
            return True
        n = self.connections.get(key, 0)
        if n >= self.max_connections:
            return False
        self.connections[key] = n + 1
        return True

    def leave(self, key: str) -> None:
        n = self.connections.get(key, 0) - 1
        if n > 0:
            self.connections[key] = n
        else:
            self.connections.pop(key, None)

    def app(self, inner: Any, key: str | None) -> Any:
        """``inner`` (an ASGI app) counting the requests in flight from ``key``."""
        if key is None:
            return inner
        requests = self.requests

        async def shared(scope: Any, receive: Any, send: Any) -> None:
            n = requests.get(key, 0)
            if n >= self.max_requests:
                await _busy(send, self.max_requests)
                return
            requests[key] = n + 1
            scope[SHARE_ASIDE] = lambda: self._aside(key)
            try:
                await inner(scope, receive, send)
            finally:
                self._done(key)

        return shared

    def _done(self, key: str) -> None:
        left = self.requests[key] - 1
        if left:
            self.requests[key] = left
        else:
            del self.requests[key]

    @contextlib.contextmanager
    def _aside(self, key: str) -> Iterator[None]:
        """The request is not counted in flight while the block runs."""
        self._done(key)
        try:
            yield
        finally:
            self.requests[key] = self.requests.get(key, 0) + 1


async def _busy(send: Any, cap: int) -> None:
    message = (
        f"this address has {cap} requests in flight (RECALL_SERVER_MAX_CLIENT_REQUESTS); "
        "wait for their answers, then retry"
    )
    body = json.dumps({"error": message, "status": 503}).encode()
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode()),
        (b"retry-after", b"1"),
    ]
    await send({"type": "http.response.start", "status": 503, "headers": headers})
    await send({"type": "http.response.body", "body": body})


class _GuardedFlow:
    """uvicorn's ``FlowControl`` (the same five methods and two flags its protocols and
    their cycles use), whose ``resume_reading`` waits while the connection holds what it
    may: uvicorn resumes reading on every ``receive`` and every answer."""

    def __init__(self, transport: asyncio.Transport, owner: FlowBounds) -> None:
        self._transport = transport
        self._owner = owner
        self.read_paused = False
        self.write_paused = False
        self._is_writable_event = asyncio.Event()
        self._is_writable_event.set()

    async def drain(self) -> None:
        await self._is_writable_event.wait()

    def pause_reading(self) -> None:
        if not self.read_paused:
            self.read_paused = True
            self._transport.pause_reading()

    def resume_reading(self) -> None:
        if self.read_paused and not self._owner._hold_reads():
            self.read_paused = False
            self._transport.resume_reading()

    def pause_writing(self) -> None:
        if not self.write_paused:
            self.write_paused = True
            self._is_writable_event.clear()

    def resume_writing(self) -> None:
        if self.write_paused:
            self.write_paused = False
            self._is_writable_event.set()


class FlowBounds:
    """The per-connection bounds (see the module docs); mixed in before uvicorn's class,
    whose ``on_response_complete`` starts the next pipelined request."""

    max_pipelined: int = 8
    max_unsent_bytes: int = 64 * 1024
    write_timeout_s: float = 30.0
    transport: asyncio.Transport
    loop: asyncio.AbstractEventLoop
    flow: Any  # uvicorn's FlowControl, then _GuardedFlow
    _deferred = False  # an answer is complete but its bytes wait: the next request waits
    _watch: asyncio.TimerHandle | None = None
    _watch_size = 0

    def _bound_flow(self) -> None:
        """Called once the transport is set: its write limit and the guarded flow."""
        self.transport.set_write_buffer_limits(high=self.max_unsent_bytes)
        # The kernel's send buffer too: left alone, Linux grows it to megabytes for a
        # client that does not read, and the server answers thousands of pipelined
        # requests into it before its own buffer fills (the CPU, not the memory, of it).
        sock = self.transport.get_extra_info("socket")
        with contextlib.suppress(OSError, AttributeError):
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, self.max_unsent_bytes)
        self.flow = _GuardedFlow(self.transport, self)  # what uvicorn's cycles will use

    def _hold_reads(self) -> bool:
        """True while no more bytes should be read (the parser's classes add theirs)."""
        return self._deferred

    def _after_answer(self) -> bool:
        """At the end of an answer: True to go on to the next request now, False (the
        answer's bytes wait in the buffer past ``max_unsent_bytes``) to wait for them."""
        self._watch_writes()
        if self.flow.write_paused and not self.transport.is_closing():
            self._deferred = True
            return False
        self._deferred = False
        return True

    def _answer_done(self) -> None:
        """uvicorn's end of an answer (the parser's class runs it)."""
        raise NotImplementedError

    def pause_writing(self) -> None:
        self.flow.pause_writing()
        self._watch_writes()

    def resume_writing(self) -> None:
        self.flow.resume_writing()
        if self._deferred and not self.transport.is_closing():
            self._answer_done()

    def _watch_writes(self) -> None:
        """Arm the write deadline while unsent bytes wait."""
        if self._watch is None:
            size = self.transport.get_write_buffer_size()
            if size:
                self._watch_size = size
                self._watch = self.loop.call_later(self.write_timeout_s, self._write_check)

    def _write_check(self) -> None:
        self._watch = None
        size = self.transport.get_write_buffer_size()
        if not size:
            return
        if size < self._watch_size:  # the client reads, slowly: another period
            self._watch_writes()
            return
        # The client reads nothing: drop the connection and what it holds (close() would
        # wait for the buffer to drain, that is forever), the kernel's copy too (a reset,
        # not a FIN behind megabytes the client will not read).
        sock = self.transport.get_extra_info("socket")
        with contextlib.suppress(OSError, AttributeError):
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        self.transport.abort()

    def _release(self) -> None:
        """On connection_lost: the timers and the bytes this connection held."""
        if self._watch is not None:
            self._watch.cancel()
            self._watch = None
        self._deferred = False
