"""Ablation of retrieval choices on the benchmark datasets, from one run.

Each variant changes one thing of the product default (the analyzer of the keyword leg,
the embedder(s) of the vector leg, neighbour context in what is indexed, fusion) and is
scored on the same questions with the same metrics as ``recall bench``. Scoring uses the
product's own parts (``KeywordPartition``, the embedders, ``fuse_linear``); embeddings are
computed once per distinct text and model in the run and shared by the variants that use
them, which is what makes a dozen variants over three datasets affordable on two CPUs.
Latency is not measured here (``recall bench`` does that, on the real index).

    .venv/bin/python benchmarks/ablation.py --out benchmarks/results/ablation.json
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

import recall
from recall.bench.data import Dataset
from recall.bench.locomo import load_locomo
from recall.bench.memdaily import load_memdaily
from recall.bench.runner import score_runs
from recall.bench.scifact import load_scifact
from recall.index import neighbours
from recall.index.fuse import fuse_linear
from recall.index.keyword import BM25Params, KeywordPartition
from recall.models import Record
from recall.text import Analyzer

Vectors = npt.NDArray[np.float32]


@dataclass(frozen=True)
class Variant:
    """One configuration of the retrieval pipeline."""

    name: str
    analyzer: Analyzer = field(default_factory=Analyzer)
    bm25: BM25Params = field(default_factory=BM25Params)
    #: (embedder name, weight) pairs whose cosines are summed inside the vector leg.
    embedders: tuple[tuple[str, float], ...] = (("minilm", 1.0),)
    #: Weight per embedder when the query holds CJK text (None: same as ``embedders``).
    cjk_embedders: tuple[tuple[str, float], ...] | None = None
    context: int = 0  # neighbours before each document, within a thread, indexed with it
    alpha: float = 0.5
    pool: int = 100
    #: Query-time smoothing: each leg's score plus this share of its thread neighbours'.
    smooth: float = 0.0
    hops: int = 2


class EmbeddingCache:
    """Embeddings per (model, text), computed once in the run (or kept in ``folder``)."""

    def __init__(self, folder: Path | None = None) -> None:
        self._models: dict[str, recall.Embedder] = {}
        self._rows: dict[str, dict[str, Vectors]] = {}
        self.folder = folder

    def _file(self, name: str) -> Path | None:
        return None if self.folder is None else self.folder / f"{name}.npz"

    def load(self) -> None:
        """Read the embeddings an earlier run kept (``--cache DIR``; exploration only)."""
        for f in self.folder.glob("*.npz") if self.folder else ():
            with np.load(f, allow_pickle=False) as z:
                self._rows[f.stem] = dict(zip(z["texts"].tolist(), z["rows"], strict=True))

    def save(self) -> None:
        for name, rows in self._rows.items():
            f = self._file(name)
            if f is not None and rows:
                f.parent.mkdir(parents=True, exist_ok=True)
                np.savez(f, texts=np.array(list(rows)), rows=np.stack(list(rows.values())))

    def model(self, name: str) -> recall.Embedder:
        if name not in self._models:
            self._models[name] = recall.load_embedder(name)
        return self._models[name]

    def embed(self, name: str, texts: Sequence[str]) -> Vectors:
        rows = self._rows.setdefault(name, {})
        todo = sorted({t for t in texts if t not in rows}, key=len)
        if todo:
            mat = self.model(name).embed_documents(todo)
            rows.update(zip(todo, mat, strict=True))
        return np.stack([rows[t] for t in texts]) if texts else np.zeros((0, 1), np.float32)


def indexed_texts(ds: Dataset, context: int) -> dict[str, str]:
    """What is indexed for each document: its text, after ``context`` preceding neighbours."""
    texts = {d: ds.doc_text(d) for d in ds.corpus}
    if context == 0:
        return texts
    threads: dict[tuple[str, str], list[str]] = {}
    for d, doc in ds.corpus.items():
        if doc.get("thread") is not None:
            threads.setdefault((ds.user_of_doc(d), str(doc["thread"])), []).append(d)
    out = dict(texts)
    for docs in threads.values():
        for i, d in enumerate(docs):
            before = docs[max(0, i - context) : i]
            out[d] = "\n".join([texts[x] for x in before] + [texts[d]])
    return out


def run_variant(ds: Dataset, v: Variant, cache: EmbeddingCache, top_k: int = 50) -> dict[str, Any]:
    """Rank every query of ``ds`` under ``v``; the metrics of ``recall bench``."""
    texts = indexed_texts(ds, v.context)
    ranked: dict[str, list[str]] = {}
    by_user = ds.docs_by_user()
    queries_by_user: dict[str, list[str]] = {}
    for q in ds.queries:
        queries_by_user.setdefault(ds.user_of_query(q), []).append(q)
    names = sorted({n for n, _ in v.embedders} | {n for n, _ in (v.cjk_embedders or ())})
    for user, qids in queries_by_user.items():
        docs = by_user.get(user, [])
        kw = KeywordPartition(docs, [texts[d] for d in docs], v.bm25, v.analyzer)
        mats = {n: cache.embed(n, [texts[d] for d in docs]) for n in names}
        qmats = {n: cache.embed(n, [ds.queries[q] for q in qids]) for n in names}
        prev, nxt = _neighbours(ds, docs)
        for qi, q in enumerate(qids):
            query = ds.queries[q]
            weights = v.embedders
            if v.cjk_embedders is not None and recall.text.has_cjk(query):
                weights = v.cjk_embedders
            vec = np.zeros(len(docs), dtype=np.float64)
            for n, w in weights:
                if w:
                    vec += w * (mats[n] @ qmats[n][qi]).astype(np.float64)
            kws = kw.scores(query)
            # Candidates and smoothing exactly as recall.search does them.
            cand = _candidates(kws, vec, v.pool)
            if v.smooth:
                cand = neighbours.expand(cand, prev, nxt)
                kws_c = neighbours.smooth(kws, cand, prev, nxt, v.smooth, v.hops)
                vec_c = neighbours.smooth(vec, cand, prev, nxt, v.smooth, v.hops)
            else:
                kws_c, vec_c = kws[cand], vec[cand]
            fused = fuse_linear(kws_c, vec_c, v.alpha)
            order = np.lexsort((-vec_c, -kws_c, -fused))[:top_k]
            ranked[q] = [docs[int(cand[j])] for j in order]
    return score_runs(ds, ranked)


def _neighbours(ds: Dataset, docs: Sequence[str]) -> tuple[Any, Any]:
    """Each document's previous and next in its thread (-1: none), as recall links them."""
    epoch = datetime(1970, 1, 1, tzinfo=UTC)
    records = [
        Record.model_construct(
            id=d,
            kind="bench",
            created_at=ds.doc_time(d) or epoch,
            metadata={"thread": ds.corpus[d].get("thread")},  # None: not in a thread
        )
        for d in docs
    ]
    got = neighbours.links(records, "thread")
    if got is None:
        none = np.full(len(docs), -1, dtype=np.intp)
        return none, none
    return got


def _candidates(kw: npt.NDArray[np.float64], vec: npt.NDArray[np.float64], pool: int) -> Any:
    def top(s: npt.NDArray[np.float64]) -> Any:
        return np.arange(s.size) if s.size <= pool else np.argpartition(-s, pool - 1)[:pool]

    k = top(kw)
    return np.union1d(k[kw[k] > 0], top(vec))


STEM = Analyzer(stem=True, stopwords=True)
TUNED = BM25Params(k1=0.9, b=0.4)
BOTH = (("minilm", 0.5), ("use-multilingual", 0.5))
ROUTE = (("minilm", 1.0), ("use-multilingual", 0.0))
CJK_USE = (("minilm", 0.0), ("use-multilingual", 1.0))


def variants() -> list[Variant]:
    """The plain default, each change alone, the changes stacked, and the rejected ones."""
    return [
        Variant("plain blend (default before)"),
        # one change at a time
        Variant("stop words", analyzer=Analyzer(stopwords=True)),
        Variant("stop words + stemming", analyzer=STEM),
        Variant("BM25 k1 0.9, b 0.4", bm25=TUNED),
        Variant("thread neighbours 0.5, 2 hops", smooth=0.5),
        Variant("USE for CJK queries", embedders=ROUTE, cjk_embedders=CJK_USE),
        # stacked, in the order they were adopted; the last is the new default
        Variant("stop + stem + k1/b", analyzer=STEM, bm25=TUNED),
        Variant("... + thread neighbours, 1 hop", analyzer=STEM, bm25=TUNED, smooth=0.5, hops=1),
        Variant("... + thread neighbours, 2 hops", analyzer=STEM, bm25=TUNED, smooth=0.5),
        Variant(
            "... + USE for CJK (new default)",
            analyzer=STEM,
            bm25=TUNED,
            smooth=0.5,
            embedders=ROUTE,
            cjk_embedders=CJK_USE,
        ),
        # measured and not adopted
        Variant("rejected: MiniLM+USE averaged", analyzer=STEM, bm25=TUNED, embedders=BOTH),
        Variant("rejected: index 2 previous turns", analyzer=STEM, bm25=TUNED, context=2),
    ]


LOADERS: dict[str, Callable[[argparse.Namespace], Dataset]] = {
    "locomo": lambda a: load_locomo(a.locomo, "turns"),
    "scifact": lambda a: load_scifact(a.scifact),
    "memdaily": lambda a: load_memdaily(a.memdaily, limit=a.memdaily_limit),
}


def main(argv: Sequence[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--datasets", default="locomo,scifact,memdaily")
    p.add_argument("--locomo", default="../shared/datasets/locomo/locomo_dev7.json")
    p.add_argument("--scifact", default="../shared/datasets/scifact")
    p.add_argument("--memdaily", default="../shared/datasets/memdaily")
    p.add_argument("--memdaily-limit", type=int, default=260)
    p.add_argument("--only", default="", help="comma-separated variant names (default all)")
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--out", type=Path, default=Path("benchmarks/results/ablation.json"))
    p.add_argument("--cache", type=Path, help="keep embeddings here across runs (exploring)")
    a = p.parse_args(argv)
    import torch

    torch.set_num_threads(a.threads)
    cache = EmbeddingCache(a.cache)
    cache.load()
    chosen = [v for v in variants() if not a.only or v.name in a.only.split(",")]
    results: dict[str, Any] = {"variants": [v.name for v in chosen], "datasets": {}}
    for name in a.datasets.split(","):
        ds = LOADERS[name](a)
        res = results["datasets"][name] = {}
        for v in chosen:
            t0 = time.perf_counter()
            m = run_variant(ds, v, cache)
            res[v.name] = m
            cache.save()
            print(
                f"{name:9s} {v.name:40s} R@5 {100 * m['recall@5']:5.1f} "
                f"R@10 {100 * m['recall@10']:5.1f} nDCG@10 {100 * m['ndcg@10']:5.1f} "
                f"({time.perf_counter() - t0:.0f} s)",
                flush=True,
            )
    a.out.parent.mkdir(parents=True, exist_ok=True)
    a.out.write_text(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
