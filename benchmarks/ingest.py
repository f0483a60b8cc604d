"""Ingest at the embedder's rate: ``add_many`` against the raw encode of the same texts.

One user, N short records (default 10,000), the default spec. The raw rate is the spec's
own embedder (``embed_documents`` of the same texts, same threads) timed just before and
just after the ingest, so that a drift in machine load shows as the gap between the two;
the ratio is ingest over their mean. Everything a write does is in the ingest: validation,
token counting, the SQLite commit, embedding, the Chroma upsert and the index bookkeeping.

    .venv/bin/python benchmarks/ingest.py [--records 10000] [--spec default]

With ``--locomo`` the texts are LoCoMo dev's 4,124 turns instead, ingested as
``recall bench locomo`` does (``build_memory``: one ``add_many`` per conversation, dated,
threaded by session):

    .venv/bin/python benchmarks/ingest.py --locomo ../shared/datasets/locomo/locomo_dev7.json

Prints one JSON line and writes benchmarks/results/ingest.json (ingest_locomo.json).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import tempfile
import time
from pathlib import Path

os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")

import recall

ROOT = Path(__file__).resolve().parents[1]
WORDS = [
    "cache",
    "deploy",
    "dog",
    "database",
    "sister",
    "budget",
    "trip",
    "api",
    "release",
    "meeting",
    "garden",
    "invoice",
    "redis",
    "postgres",
    "monday",
    "friday",
    "morning",
    "lake",
    "city",
    "train",
    "coffee",
    "doctor",
    "birthday",
    "project",
]


def texts(n: int, seed: int = 0) -> list[str]:
    rng = random.Random(seed)
    return [f"note {i}: " + " ".join(rng.choices(WORDS, k=rng.randint(6, 16))) for i in range(n)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--records", type=int, default=10_000)
    parser.add_argument("--spec", default="default")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--locomo", type=Path, help="LoCoMo file: its turns instead")
    args = parser.parse_args()
    spec = recall.load_spec(args.spec)
    model = recall.load_embedder(spec.embedder, threads=args.threads)
    dataset = None
    if args.locomo is not None:
        from recall.bench.locomo import load_locomo

        dataset = load_locomo(args.locomo)
        docs = [dataset.doc_text(d) for d in dataset.corpus]
    else:
        docs = texts(args.records)
    model.embed_documents(docs[:64])  # load and warm up, untimed

    def raw() -> float:
        t = time.perf_counter()
        for i in range(0, len(docs), 64):
            model.embed_documents(docs[i : i + 64])
        return len(docs) / (time.perf_counter() - t)

    before = raw()
    with tempfile.TemporaryDirectory(prefix="recall-ingest-") as tmp:
        settings = recall.Settings(
            path=Path(tmp) / "m", index_spec=args.spec, embed_threads=args.threads
        )
        if dataset is not None:
            from recall.bench.runner import build_memory

            mem, built = build_memory(dataset, settings.storage.path, args.spec, progress=False)
            mem.close()
            ingest = len(docs) / built["ingest_s"]
        else:
            with recall.open(settings=settings) as mem:
                mem.embedder()  # the same loaded model: load time stays out of the ingest
                t = time.perf_counter()
                mem.add_many([{"text": d} for d in docs], user_id="u")
                ingest = len(docs) / (time.perf_counter() - t)
    after = raw()
    result = {
        "spec": args.spec,
        "data": "locomo" if dataset is not None else "short notes",
        "records": len(docs),
        "threads": args.threads,
        "raw_encode_docs_per_s": [round(before, 1), round(after, 1)],
        "add_many_docs_per_s": round(ingest, 1),
        "ratio": round(ingest / ((before + after) / 2), 3),
    }
    (ROOT / "benchmarks" / "results").mkdir(parents=True, exist_ok=True)
    name = "ingest_locomo.json" if dataset is not None else "ingest.json"
    (ROOT / "benchmarks" / "results" / name).write_text(json.dumps(result, indent=2))
    print(json.dumps(result))


if __name__ == "__main__":
    main()
