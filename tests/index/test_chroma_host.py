"""The embedded Chroma store in a child process (``storage.chroma_process``).

The memory a child-hosted store keeps is the one an in-process store keeps: the same
vectors, found by the same queries, read back by an in-process open of the folder. A
child killed mid-life loses nothing acknowledged: the write is stored, the index lags,
and the next call starts a new child and catches up. Its errors arrive as StoreError.
``recall serve --transport http`` runs the store in a child by default.
"""

from __future__ import annotations

import logging
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import numpy as np
import pytest
from chroma_server import free_port
from subproc import children, cmdline, wait_up

import recall
from recall.errors import StoreError, chroma_errors
from recall.index.chroma_host import ChromaHostError, HostedClient
from recall.index.layout import index_key

SMALL = {"vector_partitions": 2}


def _host(mem: recall.Memory) -> HostedClient:
    client = mem._vectors.client
    assert isinstance(client, HostedClient)
    return client


@pytest.fixture
def hosted(tmp_path: Path) -> Iterator[recall.Memory]:
    m = recall.open(
        settings=recall.Settings(path=tmp_path / "memory", chroma_process="on", **SMALL)
    )
    yield m
    m.close()


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:  # gone, and reaped
        return False
    return state != "Z"


def test_a_hosted_store_keeps_what_an_in_process_one_reads(
    hosted: recall.Memory, tmp_path: Path
) -> None:
    kept = hosted.add("my sister Ana moved to Lisbon for a design job", user_id="u1")
    gone = hosted.add("the invoice for march is overdue", user_id="u1")
    hosted.add("tea at five with the hotel manager", user_id="u2")
    hosted.delete(gone, user_id="u1")
    hosted.update_memory("Ana loves the river walks in Lisbon", user_id="u1")
    hits = hosted.deep_recall("Ana Lisbon design job", user_id="u1")
    assert hits and hits[0].id == kept
    pid = _host(hosted).pid
    assert pid is not None and _alive(pid)
    matrix = hosted._vectors.load("u1")
    hosted.close()
    assert not _alive(pid)  # close() ends the child

    plain = recall.open(settings=recall.Settings(path=tmp_path / "memory", **SMALL))
    try:
        assert not isinstance(plain._vectors.client, HostedClient)
        again = plain._vectors.load("u1")
        assert sorted(again.ids) == sorted(matrix.ids) and gone not in again.ids
        order = [again.ids.index(i) for i in matrix.ids]
        np.testing.assert_allclose(again.matrix[order], matrix.matrix, atol=1e-6)
        assert [h.id for h in plain.deep_recall("Ana Lisbon design job", user_id="u1")] == [
            h.id for h in hits
        ]
        key = index_key(plain.spec)
        assert plain._store.index_version(key, "u1") == plain._store.version("u1")
    finally:
        plain.close()


def test_a_killed_child_loses_nothing_and_is_started_again(
    hosted: recall.Memory, caplog: pytest.LogCaptureFixture
) -> None:
    hosted.add("first note about the garden", user_id="u1")
    old = _host(hosted).pid
    assert old is not None
    os.kill(old, signal.SIGKILL)
    deadline = time.monotonic() + 10  # the client may reap it first: wait, do not waitpid
    while _alive(old) and time.monotonic() < deadline:
        time.sleep(0.05)
    # The write is stored and acknowledged whatever happens to its indexing: the first
    # call to reach the dead child fails (the write's upsert, logged and left lagging, or
    # the background rebuild a write starts) and the next one starts a new child.
    with caplog.at_level(logging.WARNING, logger="recall"):
        note = hosted.add("the kubernetes upgrade is on friday", user_id="u1")
        assert hosted._store.records("u1", ids=[note])[0].text.startswith("the kubernetes")
    # A read starts a new child and catches the index up.
    hits = hosted.deep_recall("kubernetes upgrade friday", user_id="u1")
    assert [h.id for h in hits][:1] == [note]
    key = index_key(hosted.spec)
    new = _host(hosted).pid
    assert new is not None and new != old and _alive(new)
    assert hosted._store.index_version(key, "u1") == hosted._store.version("u1")
    assert "restarting the vector store process" in caplog.text


def test_the_childs_errors_are_store_errors(hosted: recall.Memory) -> None:
    client = _host(hosted)
    with pytest.raises(ChromaHostError, match="nope-nope"):
        client.get_collection("nope-nope")
    with pytest.raises(StoreError, match="Chroma failed while counting"), chroma_errors("counting"):
        client.call("nope-nope", "count", (), {})
    with pytest.raises(ChromaHostError, match="no collection call 'modify'"):
        client.call("nope-nope", "modify", (), {})
    with pytest.raises(AttributeError):
        client.get_or_create_collection("fine-name").modify  # noqa: B018  (not forwarded)
    assert hosted.stats()["records"] == 0  # the child still answers after its errors


def test_a_folder_the_child_cannot_open_fails_at_open(tmp_path: Path) -> None:
    blocker = tmp_path / "memory" / "chroma"
    blocker.parent.mkdir()
    blocker.write_text("not a folder")
    with pytest.raises(StoreError, match="vector store process"):
        recall.open(settings=recall.Settings(path=tmp_path / "memory", chroma_process="on"))


@pytest.mark.slow
@pytest.mark.real_model
def test_recall_serve_hosts_the_store_in_a_child(tmp_path: Path) -> None:
    port = free_port()
    folder = tmp_path / "m"
    cmd = [sys.executable, "-m", "recall.cli", "serve", "--transport", "http"]
    cmd += ["--path", str(folder), "--port", str(port)]
    proc = subprocess.Popen(cmd, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    try:
        wait_up(url)
        hosts = [p for p in children(proc.pid) if b"chroma_host" in cmdline(p)]
        assert len(hosts) == 1
        # The server yields to its one writer: its threads 10 nice steps down, the child's
        # not (both from where this test runs: CI may itself run niced).
        base = os.getpriority(os.PRIO_PROCESS, 0)
        assert set(_nice(proc.pid)) == {min(19, base + 10)}
        assert set(_nice(hosts[0])) == {base}
        body = {"summary": "Ana moved to Lisbon for a design job"}
        r = httpx.post(f"{url}/v1/users/u1/memories", json=body, timeout=60)
        assert r.status_code == 201
        r = httpx.post(f"{url}/v1/users/u1/recall", json={"query": "Ana Lisbon"}, timeout=60)
        assert r.status_code == 200 and r.json()["hits"]
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=60)
    deadline = time.monotonic() + 15  # the child ends when the server closes its memory
    while _alive(hosts[0]) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not _alive(hosts[0])
    with recall.open(settings=recall.Settings(path=folder)) as mem:
        assert mem.stats()["lagging_users"] == 0
        assert mem.deep_recall("Ana Lisbon", user_id="u1")


def _nice(pid: int) -> list[int]:
    """The nice value of every thread of ``pid``."""
    out = []
    for stat in Path(f"/proc/{pid}/task").glob("*/stat"):
        try:
            out.append(int(stat.read_text().rsplit(")", 1)[1].split()[16]))
        except OSError:
            continue
    return out


_YIELD = """
import os, threading
from recall.server.threads import yield_threads
stop = threading.Event()
before = threading.Thread(target=stop.wait)
before.start()
assert yield_threads(0) == 0
done = yield_threads(3)
after = threading.Thread(target=stop.wait)
after.start()
tids = [int(t) for t in os.listdir("/proc/self/task")]
print(done, sorted({os.getpriority(os.PRIO_PROCESS, t) for t in tids}))
stop.set()
"""


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="Linux threads only")
def test_yield_threads_lowers_every_thread_and_those_started_later() -> None:
    # In a process of its own: lowering this one would slow the rest of the suite.
    out = subprocess.run(
        [sys.executable, "-c", _YIELD], capture_output=True, text=True, check=True, timeout=60
    ).stdout.split(maxsplit=1)
    base = os.getpriority(os.PRIO_PROCESS, 0)
    assert int(out[0]) >= 2 and out[1].strip() == f"[{min(19, base + 3)}]"
