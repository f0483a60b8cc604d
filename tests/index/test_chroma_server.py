"""The Chroma server path: a real `chroma run` on 127.0.0.1, started and stopped here."""

from __future__ import annotations

import re
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from chroma_server import ChromaServer, free_port

import recall
from recall import StoreError

# A real `chroma run` server process per module: slow to start.
pytestmark = pytest.mark.slow


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ChromaServer]:
    srv = ChromaServer(tmp_path / "chroma-server", free_port())
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
    url = f"http://127.0.0.1:{free_port()}"
    with pytest.raises(StoreError, match="chroma run --path DIR"):
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
    url = f"http://127.0.0.1:{free_port()}"
    monkeypatch.setenv("RECALL_CHROMA_URL", url)
    monkeypatch.setenv("RECALL_CHROMA_TIMEOUT_S", "2")
    with pytest.raises(StoreError, match=re.escape(url)):
        mem = recall.open(tmp_path / "mem")
        mem.add("x", user_id="u1")
        mem.deep_recall("x", user_id="u1")


def test_server_down_at_open_degraded_start(tmp_path: Path, embedder: recall.Embedder) -> None:
    """With allow_degraded_open, a server down at open is the same as an outage after it."""
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    s = recall.Settings(path=tmp_path / "mem", vector_partitions=2, chroma_timeout_s=2)
    with pytest.raises(StoreError, match="chroma run --path DIR"):  # the default: refuse
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
