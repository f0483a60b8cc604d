"""The Chroma server path: a real `chroma run` on 127.0.0.1, started and stopped here."""

from __future__ import annotations

import json
import re
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

import recall
from recall import StoreError

# A real `chroma run` server process per module: slow to start.
pytestmark = pytest.mark.slow


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class ChromaServer:
    def __init__(self, data: Path, port: int) -> None:
        self.data, self.port = data, port
        self.url = f"http://127.0.0.1:{port}"
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        chroma = Path(sys.executable).parent / "chroma"
        self.proc = subprocess.Popen(
            [
                str(chroma),
                "run",
                "--host",
                "127.0.0.1",
                "--port",
                str(self.port),
                "--path",
                str(self.data),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(f"{self.url}/api/v2/heartbeat", timeout=1) as r:
                    json.load(r)
                    return
            except OSError:
                time.sleep(0.2)
        self.stop()
        raise RuntimeError("chroma run did not come up in 60 s")

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.terminate()
            self.proc.wait(timeout=30)
            self.proc = None


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ChromaServer]:
    srv = ChromaServer(tmp_path / "chroma-server", _free_port())
    srv.start()
    yield srv
    srv.stop()


def test_server_round_trip_and_outage(
    server: ChromaServer, tmp_path: Path, embedder: recall.Embedder
) -> None:
    s = recall.Settings(path=tmp_path / "mem", vector_partitions=4, chroma_timeout_s=5)
    mem = recall.open(chroma_url=server.url, settings=s)
    a = mem.add("We chose Redis for the session cache.", user_id="u1")
    mem.add("Secret of another user: the cache is Memcached.", user_id="u2")
    hits = mem.deep_recall("cache", user_id="u1", top_k=5)
    assert [h.id for h in hits] == [a] and hits[0].vector_score is not None
    assert not hits[0].degraded

    server.stop()
    # The write is kept in the store even with the vector store down ...
    b = mem.add("The cache TTL is 300 seconds.", user_id="u1")
    # ... a query that needs the vector store says so, naming the URL ...
    with pytest.raises(StoreError, match=f"127.0.0.1:{server.port}"):
        mem.deep_recall("cache ttl", user_id="u1")
    # ... and falls back to keywords only when the caller allows it, flagged in every hit.
    degraded = mem.deep_recall("cache ttl", user_id="u1", allow_degraded=True)
    assert {h.id for h in degraded} == {a, b}
    assert all(h.degraded and h.vector_score is None for h in degraded)

    server.start()
    healed = mem.deep_recall("cache ttl", user_id="u1")
    assert healed[0].id == b and not healed[0].degraded and healed[0].vector_score is not None
    mem.close()


def test_unreachable_server_is_store_error(tmp_path: Path, embedder: recall.Embedder) -> None:
    s = recall.Settings(path=tmp_path / "mem", vector_partitions=2, chroma_timeout_s=2)
    url = f"http://127.0.0.1:{_free_port()}"
    with pytest.raises(StoreError, match="make chroma-server"):
        mem = recall.open(chroma_url=url, settings=s)
        mem.add("x", user_id="u1")
        mem.deep_recall("x", user_id="u1")


def test_silent_server_times_out_as_store_error(tmp_path: Path, embedder: recall.Embedder) -> None:
    # A listener that accepts connections and never answers: the client's timeout must come
    # back as our StoreError naming the URL, within a bounded time.
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(64)
    url = f"http://127.0.0.1:{listener.getsockname()[1]}"
    s = recall.Settings(path=tmp_path / "mem", vector_partitions=2, chroma_timeout_s=1)
    started = time.monotonic()
    try:
        with pytest.raises(StoreError, match=re.escape(url)):
            mem = recall.open(chroma_url=url, settings=s)
            mem.add("x", user_id="u1")
            mem.deep_recall("x", user_id="u1")
    finally:
        listener.close()
    assert time.monotonic() - started < 60


def test_chroma_url_from_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, embedder: recall.Embedder
) -> None:
    url = f"http://127.0.0.1:{_free_port()}"
    monkeypatch.setenv("RECALL_CHROMA_URL", url)
    monkeypatch.setenv("RECALL_CHROMA_TIMEOUT_S", "2")
    with pytest.raises(StoreError, match=re.escape(url)):
        mem = recall.open(tmp_path / "mem")
        mem.add("x", user_id="u1")
        mem.deep_recall("x", user_id="u1")


def test_server_down_at_open_degraded_start(tmp_path: Path, embedder: recall.Embedder) -> None:
    """With allow_degraded_open, a server down at open is the same as an outage after it."""
    port = _free_port()
    url = f"http://127.0.0.1:{port}"
    s = recall.Settings(path=tmp_path / "mem", vector_partitions=2, chroma_timeout_s=2)
    with pytest.raises(StoreError, match="make chroma-server"):  # the default: refuse
        recall.open(chroma_url=url, settings=s)

    mem = recall.open(chroma_url=url, settings=s.replace(allow_degraded_open=True))
    a = mem.add("We chose Redis for the session cache.", user_id="u1")  # stored, index lags
    with pytest.raises(StoreError, match=re.escape(url)):
        mem.deep_recall("cache", user_id="u1")
    degraded = mem.deep_recall("session cache", user_id="u1", allow_degraded=True)
    assert [h.id for h in degraded] == [a] and degraded[0].degraded

    server = ChromaServer(tmp_path / "chroma-server", port)
    server.start()
    try:
        healed = mem.deep_recall("session cache", user_id="u1")
        assert healed[0].id == a and healed[0].vector_score is not None
        assert not healed[0].degraded
        mem.close()
    finally:
        server.stop()
