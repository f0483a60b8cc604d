"""What one connection, and one address, may make a real uvicorn server hold (issue 35):
pipelined requests that are never read, a client that does not read its answers, one
address's share of the door, bodies of refused requests, uvicorn's own 400s as JSON."""

from __future__ import annotations

import contextlib
import json
import socket
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import httpx
import pytest
import uvicorn
from live_server import free_port, running

import recall
from recall.server import ApiKeys, build_app
from recall.server.conn import protocol_for
from recall.server.settings import ServerSettings

pytestmark = pytest.mark.slow  # a real server per test

KEY = "acme-key-0123456789"
AUTH = {"authorization": f"Bearer {KEY}"}
LIMITS = {
    "header_timeout_s": 5.0,
    "body_timeout_s": 10.0,
    "max_connections": 16,
    "max_client_connections": 3,
    "max_pipelined": 4,
    "write_timeout_s": 1.0,
}
ATTACKER = "127.0.0.2"  # loopback too on Linux: another address than the keyed client's


@contextmanager
def _server(
    mem: recall.Memory, parser: str = "auto", **limits: Any
) -> Iterator[tuple[tuple[str, int], uvicorn.Server]]:
    """uvicorn on 127.0.0.1 in a thread, with the options ``recall serve`` uses."""
    conf = ServerSettings().model_copy(update={**LIMITS, **limits, "port": free_port()})
    app = build_app(mem, keys=ApiKeys([(KEY, "acme")]), settings=conf)
    with running(app, conf, http=protocol_for(conf, parser)) as server:
        yield ("127.0.0.1", conf.port), server


def _connect(addr: tuple[str, int], source: str = "127.0.0.1") -> socket.socket:
    return socket.create_connection(addr, timeout=5, source_address=(source, 0))


def _read_until_closed(sock: socket.socket, limit_s: float = 5.0) -> bytes:
    sock.settimeout(limit_s)
    data = b""
    try:
        while chunk := sock.recv(65536):
            data += chunk
    except ConnectionResetError:
        pass  # dropped (abort): what came before is the answer
    return data


def _json_answer(raw: bytes) -> tuple[int, dict[str, Any], bytes]:
    head, _, body = raw.partition(b"\r\n\r\n")
    status = int(head.split(b" ", 2)[1])
    assert b"application/json" in head.lower(), head
    return status, json.loads(body), head.lower()


def _served(addr: tuple[str, int]) -> None:
    """A keyed client from 127.0.0.1 is answered (404: bob holds nothing yet)."""
    r = httpx.post(
        f"http://{addr[0]}:{addr[1]}/v1/users/acme:bob/recall",
        json={"query": "anything"},
        headers=AUTH,
        timeout=5,
    )
    assert r.status_code == 200 or (r.status_code == 404 and "holds no memory" in r.text), r.text


def _rss_mb() -> float:
    with open("/proc/self/status") as f:
        line = next(x for x in f if x.startswith("VmRSS:"))
    return int(line.split()[1]) / 1024


def _flood(sock: socket.socket, request: bytes, seconds: float) -> int:
    """Send ``request`` pipelined, reading nothing, until the server stops taking bytes
    for half a second (or ``seconds`` pass); the bytes sent."""
    sock.setblocking(False)
    batch, sent, stalled_since = request * 256, 0, None
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        try:
            sent += sock.send(batch)
            stalled_since = None
        except BlockingIOError:
            stalled_since = stalled_since or time.monotonic()
            if time.monotonic() - stalled_since > 0.5:
                break
            time.sleep(0.01)
        except OSError:
            break  # dropped
    sock.setblocking(True)
    return sent


@pytest.mark.parametrize("parser", ["httptools", "h11"])
def test_pipelined_requests_never_read_do_not_grow_the_server(
    mem: recall.Memory, parser: str
) -> None:
    request = b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
    with _server(mem, parser, write_timeout_s=30.0) as (addr, server):
        _served(addr)
        before = _rss_mb()
        socks = [_connect(addr, ATTACKER) for _ in range(2)]
        sent = sum(_flood(s, request, 3) for s in socks)
        # The server stopped reading: what was sent is what the kernel buffers took.
        assert sent < 40 * 1024 * 1024
        for proto in list(server.server_state.connections):
            assert len(getattr(proto, "pipeline", ())) <= 4 + 1024 // len(request)
            assert len(getattr(proto, "_held", b"")) <= 512 * 1024
        # 56x the bytes sent before (issue 35; 34 MB for 9 MB here); bounded now.
        assert _rss_mb() - before < 16, (sent, _rss_mb() - before)
        _served(addr)
        for s in socks:
            s.close()


def test_a_client_that_does_not_read_is_dropped_at_the_write_deadline(
    mem: recall.Memory,
) -> None:
    # /openapi.json is a large answer: a few dozen fill the socket buffers.
    request = b"GET /openapi.json HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
    with _server(mem, max_pipelined=64) as (addr, server):
        sock = _connect(addr, ATTACKER)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        with sock:
            sock.sendall(request * 200)
            started = time.monotonic()
            while not server.server_state.connections and time.monotonic() - started < 2:
                time.sleep(0.01)
            assert server.server_state.connections
            while server.server_state.connections and time.monotonic() - started < 8:
                time.sleep(0.1)
            assert not server.server_state.connections  # dropped, its buffers with it
            assert time.monotonic() - started < 6
            received = _read_until_closed(sock)
        assert received.count(b"HTTP/1.1 200") < 200  # it never got them all
        _served(addr)


def test_one_address_cannot_take_every_connection(mem: recall.Memory) -> None:
    with _server(mem) as (addr, _):
        held = [_connect(addr, ATTACKER) for _ in range(3)]
        time.sleep(0.2)
        with _connect(addr, ATTACKER) as extra:  # the 4th from one address: refused at once
            status, body, head = _json_answer(_read_until_closed(extra, 2))
        assert status == 503 and "RECALL_SERVER_MAX_CLIENT_CONNECTIONS" in body["error"]
        assert b"retry-after: 1" in head
        _served(addr)  # another address is served while the three are held
        held.pop().close()
        time.sleep(0.2)  # its slot is given back
        with _connect(addr, ATTACKER) as again:
            again.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            assert _read_until_closed(again).startswith(b"HTTP/1.1 200")
        for s in held:
            s.close()


def _first_answer(sock: socket.socket, limit_s: float = 3.0) -> bytes:
    """One answer off a keep-alive connection: its head and Content-Length bytes."""
    sock.settimeout(limit_s)
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        assert chunk, data
        data += chunk
    head, _, rest = data.partition(b"\r\n\r\n")
    length = next(
        int(line.split(b":", 1)[1])
        for line in head.lower().split(b"\r\n")
        if line.startswith(b"content-length:")
    )
    while len(rest) < length:
        rest += sock.recv(65536)
    return head + b"\r\n\r\n" + rest[:length]


def test_one_address_has_a_share_of_the_requests_in_flight(mem: recall.Memory) -> None:
    with _server(mem, max_client_requests=1) as (addr, _), _connect(addr, ATTACKER) as slow:
        slow.sendall(  # a body that stalls: its request stays in flight in the Gate
            b"POST /v1/users/acme:bob/notes HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            b"Authorization: Bearer " + KEY.encode() + b"\r\n"
            b"Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"
        )
        time.sleep(0.2)
        with _connect(addr, ATTACKER) as second:
            second.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            status, body, head = _json_answer(_first_answer(second))
        assert status == 503 and "RECALL_SERVER_MAX_CLIENT_REQUESTS" in body["error"]
        assert b"retry-after: 1" in head
        _served(addr)  # another address's request passes


@pytest.mark.parametrize(
    ("request_head", "status"),
    [
        # 401: no key; its 8 MB body is never read
        (b"POST /v1/users/acme:bob/notes HTTP/1.1\r\nContent-Type: application/json\r\n", 401),
        # 404: no such route, with a key
        (
            b"POST /v1/nothing/here HTTP/1.1\r\nContent-Type: application/json\r\n"
            b"Authorization: Bearer " + KEY.encode() + b"\r\n",
            404,
        ),
        # 405: a route, another method
        (b"PUT /healthz HTTP/1.1\r\n", 405),
        # 415: a write that is not JSON
        (
            b"POST /v1/users/acme:bob/notes HTTP/1.1\r\nContent-Type: text/plain\r\n"
            b"Authorization: Bearer " + KEY.encode() + b"\r\n",
            415,
        ),
        # 413: a public path reads a small body at most (it used to read 8 MB)
        (b"GET /healthz HTTP/1.1\r\n", 413),
    ],
)
def test_a_refused_request_is_answered_without_reading_its_body(
    mem: recall.Memory, request_head: bytes, status: int
) -> None:
    with _server(mem) as (addr, _), _connect(addr) as sock:
        sock.sendall(request_head + b"Host: 127.0.0.1\r\nContent-Length: 8000000\r\n\r\n")
        started = time.monotonic()
        got, body, head = _json_answer(_read_until_closed(sock, 3))  # closed: body unread
        assert got == status, body
        assert time.monotonic() - started < 1.5  # not after the 10 s body timeout
        assert b"connection: close" in head


def test_openapi_is_built_once_and_answered_the_same(
    mem: recall.Memory, monkeypatch: pytest.MonkeyPatch
) -> None:
    import recall.server.app as app_module

    built: list[int] = []
    real = app_module.openapi_document  # type: ignore[attr-defined]

    def counted() -> dict[str, Any]:
        built.append(1)
        return real()

    monkeypatch.setattr(app_module, "openapi_document", counted)
    with _server(mem) as (addr, _):
        url = f"http://{addr[0]}:{addr[1]}/openapi.json"
        with httpx.Client() as client:
            answers = [client.get(url) for _ in range(5)]
    assert {r.status_code for r in answers} == {200}
    assert len({r.content for r in answers}) == 1 and answers[0].json()["openapi"]
    assert built == [1]


@pytest.mark.parametrize("parser", ["httptools", "h11"])
@pytest.mark.parametrize(
    ("raw", "status"),
    [
        (b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03garbage\r\n\r\n", 400),  # TLS bytes
        (b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 12abc\r\n\r\n", 400),
        (b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n" + b"X-Big: " + b"a" * 70_000, 431),
    ],
)
def test_uvicorns_own_refusals_are_json(
    mem: recall.Memory, parser: str, raw: bytes, status: int
) -> None:
    with _server(mem, parser) as (addr, _), _connect(addr) as sock:
        with contextlib.suppress(OSError):  # closed on us mid-stream
            sock.sendall(raw + b"\r\n\r\n")
        got, body, _ = _json_answer(_read_until_closed(sock))
        assert got == status and body["status"] == status and body["error"]
