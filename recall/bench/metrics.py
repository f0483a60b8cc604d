"""Retrieval metrics as pure functions of one ranked list and its judgments.

``ranked`` is the retrieved doc ids, best first; ``relevant`` maps relevant doc ids to
their grade (> 0). Definitions:

- ``recall_at_k``: LoCoMo's recall, |relevant ∩ top k| / |relevant|. With ``covers``
  (doc -> evidence ids it holds) and ``evidence``, the share of evidence ids covered by
  the top k documents (LoCoMo observations).
- ``recall_any_at_k``: 1 if any relevant doc is in the top k, else 0.
- ``mrr_at_k``: 1 / rank of the first relevant doc within the top k, else 0.
- ``ndcg_at_k``: trec_eval's nDCG (as in BEIR through pytrec_eval): linear gain
  ``grade / log2(rank + 1)``, normalized by the ideal ordering of the judged docs.

A query with nothing relevant scores 0 on every metric (it cannot be found, and counting
it as 1 would flatter a system).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence

__all__ = ["mean", "mrr_at_k", "ndcg_at_k", "percentile", "recall_any_at_k", "recall_at_k"]


def _check_k(k: int) -> None:
    if k < 1:
        raise ValueError(f"k must be at least 1, got {k}")


def recall_at_k(
    ranked: Sequence[str],
    relevant: Mapping[str, int] | Iterable[str],
    k: int,
    *,
    covers: Mapping[str, Iterable[str]] | None = None,
    evidence: Iterable[str] | None = None,
) -> float:
    """Share of the relevant ids (or of ``evidence``, via ``covers``) found in the top k."""
    _check_k(k)
    top = ranked[:k]
    if covers is not None and evidence is not None:
        wanted = set(evidence)
        found: set[str] = set()
        for doc in top:
            found.update(covers.get(doc, ()))
        return len(wanted & found) / len(wanted) if wanted else 0.0
    rel = {d for d in relevant if not isinstance(relevant, Mapping) or relevant[d] > 0}
    return len(rel & set(top)) / len(rel) if rel else 0.0


def recall_any_at_k(ranked: Sequence[str], relevant: Mapping[str, int], k: int) -> float:
    """1.0 if at least one relevant doc is in the top k, else 0.0."""
    _check_k(k)
    return 1.0 if any(relevant.get(d, 0) > 0 for d in ranked[:k]) else 0.0


def mrr_at_k(ranked: Sequence[str], relevant: Mapping[str, int], k: int) -> float:
    """Reciprocal rank of the first relevant doc in the top k (0.0 if none)."""
    _check_k(k)
    for i, doc in enumerate(ranked[:k], start=1):
        if relevant.get(doc, 0) > 0:
            return 1.0 / i
    return 0.0


def ndcg_at_k(ranked: Sequence[str], relevant: Mapping[str, int], k: int) -> float:
    """nDCG@k with linear gains (trec_eval / BEIR); 0.0 when nothing is relevant."""
    _check_k(k)
    seen: set[str] = set()
    dcg = 0.0
    for i, doc in enumerate(ranked[:k], start=1):
        if doc in seen:  # a duplicate in a run earns nothing twice
            continue
        seen.add(doc)
        dcg += max(0, relevant.get(doc, 0)) / math.log2(i + 1)
    ideal = sorted((g for g in relevant.values() if g > 0), reverse=True)[:k]
    idcg = sum(g / math.log2(i + 1) for i, g in enumerate(ideal, start=1))
    return dcg / idcg if idcg > 0 else 0.0


def mean(values: Iterable[float]) -> float:
    """Arithmetic mean; 0.0 for no values."""
    vals = list(values)
    return sum(vals) / len(vals) if vals else 0.0


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q``-th percentile (0..100) with linear interpolation (numpy's default)."""
    if not values:
        return 0.0
    if not 0.0 <= q <= 100.0:
        raise ValueError(f"percentile must be in [0, 100], got {q}")
    xs = sorted(values)
    pos = (len(xs) - 1) * q / 100.0
    lo = math.floor(pos)
    hi = min(lo + 1, len(xs) - 1)
    return xs[lo] + (xs[hi] - xs[lo]) * (pos - lo)
