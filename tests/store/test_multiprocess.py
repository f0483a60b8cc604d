"""Three recall processes on one PostgreSQL store and one ``chroma run`` server.

Each process has its own folder and caches; the memory is the servers'. The test drives
them over pipes (tests/mp_worker.py) and checks what a deployment of several app servers
relies on:

- a write acknowledged by one process is found by the next query of every other one, and
  a record deleted through one process is gone from the next query of every one;
- concurrent writers lose nothing and duplicate nothing;
- a process SIGKILLed in the middle of a batch of writes loses none it acknowledged;
- background update_memory jobs of several processes are each done exactly once, those of
  the killed process included (a process opening the store later resumes them).
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from chroma_server import ChromaServer, free_port

import recall

pytestmark = [pytest.mark.slow, pytest.mark.real_model]
WORKER = Path(__file__).parents[1] / "mp_worker.py"


class Worker:
    def __init__(self, folder: Path, store_url: str, chroma_url: str) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, str(WORKER), str(folder), store_url, chroma_url],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )

    def ready(self) -> None:
        assert "ready" in self.read()

    def send(self, **cmd: Any) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps(cmd) + "\n")
        self.proc.stdin.flush()

    def read(self) -> dict[str, Any]:
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        assert line, "the worker died"
        return dict(json.loads(line))

    def call(self, **cmd: Any) -> dict[str, Any]:
        self.send(**cmd)
        return self.read()

    def close(self) -> None:
        if self.proc.poll() is None:
            self.send(op="quit")
            self.proc.wait(timeout=60)
        for pipe in (self.proc.stdin, self.proc.stdout):
            if pipe is not None:
                pipe.close()


@pytest.fixture
def chroma(tmp_path: Path) -> Iterator[ChromaServer]:
    server = ChromaServer(tmp_path / "chroma-server", free_port())
    server.start()
    yield server
    server.stop()


def _each_write_seen_by_the_others(workers: list[Worker], acked: dict[str, str]) -> None:
    for k in range(9):
        user, rid = f"u{k % 4}", f"seq{k}"
        writer, readers = workers[k % 3], [w for i, w in enumerate(workers) if i != k % 3]
        assert writer.call(op="add", user=user, id=rid, text=f"token zq{k}x lives here")
        acked[rid] = user
        for r in readers:
            assert r.call(op="find", user=user, q=f"zq{k}x")["ids"][:1] == [rid]


def _each_delete_seen_by_the_others(workers: list[Worker]) -> None:
    for k in (1, 5):  # written by workers[1] and [2] above, deleted through another one
        user, writer = f"u{k % 4}", workers[(k + 1) % 3]
        assert writer.call(op="delete", user=user, id=f"seq{k}") == {"ok": 1}
        for r in workers:
            assert f"seq{k}" not in r.call(op="find", user=user, q=f"zq{k}x")["ids"]


def _concurrent_writers(workers: list[Worker], acked: dict[str, str]) -> None:
    for i, w in enumerate(workers):  # 3 x 15 writes in flight at once
        for j in range(15):
            w.send(op="add", user=f"u{j % 4}", id=f"c{i}-{j}", text=f"concurrent {i} {j}")
    for i, w in enumerate(workers):
        for j in range(15):
            assert w.read() == {"ok": f"c{i}-{j}"}
            acked[f"c{i}-{j}"] = f"u{j % 4}"


def _kill_mid_batch(victim: Worker, acked: dict[str, str]) -> None:
    for j in range(40):
        victim.send(op="add", user="k", id=f"kill{j}", text=f"written before the kill {j}")
    for j in range(5):
        assert victim.read() == {"ok": f"kill{j}"}
        acked[f"kill{j}"] = "k"
    victim.proc.send_signal(signal.SIGKILL)
    victim.proc.wait()
    assert victim.proc.stdout is not None
    for line in victim.proc.stdout:  # acknowledged before it died: they count too
        acked[json.loads(line)["ok"]] = "k"


def test_three_processes_share_one_memory(
    tmp_path: Path, pg_url: str, chroma: ChromaServer
) -> None:
    workers = [Worker(tmp_path / f"w{i}", pg_url, chroma.url) for i in range(3)]
    try:
        for w in workers:
            w.ready()
        acked: dict[str, str] = {}  # record id -> user
        _each_write_seen_by_the_others(workers, acked)
        _each_delete_seen_by_the_others(workers)
        for k in (1, 5):
            del acked[f"seq{k}"]
        _concurrent_writers(workers, acked)
        updates = [f"update {n}: the heron caught fish number {n}" for n in range(12)]
        for n, text in enumerate(updates):  # background jobs on two processes
            assert workers[n % 2].call(op="update", user="j", text=text)["ok"]
        _kill_mid_batch(workers[2], acked)
        for w in workers[:2]:
            assert w.call(op="flush") == {"ok": True}

        # Every acknowledged write is there once, and found by every surviving process.
        with recall.open(tmp_path / "check", store_url=pg_url, chroma_url=chroma.url) as mem:
            assert mem.flush(timeout=120)  # resumes whatever the killed process left
            for user in {*acked.values()}:
                ids = [r.id for r in mem.records(user)]
                assert len(ids) == len(set(ids))
                assert {i for i, u in acked.items() if u == user} <= set(ids)
            texts = Counter(r.text for r in mem.records("j", ["short_term", "archive"]))
            assert all(texts[t] == 1 for t in updates), texts  # each job done exactly once
            assert mem._store.unfinished_jobs() == []
        for w in workers[:2]:
            found = w.call(op="find", user="k", q="written before the kill 3")["ids"]
            assert found[:1] == ["kill3"]
    finally:
        for w in workers:
            w.close()
