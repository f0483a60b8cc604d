"""Run every retrieval mode over one index of a dataset, and the peer baseline beside it.

One memory folder per embedder spec is built once (``ingest_s``: ``add_many`` for every
user, i.e. SQLite + embedding + Chroma upsert). Then every query is asked in every mode on
that same index, timed one call at a time (query embedding included), the modes
interleaved per query so that they share the machine's load:

- ``bm25``: alpha = 1 (keyword order), ``vector``: alpha = 0, ``hybrid``: alpha = 0.5,
  ``rrf``: weighted RRF 0.5/0.5 inside recall, ``alpha_sweep``: 0.0 .. 1.0 by 0.1,
- ``baseline``: the LangChain EnsembleRetriever recipe (:mod:`recall.bench.baseline`).

Nothing is cached across runs: every run builds its indexes from the raw texts.
"""

from __future__ import annotations

import tempfile
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from tqdm import tqdm

import recall

from .baseline import EnsembleBaseline, chroma_memory_client
from .data import Dataset
from .metrics import mean, mrr_at_k, ndcg_at_k, percentile, recall_any_at_k, recall_at_k

__all__ = ["KS", "RunConfig", "build_memory", "evaluate", "run_dataset", "score_runs"]

KS = (1, 2, 5, 10, 25, 50)
SWEEP = tuple(round(i / 10, 1) for i in range(11))
Ranked = dict[str, list[str]]


@dataclass(frozen=True)
class RunConfig:
    """What one benchmark run does."""

    specs: tuple[str, ...] = ("default",)
    sweep: bool = True
    baseline: bool = True
    top_k: int = max(KS)
    progress: bool = True


@dataclass
class _Timed:
    ranked: Ranked = field(default_factory=dict)
    ms: list[float] = field(default_factory=list)


def score_runs(ds: Dataset, ranked: Ranked, ks: Sequence[int] = KS) -> dict[str, Any]:
    """Mean metrics of one mode over the dataset's queries, overall and per category."""

    def metrics(qids: Iterable[str]) -> dict[str, Any]:
        qids = list(qids)
        out: dict[str, Any] = {"queries": len(qids)}
        for k in ks:
            out[f"recall@{k}"] = mean(
                recall_at_k(
                    ranked[q],
                    ds.qrels[q],
                    k,
                    covers=ds.covers,
                    evidence=None if ds.evidence is None else ds.evidence[q],
                )
                for q in qids
            )
        for k in (5, 10):
            out[f"recall_any@{k}"] = mean(recall_any_at_k(ranked[q], ds.qrels[q], k) for q in qids)
        out["mrr@10"] = mean(mrr_at_k(ranked[q], ds.qrels[q], 10) for q in qids)
        out["ndcg@10"] = mean(ndcg_at_k(ranked[q], ds.qrels[q], 10) for q in qids)
        return out

    result = metrics(ds.queries)
    cats = ds.categories()
    if cats:
        result["per_category"] = {
            c: metrics(q for q in ds.queries if str(ds.query_meta[q].get("category")) == c)
            for c in cats
        }
    return result


def _latency(ms: Sequence[float]) -> dict[str, float]:
    return {
        "p50_ms": percentile(ms, 50),
        "p95_ms": percentile(ms, 95),
        "mean_ms": mean(ms),
    }


def evaluate(ds: Dataset, timed: _Timed) -> dict[str, Any]:
    """Quality metrics and latency of one mode."""
    return {**score_runs(ds, timed.ranked), **_latency(timed.ms)}


def build_memory(
    ds: Dataset, path: Path, spec: str, progress: bool = True
) -> tuple[recall.Memory, dict[str, float]]:
    """A memory folder holding the dataset, one user per dataset user; ingest timing."""
    mem = recall.open(path, settings=recall.Settings(index_spec=spec))
    users = ds.docs_by_user()
    mem.embedder()  # load the model outside the timing: the baseline gets it loaded too
    t0 = time.perf_counter()
    for user, docs in tqdm(users.items(), desc=f"index {spec}", disable=not progress, leave=False):
        items = []
        for d in docs:
            item: dict[str, Any] = {"id": d, "text": ds.doc_text(d)}
            when = ds.doc_time(d)
            if when is not None:
                item["created_at"] = when
            thread = ds.corpus[d].get("thread")
            if thread is not None:
                item["metadata"] = {"thread": str(thread)}
            items.append(item)
        mem.add_many(items, user_id=user)
    return mem, {"docs": len(ds.corpus), "users": len(users), "ingest_s": time.perf_counter() - t0}


def _ours(
    mem: recall.Memory, top_k: int, alpha: float, fusion: str, ends: _Nows
) -> Callable[[str, str], list[str]]:
    # A replay: time words in a question ("last week") are read against the time the
    # question was asked (MemDaily's own), else the end of the user's conversation (its last
    # record), never against the day the bench runs.
    def search(query: str, user: str) -> list[str]:
        hits = mem.deep_recall(
            query,
            user_id=user,
            top_k=top_k,
            alpha=alpha,
            fusion=fusion,  # type: ignore[arg-type]
            now=ends.get((user, query), ends.get((user, ""))),
        )
        return [h.id for h in hits]

    return search


def _modes(
    mems: dict[str, recall.Memory], cfg: RunConfig, ends: _Nows
) -> dict[str, Callable[[str, str], list[str]]]:
    """Every (label, search) to ask: the four modes per spec, the sweep on the first."""
    out = {}
    for i, (spec, mem) in enumerate(mems.items()):
        pre = "" if i == 0 else f"{spec}:"
        for name, (alpha, fusion) in _BASE_MODES.items():
            out[pre + name] = _ours(mem, cfg.top_k, alpha, fusion, ends)
        if i == 0 and cfg.sweep:
            for alpha in SWEEP:
                if alpha not in (0.0, 0.5, 1.0):  # those are vector, hybrid, bm25
                    out[f"alpha={alpha:.1f}"] = _ours(mem, cfg.top_k, alpha, "linear", ends)
    return out


_BASE_MODES = {
    "bm25": (1.0, "linear"),
    "vector": (0.0, "linear"),
    "hybrid": (0.5, "linear"),
    "rrf": (0.5, "rrf"),
}


def _ask_all(
    ds: Dataset, mems: dict[str, recall.Memory], cfg: RunConfig
) -> tuple[dict[str, _Timed], dict[str, float]]:
    """Ask every query in every mode, user by user, the modes interleaved per query.

    Interleaving (with the order rotated from one query to the next) gives every mode the
    same machine load, and asking a user's queries together keeps its partition warm, as
    it is for a user in conversation. Each user's first query per memory (BM25 partition
    build, vector load) is a separate, untimed-for-latency warm-up, summed into ``warm_s``.
    """
    searches = _modes(mems, cfg, _ends(ds))
    timed = {label: _Timed() for label in [*searches, "baseline"]}
    warm = dict.fromkeys(mems, 0.0)
    base_build = 0.0
    # The baseline's MiniLM runs on sentence-transformers (torch): loaded only for it.
    embedder = recall.load_embedder("minilm") if cfg.baseline else None
    client = chroma_memory_client() if cfg.baseline else None
    docs = ds.docs_by_user()
    turn = 0
    for user, qids in tqdm(ds.queries_by_user().items(), desc=ds.name, disable=not cfg.progress):
        for spec, mem in mems.items():
            t0 = time.perf_counter()
            mem.deep_recall("warm up", user_id=user, top_k=1)
            warm[spec] += time.perf_counter() - t0
        asked = dict(searches)
        base = None
        if client is not None and embedder is not None:
            t0 = time.perf_counter()
            base = EnsembleBaseline(
                client, embedder, docs[user], [ds.doc_text(d) for d in docs[user]]
            )
            base_build += time.perf_counter() - t0
            base.search("warm up", 1)
            asked["baseline"] = _baseline_search(base, cfg.top_k)
        try:
            labels = list(asked)
            for qid in qids:
                turn += 1
                k = turn % len(labels)
                for label in labels[k:] + labels[:k]:
                    t0 = time.perf_counter()
                    ranked = asked[label](ds.queries[qid], user)
                    timed[label].ms.append((time.perf_counter() - t0) * 1000.0)
                    timed[label].ranked[qid] = ranked
        finally:
            if base is not None:
                base.close()
    return timed, {**{f"warm_s:{s}": w for s, w in warm.items()}, "baseline_build_s": base_build}


#: The "now" of each question: (user, question) -> when it was asked; (user, "") -> the
#: user's latest record, for a question the dataset gives no time.
_Nows = dict[tuple[str, str], datetime]


def _ends(ds: Dataset) -> _Nows:
    """The "now" of a replay: each question's own time where the dataset has one (MemDaily:
    its haystack mixes in other conversations' later messages, so their end is not when the
    question was asked), else the user's latest record time."""
    ends: _Nows = {}
    for user, docs in ds.docs_by_user().items():
        times = [t for t in map(ds.doc_time, docs) if t is not None]
        if times:
            ends[(user, "")] = max(times)
    for qid, meta in ds.query_meta.items():
        if isinstance(meta.get("asked_at"), datetime):
            ends[(ds.user_of_query(qid), ds.queries[qid])] = meta["asked_at"]
    return ends


def _baseline_search(base: EnsembleBaseline, top_k: int) -> Callable[[str, str], list[str]]:
    def search(query: str, _user: str) -> list[str]:
        return base.search(query, top_k)

    return search


def run_dataset(ds: Dataset, cfg: RunConfig, workdir: Path | None = None) -> dict[str, Any]:
    """Every mode for the first spec, the four modes for other specs, and the baseline."""
    with tempfile.TemporaryDirectory(prefix="recall-bench-") as tmp:
        root = Path(workdir or tmp)
        mems: dict[str, recall.Memory] = {}
        builds: dict[str, dict[str, Any]] = {}
        try:
            for spec in cfg.specs:
                mems[spec], builds[spec] = build_memory(
                    ds, root / f"memory-{Path(spec).stem}", spec, cfg.progress
                )
            timed, timings = _ask_all(ds, mems, cfg)
        finally:
            for mem in mems.values():
                mem.close()
    n = len(ds.corpus)
    for spec, b in builds.items():
        b["warm_s"] = timings[f"warm_s:{spec}"]
        b["docs_per_s"] = n / max(b["ingest_s"] + b["warm_s"], 1e-9)
    first = cfg.specs[0]
    modes = {name: evaluate(ds, timed[name]) for name in _BASE_MODES}
    sweep: dict[str, Any] = {}
    if cfg.sweep:
        known = {0.0: "vector", 0.5: "hybrid", 1.0: "bm25"}
        for alpha in SWEEP:
            label = known.get(alpha, f"alpha={alpha:.1f}")
            sweep[f"{alpha:.1f}"] = modes[label] if label in modes else evaluate(ds, timed[label])
    out: dict[str, Any] = {
        "dataset": ds.name,
        "corpus_docs": n,
        "queries": len(ds.queries),
        "users": len(ds.docs_by_user()),
        "stats": ds.stats,
        "build": builds[first],
        "modes": modes,
        "alpha_sweep": sweep,
        "embedders": {first: {"embedder": mems[first].spec.embedder}},
    }
    for spec in cfg.specs[1:]:
        out["embedders"][spec] = {
            "embedder": mems[spec].spec.embedder,
            "build": builds[spec],
            "modes": {name: evaluate(ds, timed[f"{spec}:{name}"]) for name in _BASE_MODES},
        }
    if cfg.baseline:
        out["modes"]["baseline"] = evaluate(ds, timed["baseline"])
        bs = timings["baseline_build_s"]
        out["baseline_build"] = {"docs": n, "build_s": bs, "docs_per_s": n / max(bs, 1e-9)}
    return out
