"""``Memory.write_once`` across a SIGKILL (issue 35, item 4): the two moments a crash can
split, each made on purpose in a child process, on both store backends.

* Killed after the write committed, before the call's final answer was stored: the
  answer committed with the write, so the retry (another process) gets it and stores
  nothing.
* Killed after the key was reserved, before anything committed: the reservation's owner
  is dead, so the retry runs the write at once (it answered 409 "still running" for 10
  minutes before, then ran the write again even if it had committed).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

import recall
from recall.testing import HashEmbedder

_CHILD = textwrap.dedent(
    """
    import sys, time
    import recall
    from recall.testing import HashEmbedder

    path, url, moment = sys.argv[1], sys.argv[2] or None, sys.argv[3]
    settings = recall.Settings(path=path, store_url=url, vector_partitions=2)
    mem = recall.open(settings=settings, embedder=HashEmbedder())
    answers = []

    def answer(result):
        answers.append(result)
        if moment == "committed" and len(answers) == 2:  # 1: at the commit, 2: after it
            print("committed", flush=True)
            time.sleep(600)
        return result.model_dump_json()

    def write():
        if moment == "reserved":
            print("reserved", flush=True)
            time.sleep(600)
        return mem.update_memory("KIWI-17 summary: the team picked Redis.", user_id="u1")

    mem.write_once("u1", "key-" + moment, "request-1", write, answer)
    """
)


def _killed_at(moment: str, folder: Path, url: str | None, tmp_path: Path) -> None:
    script = tmp_path / "child.py"
    script.write_text(_CHILD)
    env = {**os.environ, "PYTHONPATH": str(Path(recall.__file__).parent.parent)}
    proc = subprocess.Popen(
        [sys.executable, str(script), str(folder), url or "", moment],
        env=env,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None
    try:
        assert proc.stdout.readline().strip() == moment, "the child died before the moment"
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(30)
        proc.stdout.close()


def _retry(mem: recall.Memory, moment: str) -> tuple[recall.KeyClaim, float]:
    started = time.monotonic()
    claim = mem.write_once(
        "u1",
        f"key-{moment}",
        "request-1",
        lambda: mem.update_memory("KIWI-17 summary: the team picked Redis.", user_id="u1"),
        lambda result: result.model_dump_json(),
    )
    return claim, time.monotonic() - started


@pytest.mark.slow
@pytest.mark.parametrize("moment", ["committed", "reserved"])
def test_a_write_killed_mid_way_is_answered_once_by_its_retry(
    moment: str, backend: str | None, tmp_path: Path
) -> None:
    folder = tmp_path / "m"
    settings = recall.Settings(path=folder, store_url=backend, vector_partitions=2)
    recall.open(settings=settings, embedder=HashEmbedder()).close()  # the folder, bound
    _killed_at(moment, folder, backend, tmp_path)
    with recall.open(settings=settings, embedder=HashEmbedder()) as mem:
        claim, took = _retry(mem, moment)
        assert claim.state == "done" and claim.status == 201, claim
        assert took < 5, f"the retry took {took:.1f} s"
        [summary] = mem.records("u1", ["short_term"])  # stored exactly once
        assert json.loads(claim.body)["summary_id"] == summary.id
        # Committed: the answer that committed with the write, remembered; reserved: run now.
        assert claim.replayed is (moment == "committed")
        again, _ = _retry(mem, moment)
        assert (again.state, again.body, again.replayed) == ("done", claim.body, True)
        assert len(mem.records("u1", ["short_term"])) == 1
