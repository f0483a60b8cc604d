"""The door of a connection: its headers' deadline and size, its admission, its 400s.

Mixed into uvicorn's protocol classes by :mod:`recall.server.conn` (see there): a timer
from the connection's first moment, or a request's first byte, to the end of that
request's headers (a JSON 408 when it runs out); the header bytes capped (a JSON 431);
admission against one address's share and the server's ``max_connections`` (a JSON 503,
the socket closed at once); and uvicorn's plain-text 400 for bytes its parser refuses
answered as JSON.
"""

from __future__ import annotations

import asyncio
from typing import Any

from .conn_flow import ClientShare, client_key, json_answer

__all__ = ["HeaderDeadline"]

_BAD_REQUEST = (
    "the request is not valid HTTP/1.1 (its request line, a header, Content-Length or the "
    "chunked framing); send a well-formed request"
)


class HeaderDeadline:
    """The timer and the door shared by both protocol classes; mixed in first."""

    header_timeout_s: float = 10.0
    max_header_bytes: int = 64 * 1024
    max_connections: int = 256
    share: ClientShare
    transport: asyncio.Transport
    connections: set[Any]
    loop: asyncio.AbstractEventLoop
    client: tuple[str, int] | None
    app: Any
    _header_timer: asyncio.TimerHandle | None = None
    _share_key: str | None = None
    _over_headers = False

    def _admit(self) -> None:
        """Arm the header timer, or turn the connection away when its address holds its
        share, or the server is full."""
        key = client_key(self.client[0] if self.client else None)
        if not self.share.enter(key):
            self._refuse(
                f"this address holds {self.share.max_connections} connections "
                "(RECALL_SERVER_MAX_CLIENT_CONNECTIONS); close some, or retry shortly"
            )
            return
        self._share_key = key
        if len(self.connections) > self.max_connections:
            self._refuse(
                f"the server holds {self.max_connections} connections "
                "(RECALL_SERVER_MAX_CONNECTIONS); retry shortly"
            )
            return
        self.app = self.share.app(self.app, key)  # its requests in flight counted
        self._arm()

    def _refuse(self, message: str) -> None:
        self.transport.write(json_answer(503, "Service Unavailable", message, "retry-after: 1\r\n"))
        self.transport.close()

    def _leave_share(self) -> None:
        if self._share_key is not None:
            self.share.leave(self._share_key)
            self._share_key = None

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
        end = seen.find(b"\r\n\r\n")
        # The head's bytes so far: all of them, or up to its end in this chunk.
        head = self._raw_bytes + (len(data) if end < 0 else end + 4 - len(self._tail))
        if head > self.max_header_bytes:
            self._disarm()
            self._too_long()
            return False
        # The headers end in this chunk: the rest is the body (or the next request).
        self._raw_bytes = head if end < 0 else 0
        self._tail = seen[-3:]
        return True

    def _too_long(self) -> None:
        message = (
            f"the request headers are over {self.max_header_bytes} bytes "
            "(RECALL_SERVER_MAX_HEADER_BYTES); send fewer or shorter headers"
        )
        self.transport.write(json_answer(431, "Request Header Fields Too Large", message))
        self.transport.close()

    def send_400_response(self, _msg: str) -> None:
        """uvicorn's answer to bytes its parser refuses, as JSON (431 past the header cap)."""
        if self._over_headers:
            self._too_long()
            return
        self.transport.write(json_answer(400, "Bad Request", _BAD_REQUEST))
        self.transport.close()

    def _timed_out(self) -> None:
        self._header_timer = None
        if not self.transport.is_closing():
            message = (
                f"the request headers did not arrive within {self.header_timeout_s:g} s "
                "(RECALL_SERVER_HEADER_TIMEOUT_S); send the whole request at once"
            )
            self.transport.write(json_answer(408, "Request Timeout", message))
            self.transport.close()
