"""Bounded connections on a real uvicorn server on 127.0.0.1: a client that never finishes
its headers, one that trickles its body, a flood of silent sockets, an idle keep-alive;
meanwhile an authenticated client is still served."""

from __future__ import annotations

import json
import socket
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import httpx
import pytest
from live_server import free_port, running

import recall
from recall.server import ApiKeys, build_app
from recall.server.conn import bounded_protocol
from recall.server.settings import ServerSettings

pytestmark = pytest.mark.slow  # a real server per test, and timers of a second

KEY = "acme-key-0123456789"
AUTH = {"authorization": f"Bearer {KEY}"}
LIMITS = {
    "header_timeout_s": 1.0,
    "body_timeout_s": 1.0,
    "keep_alive_s": 0.5,
    "max_connections": 8,
}


@contextmanager
def _server(mem: recall.Memory, parser: str = "auto", **limits: Any) -> Iterator[tuple[str, int]]:
    """uvicorn on 127.0.0.1 in a thread, with the options ``recall serve`` uses."""
    conf = ServerSettings().model_copy(update={**LIMITS, **limits, "port": free_port()})
    app = build_app(mem, keys=ApiKeys([(KEY, "acme")]), settings=conf)
    http = bounded_protocol(
        conf.header_timeout_s, conf.max_header_bytes, conf.max_connections, parser=parser
    )
    with running(app, conf, http=http):
        yield "127.0.0.1", conf.port


def _connect(addr: tuple[str, int]) -> socket.socket:
    sock = socket.create_connection(addr, timeout=5)
    return sock


def _read_until_closed(sock: socket.socket, limit_s: float = 5.0) -> bytes:
    """Everything the server sends until it closes (socket.timeout past ``limit_s``). A
    reset is a close too: a server that answers and closes while bytes the client sent are
    still unread in its buffer (a trickled body) makes the kernel send RST, not FIN."""
    sock.settimeout(limit_s)
    data = b""
    try:
        while chunk := sock.recv(65536):
            data += chunk
    except ConnectionResetError:
        pass
    return data


def _json_answer(raw: bytes) -> tuple[int, dict[str, Any]]:
    head, _, body = raw.partition(b"\r\n\r\n")
    status = int(head.split(b" ", 2)[1])
    assert b"application/json" in head.lower(), head
    return status, json.loads(body)


def _served(addr: tuple[str, int]) -> float:
    """An authenticated client's recall is answered (a 404 while bob holds nothing yet); the
    seconds it took."""
    started = time.monotonic()
    r = httpx.post(
        f"http://{addr[0]}:{addr[1]}/v1/users/acme:bob/recall",
        json={"query": "anything"},
        headers=AUTH,
        timeout=10,
    )
    assert r.status_code == 200 or (r.status_code == 404 and "holds no memory" in r.text), r.text
    return time.monotonic() - started


@pytest.mark.parametrize("parser", ["httptools", "h11"])
def test_a_client_that_never_finishes_its_headers_is_closed(
    mem: recall.Memory, parser: str
) -> None:
    with _server(mem, parser, header_timeout_s=2.0) as addr:
        partial = _connect(addr)
        partial.sendall(b"POST /v1/users/acme:bob/notes HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        silent = _connect(addr)  # connects and never says a word
        started = time.monotonic()
        assert _served(addr) < 1.8  # served while the slow two still hold their sockets
        for sock in (partial, silent):
            with sock:
                status, body = _json_answer(_read_until_closed(sock))
            assert status == 408 and "RECALL_SERVER_HEADER_TIMEOUT_S" in body["error"]
        assert 1.8 < time.monotonic() - started < 5


def test_a_trickled_body_answers_408_and_closes(mem: recall.Memory) -> None:
    with _server(mem) as addr, _connect(addr) as sock:
        sock.sendall(
            b"POST /v1/users/acme:bob/notes HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            b"Authorization: Bearer " + KEY.encode() + b"\r\n"
            b"Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n"
            b'{"notes": ['
        )
        started = time.monotonic()
        sock.settimeout(0.25)
        answer = b""
        while not answer and time.monotonic() - started < 5:  # a byte every 0.25 s
            sock.sendall(b" ")
            try:
                answer = sock.recv(65536)
            except TimeoutError:
                continue
        elapsed = time.monotonic() - started
        answer += _read_until_closed(sock)
        _served(addr)
    status, body = _json_answer(answer)
    assert status == 408 and "RECALL_SERVER_BODY_TIMEOUT_S" in body["error"]
    assert 0.8 < elapsed < 4
    assert mem.records("acme:bob") == []


def test_a_flood_of_silent_sockets_does_not_shut_others_out(mem: recall.Memory) -> None:
    with _server(mem) as addr:
        flood = [_connect(addr) for _ in range(int(LIMITS["max_connections"]))]
        time.sleep(0.3)  # the server has accepted them all
        with _connect(addr) as extra:  # over the cap: answered and closed at once
            status, body = _json_answer(_read_until_closed(extra, 2))
        assert status == 503 and "RECALL_SERVER_MAX_CONNECTIONS" in body["error"]
        started = time.monotonic()
        for sock in flood:  # the header timer frees every slot ...
            with sock:
                assert _json_answer(_read_until_closed(sock))[0] == 408
        assert time.monotonic() - started < 3
        _served(addr)  # ... and an authenticated client is served again


def test_an_idle_keep_alive_connection_is_closed(mem: recall.Memory) -> None:
    with _server(mem) as addr, _connect(addr) as sock:
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        started = time.monotonic()
        answer = _read_until_closed(sock)
        assert answer.startswith(b"HTTP/1.1 200") and time.monotonic() - started < 3


def test_get_mcp_is_refused_not_held(mem: recall.Memory) -> None:
    with _server(mem) as addr:
        r = httpx.get(
            f"http://{addr[0]}:{addr[1]}/mcp",
            headers={**AUTH, "accept": "text/event-stream"},
            timeout=5,
        )
        assert r.status_code == 405 and r.json()["status"] == 405


def test_a_header_value_that_never_ends_is_cut_at_the_cap(mem: recall.Memory) -> None:
    # httptools buffers a header value until the next header: the raw bytes are counted.
    with _server(mem, "httptools", max_header_bytes=4096, header_timeout_s=5.0) as addr:
        sock = _connect(addr)
        with sock:
            sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-A: ")
            try:
                for _ in range(64):
                    sock.sendall(b"a" * 1024)
                    time.sleep(0.005)
            except OSError:
                pass  # the server closed on us mid-stream: that is the point
            status, body = _json_answer(_read_until_closed(sock))
        assert status == 431 and "RECALL_SERVER_MAX_HEADER_BYTES" in body["error"]
        big = httpx.post(  # a body far over the header cap, in the same packets as headers
            f"http://{addr[0]}:{addr[1]}/v1/users/acme:bob/notes",
            json={"notes": [{"text": "x" * 20_000}]},
            headers=AUTH,
            timeout=10,
        )
        assert big.status_code == 201, big.text
