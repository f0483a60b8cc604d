"""Reads do not pay for writes: the first ``deep_recall`` after many writes against a warm one.

Two measurements, both with the default spec on a fresh folder:

* **update_memory.** One process: the models load (a warm-up query on another user), then
  N ``update_memory`` calls (default 60) of realistic chat messages for a user, then that
  user's first ``deep_recall``: once right after the last write (user "now"), once after
  the background rebuild of the partition finished (user "later", as an agent's next turn
  would find it); then R more queries (the warm figure is their median). Every write path
  indexes before it returns (``recall.index.sync``), so no query embeds a record.
* **recall ingest.** With ``--locomo FILE``: ``recall ingest FILE --user U`` in a
  subprocess (its wall time), then ``recall search`` in a fresh process twice: the first
  search's wall time against the second's (both load the models; the difference is what
  the first pays for the ingest).

    .venv/bin/python benchmarks/write_path.py [--updates 60] \
        [--locomo ../shared/datasets/locomo/locomo_dev7.json]

Prints one JSON line and writes benchmarks/results/write_path.json.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")

import recall

ROOT = Path(__file__).resolve().parents[1]
TOPICS = [
    ("my sister's wedding in Lisbon", "the venue by the river and the seating plan"),
    ("the Postgres migration at work", "the replica lag and the cut-over on Sunday night"),
    ("training for the half marathon", "the knee pain after the long run on Saturday"),
    ("our dog Miso", "the new food and the vet appointment on Thursday"),
    ("the kitchen renovation", "the quote from the carpenter and the tiles we picked"),
    ("learning Rust", "the borrow checker and the small CLI I am writing"),
]


def messages(i: int) -> list[dict[str, str]]:
    """A short realistic exchange, different for each call."""
    topic, detail = TOPICS[i % len(TOPICS)]
    return [
        {"role": "user", "content": f"Day {i}: I keep thinking about {topic}, mostly {detail}."},
        {"role": "assistant", "content": f"What worries you most about {topic} right now?"},
        {"role": "user", "content": f"Honestly {detail}; I decided to sort it out by day {i + 3}."},
    ]


def timed_ms(fn: object) -> float:
    t0 = time.perf_counter()
    fn()  # type: ignore[operator]
    return (time.perf_counter() - t0) * 1000


def _series(mem: recall.Memory, user: str, updates: int) -> list[float]:
    return [
        timed_ms(lambda i=i: mem.update_memory(messages(i), user_id=user)) for i in range(updates)
    ]


def bench_updates(updates: int, repeats: int) -> dict[str, object]:
    query = "the knee pain after running"
    with tempfile.TemporaryDirectory() as tmp:
        mem = recall.open(Path(tmp) / "memory")
        try:
            mem.add("warm up the models", user_id="warm")
            mem.deep_recall("warm up", user_id="warm")  # models load here, not below
            # User "now": the query comes right after the last write, while the background
            # rebuild of its partition is still running (the query waits for it).
            write_ms = _series(mem, "now", updates)
            lagging = mem._sync.lag("now")
            first_now = timed_ms(lambda: mem.deep_recall(query, user_id="now"))
            # User "later": the query comes once the background rebuild is done, as an
            # agent's next turn would; how long that took after the last write is reported.
            write_ms += _series(mem, "later", updates)
            background = timed_ms(mem._retriever.partitions.wait)
            first_later = timed_ms(lambda: mem.deep_recall(query, user_id="later"))
            warm = [timed_ms(lambda: mem.deep_recall(query, user_id="now")) for _ in range(repeats)]
            records = len(mem.records("now"))
        finally:
            mem.close()
    warm_p50 = statistics.median(warm)
    return {
        "updates": updates,
        "records": records,
        "lagging_after_writes": lagging,
        "update_memory_p50_ms": round(statistics.median(write_ms), 2),
        "first_recall_right_after_ms": round(first_now, 2),
        "background_rebuild_left_ms": round(background, 2),
        "first_recall_after_rebuild_ms": round(first_later, 2),
        "warm_recall_p50_ms": round(warm_p50, 2),
    }


def _cli(*args: str) -> float:
    env = {**os.environ, "ANONYMIZED_TELEMETRY": "False"}
    t0 = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "recall.cli", *args], check=True, env=env, capture_output=True
    )
    return time.perf_counter() - t0


def bench_ingest(locomo: Path) -> dict[str, object]:
    with tempfile.TemporaryDirectory() as tmp:
        path = str(Path(tmp) / "memory")
        ingest_s = _cli("ingest", str(locomo), "--user", "locomo", "--path", path, "--quiet")
        query = ("search", "when did Caroline go to the support group", "--user", "locomo")
        first_s = _cli(*query, "--path", path)
        second_s = _cli(*query, "--path", path)
        check = subprocess.run(
            [sys.executable, "-m", "recall.cli", "check", "--path", path],
            capture_output=True,
            text=True,
            check=False,
        )
    return {
        "file": locomo.name,
        "ingest_s": round(ingest_s, 2),
        "first_search_s": round(first_s, 2),
        "second_search_s": round(second_s, 2),
        "check_exit_code": check.returncode,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--updates", type=int, default=60)
    ap.add_argument("--repeats", type=int, default=20)
    ap.add_argument("--locomo", type=Path, default=None)
    args = ap.parse_args()
    out: dict[str, object] = {"update_memory": bench_updates(args.updates, args.repeats)}
    if args.locomo is not None:
        out["ingest"] = bench_ingest(args.locomo)
    out["machine"] = {"cpus": os.cpu_count(), "load_avg_start": os.getloadavg()[0]}
    print(json.dumps(out))
    dest = ROOT / "benchmarks" / "results" / "write_path.json"
    dest.write_text(json.dumps(out, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
