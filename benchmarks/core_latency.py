"""deep_recall latency at 25, 1,000 and 10,000 records for one user, next to a baseline.

The baseline is built the way LangChain's EnsembleRetriever recipe does it, from the same
packages: rank_bm25 (BM25Okapi) over the user's texts plus ONE shared Chroma collection
filtered by user_id (holding 10 users of that size, as a multi-tenant deployment would),
fused by weighted reciprocal rank 0.5/0.5. Both sides embed the query inside the timed
call (an English query: MiniLM on both sides, since the default spec routes it there); the
query embedding alone is timed too. recall's default runs MiniLM on onnxruntime; the
baseline, as LangChain's HuggingFaceEmbeddings would, on sentence-transformers (torch).

``old default`` is the spec of 0.1.0 (``default-torch``: the same retrieval with MiniLM
on torch), measured in the same run. Every model uses ``--threads`` CPU threads (1).

``plain`` is recall with the plain blend it started from (the ``plain`` spec: MiniLM alone,
no stop words or stemming, BM25 k1 1.5 b 0.75, thread neighbours off), so that the cost of
the retrieval-quality changes is measured side by side. Records come in threads of 20 so
that the default pays for its neighbour smoothing.

Documents are embedded once and reused (ingest is not what is measured here); the 9 other
tenants of the baseline's collection get the same texts' vectors with noise.

    .venv/bin/python benchmarks/core_latency.py [--sizes 25,1000,10000] [--queries 50]

Ends with one JSON line: sizes, threads, embed_p50_ms (ONNX; and per size),
embed_torch_p50_ms, recall_p50_ms/p95, old_default_p50_ms/p95, plain_p50_ms/p95,
baseline_p50_ms/p95.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import tempfile
import time
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path

import numpy as np

os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")

import recall
from recall.index.embed import COMPOSITES, CompositeEmbedder, Vectors

SUBJECTS = [
    "the cache",
    "our deploy",
    "the dog",
    "the database",
    "my sister",
    "the budget",
    "the trip",
    "the api",
    "the release",
    "the meeting",
    "the garden",
    "the invoice",
]
VERBS = [
    "moved to",
    "was fixed by",
    "depends on",
    "was planned for",
    "broke after",
    "is stored in",
    "was replaced by",
    "needs",
    "talked about",
    "was cheaper than",
]
OBJECTS = [
    "redis",
    "postgres",
    "march",
    "beijing",
    "a new laptop",
    "the vet",
    "kubernetes",
    "a ten second timeout",
    "fly io",
    "the q3 report",
    "tomatoes",
    "the hotel",
]


def make_texts(n: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    return [
        f"{rng.choice(SUBJECTS)} {rng.choice(VERBS)} {rng.choice(OBJECTS)} "
        f"on day {rng.randint(1, 365)} (note {i})"
        for i in range(n)
    ]


class PrecomputedEmbedder:
    """Documents from a precomputed table, queries through the real model (timed)."""

    def __init__(self, real: recall.Embedder, table: dict[str, Vectors]) -> None:
        self.id, self.dimension = real.id, real.dimension
        self._real, self._table = real, table

    def embed_documents(self, texts: Sequence[str]) -> Vectors:
        return np.stack([self._table[t] for t in texts])

    def embed_query(self, text: str) -> Vectors:
        return self._real.embed_query(text)


def percentile(values: list[float], q: float) -> float:
    return float(np.percentile(np.asarray(values), q))


def interleaved(
    fns: dict[str, Callable[[str], object]], queries: list[str], rounds: int = 3
) -> dict[str, list[float]]:
    """Milliseconds per call of each function, calls alternating query by query.

    Alternating keeps a noisy, shared machine's slow moments from landing on one side only.
    """
    for q in queries[:5]:
        for fn in fns.values():
            fn(q)  # warm
    out: dict[str, list[float]] = {name: [] for name in fns}
    for _ in range(rounds):
        for q in queries:
            for name, fn in fns.items():
                t = time.perf_counter()
                fn(q)
                out[name].append((time.perf_counter() - t) * 1000)
    return out


class Baseline:
    """rank_bm25 + shared Chroma collection with a user_id filter, weighted RRF 0.5/0.5."""

    def __init__(self, client: object, name: str, embedder: recall.Embedder) -> None:
        from rank_bm25 import BM25Okapi

        self._bm25_cls = BM25Okapi
        self.embedder = embedder
        self.col = client.get_or_create_collection(  # type: ignore[attr-defined]
            name, configuration={"hnsw": {"space": "cosine"}}, embedding_function=None
        )

    def add_user(self, user: str, texts: list[str], vectors: Vectors) -> None:
        for i in range(0, len(texts), 5000):
            self.col.upsert(
                ids=[f"{user}:{j}" for j in range(i, min(i + 5000, len(texts)))],
                embeddings=vectors[i : i + 5000],
                documents=texts[i : i + 5000],
                metadatas=[{"user_id": user}] * len(texts[i : i + 5000]),
            )

    def index_user(self, texts: list[str]) -> None:
        self.texts = texts
        self.bm25 = self._bm25_cls([recall.tokenize(t) for t in texts])

    def search(self, user: str, query: str, k: int = 8) -> list[str]:
        scores = self.bm25.get_scores(recall.tokenize(query))
        kw = [self.texts[i] for i in np.argsort(-scores)[:k]]
        q = self.embedder.embed_query(query)
        got = self.col.query(
            query_embeddings=[q], n_results=k, where={"user_id": user}, include=["documents"]
        )
        vec = got["documents"][0]
        fused: dict[str, float] = {}
        for weight, docs in ((0.5, kw), (0.5, vec)):
            for rank, doc in enumerate(docs):
                fused[doc] = fused.get(doc, 0.0) + weight / (60 + rank + 1)
        return sorted(fused, key=fused.__getitem__, reverse=True)[:k]


def _recall(mem: recall.Memory, query: str) -> object:
    return mem.deep_recall(query, user_id="bench-user", top_k=8)


def _composite(spec: str, table: dict[str, Vectors], real: recall.Embedder) -> CompositeEmbedder:
    """The spec's composite, its MiniLM part reading ``table`` (queries: the real models)."""
    c = COMPOSITES[recall.load_spec(spec).embedder]
    use = recall.load_embedder(c.parts[1])
    return CompositeEmbedder([PrecomputedEmbedder(real, table), use], c.weights, c.query, c.cjk)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", default="25,1000,10000")
    parser.add_argument("--queries", type=int, default=50)
    parser.add_argument("--tenants", type=int, default=10)
    parser.add_argument("--threads", type=int, default=1, help="CPU threads of every model")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]

    import torch

    torch.set_num_threads(args.threads)
    onnx = recall.load_embedder("minilm-onnx", threads=args.threads)
    real = recall.load_embedder("minilm", threads=args.threads)  # torch: old spec, baseline
    plain_spec, old_spec = recall.load_spec("plain"), recall.load_spec("default-torch")
    texts = make_texts(max(sizes), seed=0)
    t = time.perf_counter()
    vectors = real.embed_documents(texts)
    table = dict(zip(texts, vectors, strict=True))
    onnx_table = dict(zip(texts, onnx.embed_documents(texts), strict=True))
    # Each spec's composite, its MiniLM part reading a table (MiniLM runs over the texts
    # once per runtime); queries go through the real models, inside the timed call.
    ours, old = _composite("default", onnx_table, onnx), _composite("default-torch", table, real)
    print(f"embedded {len(texts)} texts in {time.perf_counter() - t:.1f} s (setup, not timed)")
    rng = random.Random(1)
    queries = [f"{rng.choice(SUBJECTS)} {rng.choice(OBJECTS)}" for _ in range(args.queries)]
    keys = ("rp50", "rp95", "op50", "op95", "pp50", "pp95", "bp50", "bp95", "e50", "t50")
    out: dict[str, list[float]] = {k: [] for k in keys}
    noise = np.random.default_rng(2)
    for size in sizes:
        with tempfile.TemporaryDirectory() as tmp:
            items = [
                {"text": x, "metadata": {"thread": f"t{i // 20}"}}
                for i, x in enumerate(texts[:size])
            ]
            mem = recall.open(Path(tmp) / "recall")
            mem._embedder = ours
            mem.add_many(items, user_id="bench-user")
            old_mem = recall.Memory(recall.Settings(path=Path(tmp) / "old"), spec=old_spec)
            old_mem._embedder = old
            old_mem.add_many(items, user_id="bench-user")
            plain_settings = recall.Settings(path=Path(tmp) / "plain", neighbour_weight=0.0)
            plain = recall.Memory(plain_settings, spec=plain_spec)
            plain._embedder = PrecomputedEmbedder(real, table)
            plain.add_many(items, user_id="bench-user")

            import chromadb
            from chromadb.config import Settings as ChromaSettings

            client = chromadb.PersistentClient(
                path=str(Path(tmp) / "baseline"),
                settings=ChromaSettings(anonymized_telemetry=False),
            )
            base = Baseline(client, "baseline-shared", real)
            for tenant in range(args.tenants):
                vec = vectors[:size]
                if tenant:
                    vec = vec + noise.normal(0, 0.02, vec.shape).astype(np.float32)
                base.add_user(f"tenant{tenant}", texts[:size], vec)
            base.index_user(texts[:size])
            ms = interleaved(
                {
                    "embed": onnx.embed_query,
                    "embed_torch": real.embed_query,
                    "recall": partial(_recall, mem),
                    "old": partial(_recall, old_mem),
                    "plain": partial(_recall, plain),
                    "baseline": partial(base.search, "tenant0"),
                },
                queries,
            )
            for m in (mem, old_mem, plain):
                m.close()
            client.close()
        for key, name in (("e", "embed"), ("t", "embed_torch")):
            out[f"{key}50"].append(statistics.median(ms[name]))
        for key, name in (("r", "recall"), ("o", "old"), ("p", "plain"), ("b", "baseline")):
            out[f"{key}p50"].append(statistics.median(ms[name]))
            out[f"{key}p95"].append(percentile(ms[name], 95))
        print(
            f"{size:>6} records: deep_recall p50 {out['rp50'][-1]:.2f} ms "
            f"p95 {out['rp95'][-1]:.2f} ms | old default (torch) p50 {out['op50'][-1]:.2f} ms "
            f"| baseline p50 {out['bp50'][-1]:.2f} ms p95 {out['bp95'][-1]:.2f} ms | "
            f"baseline/deep_recall {out['bp50'][-1] / out['rp50'][-1]:.1f}x, "
            f"old/new {out['op50'][-1] / out['rp50'][-1]:.1f}x | query embedding p50 "
            f"{out['e50'][-1]:.2f} ms (torch {out['t50'][-1]:.2f} ms) | plain blend p50 "
            f"{out['pp50'][-1]:.2f} ms"
        )
    print(
        json.dumps(
            {
                "sizes": sizes,
                "threads": args.threads,
                "embed_p50_ms": round(statistics.median(out["e50"]), 3),
                "embed_torch_p50_ms": round(statistics.median(out["t50"]), 3),
                # Per size too: the embedding is timed interleaved with both systems, so
                # "deep_recall minus embedding" is only meaningful within one size.
                "embed_p50_ms_by_size": [round(x, 3) for x in out["e50"]],
                "recall_p50_ms": [round(x, 3) for x in out["rp50"]],
                "recall_p95_ms": [round(x, 3) for x in out["rp95"]],
                "old_default_p50_ms": [round(x, 3) for x in out["op50"]],
                "old_default_p95_ms": [round(x, 3) for x in out["op95"]],
                "plain_p50_ms": [round(x, 3) for x in out["pp50"]],
                "plain_p95_ms": [round(x, 3) for x in out["pp95"]],
                "baseline_p50_ms": [round(x, 3) for x in out["bp50"]],
                "baseline_p95_ms": [round(x, 3) for x in out["bp95"]],
            }
        )
    )


if __name__ == "__main__":
    main()
