"""Reindex throughput next to the embedder's raw encode rate, same texts, same run.

    .venv/bin/python benchmarks/reindex_bench.py [--records 20000] [--users 20] [--rounds 3]

Records are written straight to the store (no index), then ``recall reindex`` builds the
index from it: store reads, embedding and Chroma writes overlap in a bounded pipeline. The
raw rate is ``embed_documents`` alone on the same texts in batches of the same size, timed
right before each reindex (``--rounds`` pairs; the median ratio is the figure). A second
reindex on the last, now up-to-date index shows the no-op cost. Ends with one JSON line.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")

# core_latency.py is a sibling script: a script's own folder is first on sys.path.
from core_latency import make_texts

import recall
from recall.index.rebuild import reindex
from recall.models import Record
from recall.store import SQLiteStore


def _fill_store(settings: recall.Settings, texts: list[str], users: int) -> int:
    """Write the texts straight to a fresh store (no index); returns the record count."""
    store = SQLiteStore(settings.storage.path / "recall.sqlite3")
    now = datetime.now(UTC)
    per_user = len(texts) // users
    for u in range(users):
        chunk = texts[u * per_user : (u + 1) * per_user]
        store.put(
            [
                Record(
                    id=f"r{i}",
                    user_id=f"user{u}",
                    kind="short_term",
                    text=t,
                    created_at=now,
                    tokens=recall.count_tokens(t),
                )
                for i, t in enumerate(chunk)
            ]
        )
    store.close()
    return per_user * users


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--records", type=int, default=20_000)
    parser.add_argument("--users", type=int, default=20)
    parser.add_argument("--spec", default="default")
    parser.add_argument("--rounds", type=int, default=3, help="raw encode + reindex pairs")
    args = parser.parse_args()

    spec = recall.load_spec(args.spec)
    texts = make_texts(args.records, seed=3)
    embedder = recall.load_embedder(spec.embedder)
    embedder.embed_documents(texts[:64])  # model load and warm-up stay out of both timings
    raw_rates: list[float] = []
    rates: list[float] = []
    ratios: list[float] = []
    noop_s = 0.0
    noop_embedded = -1
    n = 0
    # Each round times the raw encode and then a full reindex into a fresh folder, back to
    # back: a shared machine's load drifts, and a ratio is only honest within one round.
    for r in range(args.rounds):
        with tempfile.TemporaryDirectory() as tmp:
            settings = recall.Settings(path=Path(tmp), index_spec=args.spec)
            n = _fill_store(settings, texts, args.users)
            batch = settings.retrieval.reindex_batch_size
            t = time.perf_counter()
            for i in range(0, n, batch):
                embedder.embed_documents(texts[i : i + batch])
            raw_rate = n / (time.perf_counter() - t)
            first = reindex(settings, spec)
            rate = first.embedded / first.seconds
            raw_rates.append(raw_rate)
            rates.append(rate)
            ratios.append(rate / raw_rate)
            print(
                f"round {r + 1}: raw encode {raw_rate:.0f} texts/s | reindex {first.embedded} "
                f"records in {first.seconds:.1f} s = {rate:.0f} records/s = "
                f"{100 * rate / raw_rate:.1f}% of raw encode"
            )
            if r == args.rounds - 1:
                second = reindex(settings, spec)
                noop_s, noop_embedded = second.seconds, second.embedded
                print(f"second run: {second.embedded} embedded, {second.seconds:.2f} s (no-op)")
    print(f"median of {args.rounds}: reindex {statistics.median(ratios) * 100:.1f}% of raw encode")
    print(
        json.dumps(
            {
                "records": n,
                "spec": spec.name,
                "rounds": args.rounds,
                "raw_encode_per_s": [round(x, 1) for x in raw_rates],
                "reindex_per_s": [round(x, 1) for x in rates],
                "ratios": [round(x, 4) for x in ratios],
                "median_ratio": round(statistics.median(ratios), 4),
                "noop_s": round(noop_s, 3),
                "noop_embedded": noop_embedded,
            }
        )
    )


if __name__ == "__main__":
    main()
