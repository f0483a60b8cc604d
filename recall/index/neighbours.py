"""Thread neighbours: a record is scored with a share of its neighbours' scores.

Records whose metadata names a thread (``settings.retrieval.thread_key``, "thread" by default: the
conversation or session they come from) are ordered in it by ``(created_at, id)``. A turn
of a dialogue is often short and leans on the turn before or after it ("Yes, last
Saturday!"); the question names what the neighbour said. So at query time each leg's score
of a threaded record becomes ``own + Σ_h weight**h * max(score h before, score h after)``
for ``h = 1 .. hops`` before fusion, and the neighbours of every candidate are candidates
too. Records without a thread keep their own scores. Measured with
``benchmarks/ablation.py`` on LoCoMo (turns): weight 0.5 with 2 hops was best (1, 3 and 4
hops, weights 0.4-0.6 were tried); see benchmarks/README.md.

Pure functions: the links are computed once per partition, the smoothing per query.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from ..models import Record

__all__ = ["expand", "links", "smooth"]

IntArray = npt.NDArray[np.intp]
FloatArray = npt.NDArray[np.float64]


def links(records: Sequence[Record], key: str) -> tuple[IntArray, IntArray] | None:
    """Index of each record's previous and next record in its thread (-1: none).

    Threads are per kind (a summary never neighbours a dialogue turn). ``None`` when no
    record has a thread, so that callers skip the work entirely.
    """
    prev = np.full(len(records), -1, dtype=np.intp)
    nxt = np.full(len(records), -1, dtype=np.intp)
    threads: dict[tuple[str, str], list[int]] = {}
    for i, r in enumerate(records):
        thread = r.metadata.get(key) if r.metadata else None
        if thread is not None:
            threads.setdefault((r.kind, str(thread)), []).append(i)
    if not threads:
        return None
    for members in threads.values():
        members.sort(key=lambda i: (records[i].created_at, records[i].id))
        for a, b in itertools.pairwise(members):
            nxt[a], prev[b] = b, a
    return prev, nxt


def expand(cand: IntArray, prev: IntArray, nxt: IntArray, hops: int = 1) -> IntArray:
    """The candidates and their thread neighbours up to ``hops`` away, sorted, unique."""
    out = cand
    for _ in range(hops):
        near = np.concatenate([prev[out], nxt[out]])
        out = np.union1d(out, near[near >= 0])
    return out


def smooth(
    scores: FloatArray,
    cand: IntArray,
    prev: IntArray,
    nxt: IntArray,
    weight: float,
    hops: int = 1,
) -> FloatArray:
    """``scores[cand] + Σ_h weight**h * max(score h before, score h after, 0)``.

    ``scores`` must hold the leg's score for every candidate and every record up to
    ``hops`` away from one. A missing neighbour, or a negative score (a cosine below 0),
    adds nothing rather than subtracting.
    """
    out = scores[cand].astype(np.float64, copy=True)
    if weight == 0.0:
        return out
    p, n = prev[cand], nxt[cand]
    for h in range(1, hops + 1):
        before = np.where(p >= 0, scores[np.maximum(p, 0)], 0.0)
        after = np.where(n >= 0, scores[np.maximum(n, 0)], 0.0)
        out += weight**h * np.maximum(np.maximum(before, after), 0.0)
        p = np.where(p >= 0, prev[np.maximum(p, 0)], -1)
        n = np.where(n >= 0, nxt[np.maximum(n, 0)], -1)
    return out
