"""``recall serve --workers N``: N processes on one port, one folder's store, one Chroma
server. A write acknowledged by any worker is found by the next query on any other; SIGTERM
stops them all; without a Chroma server the command refuses with what to do."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from chroma_server import ChromaServer, free_port
from click.testing import CliRunner
from subproc import children, cmdline, wait_up

from recall.cli import main
from recall.errors import ConfigError
from recall.server.workers import serve_workers


@pytest.fixture
def chroma(tmp_path: Path) -> Iterator[ChromaServer]:
    server = ChromaServer(tmp_path / "chroma", free_port())
    server.start()
    yield server
    server.stop()


def test_workers_without_a_chroma_server_are_refused(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="--chroma-url"):
        serve_workers({"path": tmp_path / "m"}, None, 2)
    result = CliRunner().invoke(
        main, ["serve", "--transport", "http", "--workers", "2", "--path", str(tmp_path / "m")]
    )
    assert result.exit_code == 1 and "Chroma server" in result.output


def test_workers_need_http(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["serve", "--workers", "2", "--path", str(tmp_path)])
    assert result.exit_code == 2 and "--transport http" in result.output


@pytest.mark.slow
@pytest.mark.real_model
def test_two_workers_share_one_memory_and_stop_together(
    tmp_path: Path, chroma: ChromaServer
) -> None:
    port = free_port()
    cmd = [sys.executable, "-m", "recall.cli", "serve", "--transport", "http", "--workers"]
    cmd += ["2", "--chroma-url", chroma.url, "--path", str(tmp_path / "m"), "--port", str(port)]
    proc = subprocess.Popen(cmd, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    try:
        wait_up(url)
        workers = [p for p in children(proc.pid) if b"resource_tracker" not in cmdline(p)]
        assert len(workers) == 2
        # New connections each time: the kernel hands them to either worker.
        ids = []
        for i in range(12):
            body = {"summary": f"We chose the teapot number {i} for the office."}
            r = httpx.post(f"{url}/v1/users/u1/memories", json=body, timeout=60)
            assert r.status_code == 201
            ids.append(r.json()["summary_id"])
            hits = httpx.post(
                f"{url}/v1/users/u1/recall", json={"query": f"teapot number {i}"}, timeout=60
            ).json()["hits"]
            assert ids[-1] in {h["id"] for h in hits}  # found by whichever worker answered
        records = httpx.get(f"{url}/v1/users/u1/memories", timeout=60).json()["records"]
        assert {r["id"] for r in records} == set(ids)
    finally:
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(60) == 0
    time.sleep(0.5)
    assert not [p for p in workers if os.path.exists(f"/proc/{p}")]


@pytest.mark.slow
def test_workers_that_cannot_start_stop_the_server_with_an_error(tmp_path: Path) -> None:
    """No Chroma server at the URL: every worker dies at its start; the supervisor gives up
    after a few, says why and exits 1, instead of respawning forever."""
    cmd = [sys.executable, "-m", "recall.cli", "serve", "--transport", "http", "--workers"]
    cmd += ["2", "--chroma-url", f"http://127.0.0.1:{free_port()}", "--path", str(tmp_path)]
    cmd += ["--port", str(free_port())]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=180, check=False)
    assert done.returncode == 1
    assert "workers exited 5 times" in done.stderr and "fix the cause" in done.stderr
