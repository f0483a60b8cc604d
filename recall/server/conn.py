"""Connections bounded in time, bytes and share: uvicorn's HTTP protocols, with limits.

uvicorn times out a connection only between requests (``timeout_keep_alive``, armed after
a response). A client that connects and sends nothing, or sends headers a byte at a time,
holds its socket and a slot of ``limit_concurrency`` for as long as it likes; a few hundred
of them shut everyone else out. :func:`bounded_protocol` gives uvicorn's protocol class
(httptools when installed, as uvicorn's "auto" picks, else h11) with one more timer: from
the connection's first moment, or a request's first byte, to the end of that request's
headers. When it runs out the client gets a JSON 408 and the connection is closed.
The header bytes are capped too (h11 by ``h11_max_incomplete_event_size``, httptools here:
uvicorn sets no cap of its own on the httptools path): a JSON 431.

Past ``max_connections`` open connections, or ``max_client_connections`` from one client
address, a new one is answered a JSON 503 and closed at once. uvicorn's own
``limit_concurrency`` answers plain text, and only once the extra connection has sent a
request: until then it holds a socket, the very thing a flood of silent clients runs the
server out of. A request uvicorn cannot parse (raw bytes, a bad ``Content-Length``) is a
JSON 400, not uvicorn's plain text.

What one connection may make the server hold (unsent answers, pipelined requests, a write
deadline) is :mod:`recall.server.conn_flow`'s; the body has its own limit in the
:class:`~recall.server.gate.Gate` (``body_timeout_s``).
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any, cast

from .conn_door import HeaderDeadline
from .conn_flow import ClientShare, FlowBounds
from .settings import ServerSettings

__all__ = ["bounded_protocol", "protocol_for"]

#: Bytes handed to httptools at a time outside a request body: the parser queues every
#: request in what it is given, so a pipelined flood is cut where the queue is full.
_SLICE = 1024
#: A queued (pipelined) request's body held while it waits its turn (uvicorn's mark).
_QUEUED_BODY = 64 * 1024


def bounded_protocol(
    header_timeout_s: float,
    max_header_bytes: int,
    max_connections: int,
    *,
    parser: str = "auto",
    max_client_connections: int = 64,
    max_client_requests: int = 32,
    max_pipelined: int = 8,
    max_unsent_bytes: int = 64 * 1024,
    write_timeout_s: float = 30.0,
) -> type[asyncio.Protocol]:
    """uvicorn's HTTP protocol class with a header deadline, connection caps (the server's
    and one address's) and back-pressure (see the module docs and
    :mod:`~recall.server.conn_flow`); ``parser``: "auto" (httptools when installed, as
    uvicorn picks), "h11" or "httptools"."""
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
    protocol.share = ClientShare(max_client_connections, max_client_requests)
    protocol.max_pipelined = max_pipelined
    protocol.max_unsent_bytes = max_unsent_bytes
    protocol.write_timeout_s = write_timeout_s
    return cast("type[asyncio.Protocol]", protocol)


def protocol_for(conf: ServerSettings, parser: str = "auto") -> type[asyncio.Protocol]:
    """:func:`bounded_protocol` with the limits of ``conf``."""
    return bounded_protocol(
        conf.header_timeout_s,
        conf.max_header_bytes,
        conf.max_connections,
        parser=parser,
        max_client_connections=conf.max_client_connections,
        max_client_requests=conf.max_client_requests,
        max_pipelined=conf.max_pipelined,
        max_unsent_bytes=conf.max_unsent_bytes,
        write_timeout_s=conf.write_timeout_s,
    )


class _Bounds(HeaderDeadline, FlowBounds):
    """Both mixins, as the two parser classes take them."""

    def _opened(self) -> None:
        """A connection made: its flow bounded and its address admitted."""
        self._bound_flow()
        self._admit()

    def _closed(self) -> None:
        """A connection lost: its deadline, its address's share and its held bytes freed."""
        self._disarm()
        self._leave_share()
        self._release()


if TYPE_CHECKING:  # the bases the mixins below are written against (imported lazily)
    from uvicorn.protocols.http.h11_impl import H11Protocol as _H11Base
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol as _HttpToolsBase
else:
    _H11Base = _HttpToolsBase = object


class _HttpToolsBounds(_Bounds, _HttpToolsBase):
    """httptools: the parser says when a request begins and when its headers end; it is
    fed a slice at a time, so that it stops where the pipeline is full."""

    _header_bytes = 0
    _held = b""  # read past a full pipeline, not yet parsed
    _body_left = 0  # of the request being parsed, by its Content-Length
    _running: Any = None  # the request being answered (uvicorn's cycle)

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._opened()

    def connection_lost(self, exc: Exception | None) -> None:
        self._closed()
        self._held = b""
        self.pipeline.clear()  # requests that will never run: their memory goes now
        running = self._running
        if running is not None and not running.response_complete:
            # uvicorn marks only the newest parsed request (self.cycle) as cut off; the
            # one being answered, when others were queued behind it, would write on.
            running.disconnected = True
            running.message_event.set()
        super().connection_lost(exc)

    def _start_asgi_task(self, cycle: Any, app: Any) -> None:
        self._running = cycle
        super()._start_asgi_task(cycle, app)

    def _hold_reads(self) -> bool:
        if self._deferred or self._held or len(self.pipeline) >= self.max_pipelined:
            return True
        # A queued request's body waits in memory until its turn: so much and no more.
        return bool(self.pipeline) and len(self.cycle.body) > _QUEUED_BODY

    def data_received(self, data: bytes) -> None:
        if not self._header_phase_fits(data):
            return
        if self._hold_reads():
            self._held += data
            self.flow.pause_reading()
            return
        self._feed(data)

    def _feed(self, data: bytes) -> None:
        view, pos = memoryview(data), 0
        while pos < len(view):
            if self._hold_reads():
                self._held = bytes(view[pos:])
                self.flow.pause_reading()
                return
            step = max(_SLICE, self._body_left)
            super().data_received(view[pos : pos + step])  # type: ignore[arg-type]
            if self.parser is None or self.transport.is_closing():
                return
            pos += step

    def on_response_complete(self) -> None:
        if self._after_answer():
            self._answer_done()

    def _answer_done(self) -> None:
        self._deferred = False
        super().on_response_complete()  # the next pipelined request starts
        if self._held and not self.transport.is_closing():
            data, self._held = self._held, b""
            self._feed(data)
        if not self._held:
            self.flow.resume_reading()

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
        length = next((v for k, v in self.headers if k == b"content-length"), b"")
        self._body_left = int(length) if length.isdigit() else 0
        super().on_headers_complete()

    def on_body(self, body: bytes) -> None:
        self._body_left = max(0, self._body_left - len(body))
        super().on_body(body)

    def on_message_complete(self) -> None:
        self._body_left = 0
        super().on_message_complete()

    def _count(self, n: int) -> None:
        self._header_bytes += n
        if self._header_bytes > self.max_header_bytes:
            # Raised inside a parser callback: uvicorn calls send_400_response.
            self._over_headers = True
            raise ValueError("request headers over the limit")


class _H11Bounds(_Bounds, _H11Base):
    """h11: a request's headers are in once the peer's state leaves IDLE; h11 parses one
    request at a time, the next one's bytes waiting in its buffer."""

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._opened()

    def connection_lost(self, exc: Exception | None) -> None:
        self._closed()
        super().connection_lost(exc)

    def _hold_reads(self) -> bool:
        import h11

        # A whole request is in and more bytes wait unparsed: they are enough.
        waiting = len(getattr(self.conn, "_receive_buffer", b""))
        return self._deferred or (self.conn.their_state is h11.DONE and waiting > 0)

    def data_received(self, data: bytes) -> None:
        import h11

        if not self._header_phase_fits(data):
            return
        super().data_received(data)
        if self.conn.their_state is h11.IDLE:
            self._arm()  # part of a request's head: the clock runs
        else:
            self._disarm()
        if self._hold_reads():
            self.flow.pause_reading()

    def on_response_complete(self) -> None:
        if self._after_answer():
            self._answer_done()

    def _answer_done(self) -> None:
        self._deferred = False
        super().on_response_complete()


def _httptools() -> type[_Bounds]:
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

    class Bounded(_HttpToolsBounds, HttpToolsProtocol):
        """uvicorn's httptools protocol, bounded."""

    return Bounded


def _h11() -> type[_Bounds]:
    from uvicorn.protocols.http.h11_impl import H11Protocol

    class Bounded(_H11Bounds, H11Protocol):
        """uvicorn's h11 protocol, bounded."""

    return Bounded
