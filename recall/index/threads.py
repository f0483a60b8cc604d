"""Thread neighbours: a record is scored with a share of its neighbours' scores.

Records whose metadata names a thread (``Settings.thread_key``, "thread" by default: the
conversation or session they come from) are ordered in it by ``(created_at, id)``. A turn
of a dialogue is often short and leans on the turn before or after it ("Yes, last
Saturday!"); the question names what the neighbour said. So at query time each leg's score
of a threaded record becomes ``own + weight * max(previous, next)`` before fusion, and the
neighbours of every candidate are candidates too. Records without a thread keep their own
scores. Measured with ``benchmarks/ablation.py`` on LoCoMo (turns): see benchmarks/README.

Pure functions: the links are computed once per partition, the smoothing per query.
"""

from __future__ import annotations

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
        for a, b in zip(members, members[1:], strict=False):
            nxt[a], prev[b] = b, a
    return prev, nxt


def expand(cand: IntArray, prev: IntArray, nxt: IntArray) -> IntArray:
    """The candidates and their thread neighbours, sorted, without duplicates."""
    near = np.concatenate([prev[cand], nxt[cand]])
    return np.union1d(cand, near[near >= 0])


def smooth(
    scores: FloatArray, cand: IntArray, prev: IntArray, nxt: IntArray, weight: float
) -> FloatArray:
    """``scores[cand] + weight * max(score of previous, score of next)`` (0 for none).

    ``scores`` must hold the leg's score for every candidate and every neighbour of one.
    Negative neighbour scores (a cosine below 0) add nothing rather than subtract.
    """
    own = scores[cand]
    if weight == 0.0:
        return own
    p, n = prev[cand], nxt[cand]
    before = np.where(p >= 0, scores[np.maximum(p, 0)], 0.0)
    after = np.where(n >= 0, scores[np.maximum(n, 0)], 0.0)
    return own + weight * np.maximum(np.maximum(before, after), 0.0)
