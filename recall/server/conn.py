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

The body has its own limit in the :class:`~recall.server.gate.Gate` (``body_timeout_s``).
"""

from __future__ import annotations

import asyncio
import json

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
    transport: asyncio.Transport
    loop: asyncio.AbstractEventLoop
    _header_timer: asyncio.TimerHandle | None = None

    def _arm(self) -> None:
        if self._header_timer is None:
            self._header_timer = self.loop.call_later(self.header_timeout_s, self._timed_out)

    def _disarm(self) -> None:
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None

    def _timed_out(self) -> None:
        self._header_timer = None
        if not self.transport.is_closing():
            message = (
                f"the request headers did not arrive within {self.header_timeout_s:g} s "
                "(RECALL_SERVER_HEADER_TIMEOUT_S); send the whole request at once"
            )
            self.transport.write(_answer(408, "Request Timeout", message))
            self.transport.close()


def bounded_protocol(header_timeout_s: float, max_header_bytes: int) -> type[asyncio.Protocol]:
    """uvicorn's HTTP protocol class with a header deadline (see the module docs)."""
    try:
        import httptools  # noqa: F401  (uvicorn's own test for its faster parser)
    except ImportError:
        return _h11(header_timeout_s, max_header_bytes)
    return _httptools(header_timeout_s, max_header_bytes)


def _httptools(header_timeout_s: float, max_header_bytes: int) -> type[asyncio.Protocol]:
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

    class Bounded(_HeaderDeadline, HttpToolsProtocol):
        """httptools: the parser says when a request begins and when its headers end."""

        _header_bytes = 0

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            self._arm()

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            super().connection_lost(exc)

        def on_message_begin(self) -> None:
            super().on_message_begin()
            self._header_bytes = 0
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

    Bounded.header_timeout_s = header_timeout_s
    Bounded.max_header_bytes = max_header_bytes
    return Bounded


def _h11(header_timeout_s: float, max_header_bytes: int) -> type[asyncio.Protocol]:
    import h11
    from uvicorn.protocols.http.h11_impl import H11Protocol

    class Bounded(_HeaderDeadline, H11Protocol):
        """h11: a request's headers are in once the peer's state leaves IDLE."""

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            self._arm()

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            super().connection_lost(exc)

        def data_received(self, data: bytes) -> None:
            super().data_received(data)
            if self.conn.their_state is h11.IDLE:
                self._arm()  # part of a request's head: the clock runs
            else:
                self._disarm()

    Bounded.header_timeout_s = header_timeout_s
    Bounded.max_header_bytes = max_header_bytes
    return Bounded
