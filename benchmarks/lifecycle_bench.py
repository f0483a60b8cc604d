"""update_memory throughput (summaries/s) and promotion latency, offline implementations.

    .venv/bin/python benchmarks/lifecycle_bench.py [--updates 200] [--messages 8] [--users 1]

Runs ``update_memory`` ``--updates`` times on a fresh memory in a temp folder (real SQLite,
embedded Chroma, the spec's embedder) with the offline summarizer and reconstructor
(``llm_model`` unset). Each call gets ``--messages`` synthetic chat messages to summarize;
users take turns. A call that promotes (short-term over ``--capacity``: the oldest
``--promote`` summaries go into the long-term article) is timed apart from the plain ones:
its latency is what a caller waits when a promotion lands on its turn. One warm-up call on
a separate user loads the models first. The lifecycle writes the store only; the vector
index catches up at the next read, timed apart ("index catch-up"). Ends with one JSON line.
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
os.environ.setdefault("HF_HUB_OFFLINE", "1")

import numpy as np

# core_latency.py is a sibling script: a script's own folder is first on sys.path.
from core_latency import make_texts

import recall


def _pct(values: list[float], q: float) -> float:
    return float(np.percentile(np.asarray(values), q)) if values else float("nan")


def _states(rng: random.Random, texts: list[str], n: int) -> list[dict[str, str]]:
    """``n`` alternating user/assistant messages, three synthetic sentences each."""
    return [
        {
            "role": "user" if i % 2 == 0 else "assistant",
            "content": " ".join(f"{t}." for t in rng.sample(texts, 3)),
        }
        for i in range(n)
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--updates", type=int, default=200, help="update_memory calls timed")
    parser.add_argument("--messages", type=int, default=8, help="chat messages per call")
    parser.add_argument("--users", type=int, default=1, help="users taking turns")
    parser.add_argument("--capacity", type=int, default=20, help="short_term_capacity")
    parser.add_argument("--promote", type=int, default=5, help="promote_count")
    parser.add_argument("--spec", default="default", help="index spec")
    parser.add_argument("--seed", type=int, default=4)
    args = parser.parse_args()
    if args.updates < 1 or args.messages < 1 or args.users < 1:
        parser.error("--updates, --messages and --users must be at least 1")

    rng = random.Random(args.seed)
    texts = make_texts(2_000, seed=args.seed)
    with tempfile.TemporaryDirectory() as tmp:
        settings = recall.Settings(
            path=Path(tmp),
            index_spec=args.spec,
            short_term_capacity=args.capacity,
            promote_count=args.promote,
            llm_model=None,
            vector_partitions=4,
        )
        with recall.open(settings=settings) as mem:
            mem.update_memory(_states(rng, texts, args.messages), user_id="warm-up")
            mem.embedder().embed_documents(texts[:8])  # the reconstructor's model, loaded
            plain: list[float] = []
            promoting: list[float] = []
            promotions = 0
            started = time.perf_counter()
            for i in range(args.updates):
                states = _states(rng, texts, args.messages)
                t = time.perf_counter()
                res = mem.update_memory(states, user_id=f"user{i % args.users}")
                elapsed = time.perf_counter() - t
                (promoting if res.promoted else plain).append(elapsed)
                promotions += len(res.versions)
            total = time.perf_counter() - started
            # The lifecycle writes the store only; the index catches up at the next read.
            t = time.perf_counter()
            for u in range(min(args.users, args.updates)):
                mem._sync.ensure(f"user{u}")
            catch_up = time.perf_counter() - t
    rate = args.updates / total
    print(
        f"update_memory: {args.updates} calls ({args.messages} messages each, {args.users} "
        f"users) in {total:.2f} s = {rate:.1f} summaries/s"
    )
    print(
        f"plain call:     p50 {1e3 * _pct(plain, 50):.1f} ms, p95 {1e3 * _pct(plain, 95):.1f} ms "
        f"({len(plain)} calls)"
    )
    if promoting:
        print(
            f"promoting call: p50 {1e3 * _pct(promoting, 50):.1f} ms, p95 "
            f"{1e3 * _pct(promoting, 95):.1f} ms ({len(promoting)} calls, {promotions} promotions)"
        )
    else:
        print("promoting call: none (raise --updates above --capacity to see one)")
    print(f"index catch-up: {catch_up:.2f} s at the next read (not in update_memory's time)")
    print(
        json.dumps(
            {
                "updates": args.updates,
                "messages": args.messages,
                "users": args.users,
                "capacity": args.capacity,
                "promote_count": args.promote,
                "spec": args.spec,
                "seconds": round(total, 3),
                "summaries_per_s": round(rate, 2),
                "plain_p50_ms": round(1e3 * _pct(plain, 50), 2) if plain else None,
                "plain_p95_ms": round(1e3 * _pct(plain, 95), 2) if plain else None,
                "promotion_p50_ms": round(1e3 * _pct(promoting, 50), 2) if promoting else None,
                "promotion_p95_ms": round(1e3 * _pct(promoting, 95), 2) if promoting else None,
                "promotions": promotions,
                "index_catch_up_s": round(catch_up, 3),
            }
        )
    )


if __name__ == "__main__":
    main()
