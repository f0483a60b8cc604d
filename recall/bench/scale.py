"""The scale sweep: one user with 1k, 10k, 100k synthetic records, ours and the baseline.

Each (system, size) runs in a fresh process (``spawn``) so that its peak RSS is its own
and nothing built for one size helps another. A run builds the index from the raw texts
(timed: embedding included for both systems), asks one warm-up query, then asks the
planted-fact questions ``repeat`` times each, timing every call (query embedding
included): p50/p95 latency. Ours is asked in the product's default mode (hybrid, α=0.5).
"""

from __future__ import annotations

import multiprocessing as mp
import resource
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from tqdm import tqdm

from .metrics import mean, percentile, recall_at_k
from .synthetic import synthetic_scale

__all__ = ["DEFAULT_SIZES", "measure", "scale_sweep"]

DEFAULT_SIZES = (1_000, 10_000, 100_000)
_CHUNK = 5_000


def _peak_rss_mb() -> float:
    """This process's own peak RSS in MB.

    VmHWM first: ``ru_maxrss`` survives fork and exec on Linux, so a spawned child reports
    at least its parent's size at spawn time (every row once read the parent's 1,015 MB).
    """
    try:
        with open("/proc/self/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024.0  # kB
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0  # kB on Linux


def measure(
    system: str, records: int, repeat: int = 3, threads: int = 1, seed: int = 0
) -> dict[str, Any]:
    """Build and query one system at one size in this process (see the module doc)."""
    import torch

    import recall

    from .baseline import EnsembleBaseline, chroma_memory_client

    torch.set_num_threads(threads)
    ds = synthetic_scale(records, seed=seed)
    ids = list(ds.corpus)
    texts = [ds.doc_text(d) for d in ids]
    embedder = recall.load_embedder("minilm")
    embedder.embed_query("load")  # model load and first-call set-up stay out of build time
    with tempfile.TemporaryDirectory(prefix="recall-scale-") as tmp:
        t0 = time.perf_counter()
        if system == "recall":
            mem = recall.open(Path(tmp) / "memory")
            for i in range(0, len(ids), _CHUNK):
                mem.add_many(
                    [
                        {"id": d, "text": t, "created_at": ds.corpus[d]["created_at"]}
                        for d, t in zip(ids[i : i + _CHUNK], texts[i : i + _CHUNK], strict=True)
                    ],
                    user_id="scale",
                )
            mem.deep_recall("warm up", user_id="scale", top_k=1)

            def search(q: str) -> list[str]:
                return [h.id for h in mem.deep_recall(q, user_id="scale", top_k=10)]
        elif system == "baseline":
            base = EnsembleBaseline(chroma_memory_client(), embedder, ids, texts)
            base.search("warm up", 1)

            def search(q: str) -> list[str]:
                return base.search(q, 10)
        else:
            raise ValueError(f"unknown system {system!r}")
        build_s = time.perf_counter() - t0
        ms: list[float] = []
        recalls = []
        for _ in range(repeat):
            for qid, query in ds.queries.items():
                t1 = time.perf_counter()
                ranked = search(query)
                ms.append((time.perf_counter() - t1) * 1000.0)
                recalls.append(recall_at_k(ranked, ds.qrels[qid], 10))
    return {
        "system": system,
        "records": records,
        "queries": len(ms),
        "build_s": build_s,
        "docs_per_s": records / max(build_s, 1e-9),
        "p50_ms": percentile(ms, 50),
        "p95_ms": percentile(ms, 95),
        "mean_ms": mean(ms),
        "recall@10": mean(recalls),
        "peak_rss_mb": _peak_rss_mb(),
    }


def scale_sweep(
    sizes: Sequence[int] = DEFAULT_SIZES,
    *,
    systems: Sequence[str] = ("recall", "baseline"),
    repeat: int = 3,
    threads: int = 1,
    progress: bool = True,
) -> list[dict[str, Any]]:
    """Every (system, size) in its own spawned process; rows in run order."""
    ctx = mp.get_context("spawn")
    rows = []
    jobs = [(s, n) for n in sizes for s in systems]
    for system, n in tqdm(jobs, desc="scale", disable=not progress):
        with ctx.Pool(1) as pool:
            rows.append(pool.apply(measure, (system, n, repeat, threads)))
    return rows
