"""Throughput of 1 against 3 recall processes on one PostgreSQL store and one Chroma server.

Starts a throwaway PostgreSQL (the machine's binaries, as the tests do) and a ``chroma run``
server, then runs the same work with one worker process and with three at once: each
worker does N rounds of one ``add`` and one ``deep_recall`` for a user of its own
(tests/mp_worker.py). Throughput is rounds per second over the wall time of the phase;
the two phases run back to back in one process, so they see the same machine.

    .venv/bin/python benchmarks/multiprocess.py [--rounds 60]

Prints one JSON line and writes benchmarks/results/multiprocess.json.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "tests" / "store"))  # test_multiprocess.py's Worker

from chroma_server import ChromaServer, free_port  # noqa: E402
from pg_server import PGServer, find_bindir  # noqa: E402
from test_multiprocess import Worker  # noqa: E402


def _phase(workers: list[Worker], rounds: int, tag: str) -> float:
    start = time.perf_counter()
    for i, w in enumerate(workers):
        w.send(op="loop", user=f"{tag}-user{i}", n=rounds, tag=f"{tag}{i}")
    for w in workers:
        assert w.read()["ok"] == rounds
    return len(workers) * rounds / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=60)
    args = parser.parse_args()
    bindir = find_bindir()
    if bindir is None:
        raise SystemExit("no PostgreSQL binaries (initdb, postgres) on this machine")
    pg = PGServer(bindir)
    pg.start()
    tmp = Path(tempfile.mkdtemp(prefix="recall-mp-"))
    chroma = ChromaServer(tmp / "chroma", free_port())
    chroma.start()
    workers: list[Worker] = []
    try:
        url = pg.new_database()
        workers = [Worker(tmp / f"w{i}", url, chroma.url) for i in range(3)]
        for w in workers:
            w.ready()
        _phase(workers, 5, "warm")  # first queries build caches: not timed
        one = _phase(workers[:1], args.rounds, "one")
        three = _phase(workers, args.rounds, "three")
    finally:
        for w in workers:
            w.close()
        chroma.stop()
        pg.stop()
    result = {
        "rounds_per_process": args.rounds,
        "round": "one add + one deep_recall",
        "cpus": os.cpu_count(),
        "one_process_rounds_per_s": round(one, 2),
        "three_processes_rounds_per_s": round(three, 2),
        "speedup": round(three / one, 2),
    }
    (ROOT / "benchmarks" / "results").mkdir(parents=True, exist_ok=True)
    (ROOT / "benchmarks" / "results" / "multiprocess.json").write_text(
        json.dumps(result, indent=2) + "\n"
    )
    print(json.dumps(result))


if __name__ == "__main__":
    main()
