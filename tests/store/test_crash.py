"""SIGKILL in the middle of add: every acknowledged write survives, and the index catches up.

(Promotion and the background drain are killed in ``test_pipeline.py``, reindex in
``test_reindex.py``; the same zero-loss rule holds there.)

A child process adds records in a loop and prints each id once ``add`` has returned; the
parent kills it with SIGKILL at an arbitrary point after 40 acknowledgements, then reopens
the folder: every acknowledged id must be in the store, found by a query, and the index
in step with the store.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

import recall

pytestmark = pytest.mark.real_model  # a subprocess writes the folder: the real model on both sides

_CHILD = textwrap.dedent(
    """
    import sys
    import recall

    mem = recall.open(settings=recall.Settings(path=sys.argv[1], vector_partitions=2))
    i = 0
    while True:
        mem.add(f"crash note {i}: parcel {48000 + i} left depot {i % 7}", user_id=f"u{i % 3}",
                id=f"r{i}")
        print(f"r{i}", flush=True)
        i += 1
    """
)


@pytest.mark.slow
@pytest.mark.parametrize("after", [40, 57])
def test_sigkill_during_add_loses_no_acknowledged_write(tmp_path: Path, after: int) -> None:
    folder = tmp_path / "memory"
    script = tmp_path / "child.py"
    script.write_text(_CHILD)
    env = {**os.environ, "PYTHONPATH": str(Path(recall.__file__).parent.parent)}
    proc = subprocess.Popen(
        [sys.executable, str(script), str(folder)], env=env, stdout=subprocess.PIPE, text=True
    )
    assert proc.stdout is not None
    acked: list[str] = []
    deadline = time.monotonic() + 120
    while len(acked) < after:
        line = proc.stdout.readline()
        assert line, "the child died before the crash point"
        acked.append(line.strip())
        assert time.monotonic() < deadline
    proc.send_signal(signal.SIGKILL)
    acked += [line.strip() for line in proc.stdout if line.strip()]  # printed before the kill
    proc.stdout.close()
    proc.wait()

    with recall.open(settings=recall.Settings(path=folder, vector_partitions=2)) as mem:
        stored = {r.id for u in ("u0", "u1", "u2") for r in mem.records(u)}
        assert set(acked) <= stored, sorted(set(acked) - stored)
        last = int(acked[-1][1:])
        hits = mem.deep_recall(f"parcel {48000 + last}", user_id=f"u{last % 3}", top_k=3)
        assert hits and hits[0].id == f"r{last}" and hits[0].vector_score is not None
        for u in ("u0", "u1", "u2"):
            mem._sync.ensure(u)
            assert set(mem._vectors.hashes(u)) == {r.id for r in mem.records(u)}
