"""Reindex throughput next to the embedder's raw encode rate, same texts, same run.

    .venv/bin/python benchmarks/reindex_bench.py [--records 20000] [--users 20] [--spec default]

Records are written straight to the store (no index), then ``recall reindex`` builds the
index from it: store reads, embedding and Chroma writes overlap in a bounded pipeline. The
raw rate is ``embed_documents`` alone on the same texts in batches of the same size. A
second reindex on the now up-to-date index shows the no-op cost. Ends with one JSON line.
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")

import recall  # noqa: E402
from recall.models import Record  # noqa: E402
from recall.reindex import reindex  # noqa: E402
from recall.store import Store  # noqa: E402

from benchmarks.core_latency import make_texts  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--records", type=int, default=20_000)
    parser.add_argument("--users", type=int, default=20)
    parser.add_argument("--spec", default="default")
    args = parser.parse_args()

    spec = recall.load_spec(args.spec)
    texts = make_texts(args.records, seed=3)
    with tempfile.TemporaryDirectory() as tmp:
        settings = recall.Settings(path=Path(tmp), index_spec=args.spec)
        store = Store(settings.path / "recall.sqlite3")
        now = datetime.now(UTC)
        per_user = args.records // args.users
        for u in range(args.users):
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
        n = per_user * args.users

        embedder = recall.load_embedder(spec.embedder)
        embedder.embed_documents(texts[:64])  # warm
        batch = settings.reindex_batch_size
        t = time.perf_counter()
        for i in range(0, n, batch):
            embedder.embed_documents(texts[i : i + batch])
        raw_s = time.perf_counter() - t
        raw_rate = n / raw_s
        print(f"raw encode: {n} texts in {raw_s:.1f} s = {raw_rate:.0f} texts/s")

        first = reindex(settings, spec)
        rate = first.embedded / first.seconds
        print(
            f"reindex:    {first.embedded} records in {first.seconds:.1f} s = {rate:.0f} "
            f"records/s = {100 * rate / raw_rate:.1f}% of raw encode"
        )
        second = reindex(settings, spec)
        print(f"second run: {second.embedded} embedded, {second.seconds:.2f} s (no-op)")
    print(
        json.dumps(
            {
                "records": n,
                "spec": spec.name,
                "raw_encode_per_s": round(raw_rate, 1),
                "reindex_per_s": round(rate, 1),
                "ratio": round(rate / raw_rate, 4),
                "noop_s": round(second.seconds, 3),
                "noop_embedded": second.embedded,
            }
        )
    )


if __name__ == "__main__":
    main()
