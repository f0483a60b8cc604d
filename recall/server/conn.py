"""Connections with a deadline for their headers: uvicorn's HTTP protocols, bounded.

uvicorn times out a connection only between requests (``timeout_keep_alive``, armed after
a response). A client that connects and sends nothing, or sends headers a byte at a time,
holds its socket and a slot of ``limit_concurrency`` for as long as it likes; a few hundred
of them shut everyone else out. :func:`bounded_protocol` gives uvicorn's protocol class
(httptools when installed, as uvicorn's "auto" picks, else h11) with one more timer: from
the connection's first moment, or a request's first byte, to the end of that request's
headers. When it runs out the client gets a JSON 408 and the connection is closed.
The header bytes are capped too (h11 by ``h11_max_incomplete_event_size``, httptools here:
uvicorn sets no cap of its own on the httptools path).

Past ``max_connections`` open connections a new one is answered a JSON 503 and closed at
once. uvicorn's own ``limit_concurrency`` answers plain text, and only once the extra
connection has sent a request: until then it holds a socket, the very thing a flood of
silent clients runs the server out of.

The body has its own limit in the :class:`~recall.server.gate.Gate` (``body_timeout_s``).
"""

from __future__ import annotations

import asyncio
import json
from typing import Any, cast

__all__ = ["bounded_protocol"]


def _answer(status: int, reason: str, message: str) -> bytes:
    body = json.dumps({"error": message, "status": status}).encode()
    head = (
        f"HTTP/1.1 {status} {reason}\r\ncontent-type: application/json\r\n"
        f"content-length: {len(body)}\r\nconnection: close\r\n\r\n"
    )
    return head.encode("ascii") + body


class _HeaderDeadline:
    """The timer shared by both protocol classes; mixed in before uvicorn's class."""

    header_timeout_s: float = 10.0
    max_header_bytes: int = 64 * 1024
    max_connections: int = 256
    transport: asyncio.Transport
    connections: set[Any]
    loop: asyncio.AbstractEventLoop
    _header_timer: asyncio.TimerHandle | None = None

    def _admit(self) -> None:
        """Arm the header timer, or turn the connection away when the server is full."""
        if len(self.connections) > self.max_connections:
            message = (
                f"the server holds {self.max_connections} connections "
                "(RECALL_SERVER_MAX_CONNECTIONS); retry shortly"
            )
            self.transport.write(_answer(503, "Service Unavailable", message))
            self.transport.close()
            return
        self._arm()

    def _arm(self) -> None:
        if self._header_timer is None:
            self._header_timer = self.loop.call_later(self.header_timeout_s, self._timed_out)

    def _disarm(self) -> None:
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None

    # Raw bytes of the header phase (httptools keeps a header value in its own buffer until
    # the next header starts, so a value that never ends reaches no parser callback).
    _raw_bytes = 0
    _tail = b""

    def _header_phase_fits(self, data: bytes) -> bool:
        """Count ``data`` while the headers are awaited; False (431 sent, connection
        closed) once they pass ``max_header_bytes`` with no end in sight."""
        if self._header_timer is None:
            return True
        seen = self._tail + data
        if b"\r\n\r\n" in seen:
            self._raw_bytes = 0  # the headers end in this chunk: the rest is the body
        else:
            self._raw_bytes += len(data)
            if self._raw_bytes > self.max_header_bytes:
                self._disarm()
                message = (
                    f"the request headers are over {self.max_header_bytes} bytes "
                    "(RECALL_SERVER_MAX_HEADER_BYTES); send fewer or shorter headers"
                )
                self.transport.write(_answer(431, "Request Header Fields Too Large", message))
                self.transport.close()
                return False
        self._tail = seen[-3:]
        return True

    def _timed_out(self) -> None:
        self._header_timer = None
        if not self.transport.is_closing():
            message = (
                f"the request headers did not arrive within {self.header_timeout_s:g} s "
                "(RECALL_SERVER_HEADER_TIMEOUT_S); send the whole request at once"
            )
            self.transport.write(_answer(408, "Request Timeout", message))
            self.transport.close()


def bounded_protocol(
    header_timeout_s: float, max_header_bytes: int, max_connections: int, *, parser: str = "auto"
) -> type[asyncio.Protocol]:
    """uvicorn's HTTP protocol class with a header deadline and a connection cap (see the
    module docs); ``parser``: "auto" (httptools when installed, as uvicorn picks), "h11" or
    "httptools"."""
    if parser == "auto":
        try:
            import httptools  # noqa: F401  (uvicorn's own test for its faster parser)
        except ImportError:
            parser = "h11"
        else:
            parser = "httptools"
    make = _h11 if parser == "h11" else _httptools
    # A new class per call (made inside the factory), so setting its limits touches no other.
    protocol = make()
    protocol.header_timeout_s = header_timeout_s
    protocol.max_header_bytes = max_header_bytes
    protocol.max_connections = max_connections
    return cast("type[asyncio.Protocol]", protocol)


def _httptools() -> type[_HeaderDeadline]:
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

    class Bounded(_HeaderDeadline, HttpToolsProtocol):
        """httptools: the parser says when a request begins and when its headers end."""

        _header_bytes = 0

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            self._admit()

        def data_received(self, data: bytes) -> None:
            if self._header_phase_fits(data):
                super().data_received(data)

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            super().connection_lost(exc)

        def on_message_begin(self) -> None:
            super().on_message_begin()
            self._header_bytes = self._raw_bytes = 0
            self._arm()

        def on_url(self, url: bytes) -> None:
            self._count(len(url))
            super().on_url(url)

        def on_header(self, name: bytes, value: bytes) -> None:
            self._count(len(name) + len(value))
            super().on_header(name, value)

        def on_headers_complete(self) -> None:
            self._disarm()
            super().on_headers_complete()

        def _count(self, n: int) -> None:
            self._header_bytes += n
            if self._header_bytes > self.max_header_bytes:
                # Raised inside a parser callback: uvicorn answers 400 and closes.
                raise ValueError("request headers over the limit")

    return Bounded


def _h11() -> type[_HeaderDeadline]:
    import h11
    from uvicorn.protocols.http.h11_impl import H11Protocol

    class Bounded(_HeaderDeadline, H11Protocol):
        """h11: a request's headers are in once the peer's state leaves IDLE."""

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            self._admit()

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            super().connection_lost(exc)

        def data_received(self, data: bytes) -> None:
            super().data_received(data)
            if self.conn.their_state is h11.IDLE:
                self._arm()  # part of a request's head: the clock runs
            else:
                self._disarm()

    return Bounded
