"""Keyed writes through a SIGKILL of ``recall serve`` (issue 35, item 4): every retry is
answered within seconds, nothing is stored twice, nothing acknowledged is lost.

A real server on loopback takes 24 keyed writes at once (summaries, each with a marker of
its own, and notes) and is killed with SIGKILL after the first few answers: on SQLite and
on PostgreSQL the whole server, then a new one is started on the same store; under
``--workers 2`` one worker, while the other serves on. Then every write is sent again with
its key. Before, a write in flight at the kill answered 409 "still running" for ten
minutes, and after that ran again: a summary stored twice. The store is counted directly.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor, as_completed
from pathlib import Path
from typing import Any

import httpx
import pytest
from chroma_server import ChromaServer, free_port
from subproc import children, cmdline, recall_env, wait_up

from recall.store.factory import open_store

pytestmark = [pytest.mark.slow, pytest.mark.real_model]  # the served subprocess loads it

WRITES = 24
USERS = 4  # six summaries each: under the short-term capacity, nothing is promoted


def _write(i: int) -> tuple[str, str, dict[str, Any]]:
    """The i-th write: its key, path and body; each carries the marker ``MARK{i}Z``, and
    enough text that indexing it (after its commit, before its answer) takes a while."""
    user, text = f"u{i % USERS}", f"MARK{i}Z: we chose plan {i}. " + _FILLER
    if i % 3 == 2:
        return f"key-{i}", f"/v1/users/{user}/notes", {"notes": [{"text": text}]}
    return f"key-{i}", f"/v1/users/{user}/memories", {"summary": text}


_FILLER = " ".join(f"The depot {n} shipped parcel {n * 7} on route {n % 13}." for n in range(300))


def _post(url: str, i: int, timeout: float = 60) -> tuple[int, dict[str, Any] | None, float]:
    key, path, body = _write(i)
    started = time.monotonic()
    try:
        r = httpx.post(url + path, json=body, headers={"idempotency-key": key}, timeout=timeout)
    except httpx.TransportError:
        return 0, None, time.monotonic() - started  # the server died under it
    return r.status_code, r.json(), time.monotonic() - started


def _serve(folder: Path, port: int, env: dict[str, str], *extra: str) -> subprocess.Popen[bytes]:
    cmd = [sys.executable, "-m", "recall.cli", "serve", "--transport", "http"]
    cmd += ["--path", str(folder), "--port", str(port), *extra]
    proc = subprocess.Popen(cmd, env=env, stderr=subprocess.DEVNULL, start_new_session=True)
    assert wait_up(f"http://127.0.0.1:{port}"), "the server did not come up"
    return proc


def _flood_and_kill(url: str, kill: Any) -> dict[int, dict[str, Any]]:
    """Send every write at once; ``kill()`` after the second answer. The acknowledged
    writes' answers, by write."""
    acked: dict[int, dict[str, Any]] = {}
    with ThreadPoolExecutor(WRITES) as pool:
        futures = {pool.submit(_post, url, i): i for i in range(WRITES)}
        killed = False
        for future in as_completed(futures):
            status, body, _ = future.result()
            if status == 201 and body is not None:
                acked[futures[future]] = body
            if len(acked) >= 2 and not killed:
                kill()
                killed = True
        if not killed:
            kill()
    return acked


def _keys_after_kill(folder: Path, url: str | None) -> tuple[int, int]:
    """(reservations left without an answer, answers stored) as the kill left them."""
    store = open_store(folder, url)
    try:
        sql = "SELECT COUNT(*), COUNT(status) FROM idempotency"
        total, answered = store.sql.read(lambda db: db.execute(sql).fetchone())
        return int(total) - int(answered), int(answered)
    finally:
        store.close()


def _check_retries(url: str, folder: Path, store_url: str | None, acked: dict[int, Any]) -> float:
    """Send every write again; the slowest retry's seconds."""
    answers: dict[int, dict[str, Any]] = {}
    slowest = 0.0
    for i in range(WRITES):
        status, body, took = _post(url, i)
        assert status == 201 and body is not None, (i, status, body)
        assert took < 10, f"the retry of write {i} took {took:.1f} s"
        answers[i], slowest = body, max(slowest, took)
        if i in acked:  # acknowledged before the kill: the same answer again
            assert body == acked[i], (i, body, acked[i])
    store = open_store(folder, store_url)
    try:
        texts = [r.text for u in range(USERS) for r in store.records(f"u{u}")]
    finally:
        store.close()
    for i in range(WRITES):  # every write stored exactly once: none lost, none twice
        assert sum(f"MARK{i}Z" in t for t in texts) == 1, (i, [t for t in texts if "MARK" in t])
        if "summary_id" in answers[i]:
            assert answers[i]["summary_id"]
    return slowest


def test_a_killed_server_answers_every_retry_once(tmp_path: Path, backend: str | None) -> None:
    env = recall_env(tmp_path)
    if backend is not None:
        env["RECALL_STORE_URL"] = backend
    folder, port = tmp_path / "m", free_port()
    url = f"http://127.0.0.1:{port}"
    proc = _serve(folder, port, env)
    try:
        acked = _flood_and_kill(url, lambda: os.killpg(proc.pid, signal.SIGKILL))
        proc.wait(30)
        left, answered = _keys_after_kill(folder, backend)
        proc = _serve(folder, port, env)  # a new server on the same store
        slowest = _check_retries(url, folder, backend, acked)
        print(f"{len(acked)} acked, {answered} answered, {left} reserved; slowest {slowest:.2f} s")
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGTERM)
            proc.wait(60)


@pytest.fixture
def chroma(tmp_path: Path) -> Iterator[ChromaServer]:
    server = ChromaServer(tmp_path / "chroma", free_port())
    server.start()
    yield server
    server.stop()


def test_a_killed_worker_leaves_no_write_to_the_other_twice(
    tmp_path: Path, chroma: ChromaServer
) -> None:
    env = recall_env(tmp_path)
    folder, port = tmp_path / "m", free_port()
    url = f"http://127.0.0.1:{port}"
    proc = _serve(folder, port, env, "--workers", "2", "--chroma-url", chroma.url)
    try:
        workers = [p for p in children(proc.pid) if b"resource_tracker" not in cmdline(p)]
        assert len(workers) == 2
        acked = _flood_and_kill(url, lambda: os.kill(workers[0], signal.SIGKILL))
        left, answered = _keys_after_kill(folder, None)
        # The other worker answers at once (the supervisor starts a third meanwhile).
        slowest = _check_retries(url, folder, None, acked)
        print(f"{len(acked)} acked, {answered} answered, {left} reserved; slowest {slowest:.2f} s")
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(60)
