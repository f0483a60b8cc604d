"""The one ranking blend of the context: similarity to the conversation plus a confidence.

Memory injection (:mod:`recall.context.facts`) and the memory block's short-term summaries
(:mod:`recall.context.memory_block`) both rank by
``similarity_weight · similarity + confidence_weight · confidence``; each module computes
only its own similarity (TF-IDF for facts, embeddings for summaries) and confidence (a
fact's own, else its recency; a summary's recency). The weights live in
:class:`~recall.settings.ContextSettings` (0.6 and 0.4; see docs/design.md). Pure functions.
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["blend_rank", "recency_scores"]


def recency_scores(times: Sequence[float]) -> list[float]:
    """Linear recency of each timestamp: newest 1.0, oldest 0.0 (all 1.0 when equal)."""
    if not times:
        return []
    lo, hi = min(times), max(times)
    if hi <= lo:
        return [1.0] * len(times)
    return [(t - lo) / (hi - lo) for t in times]


def blend_rank(
    similarities: Sequence[float],
    confidences: Sequence[float],
    *,
    similarity_weight: float,
    confidence_weight: float,
    tiebreak: Sequence[float] | None = None,
) -> list[tuple[int, float]]:
    """``(index, score)`` of every item, best first, scored by the weighted blend.

    Ties go to the higher ``tiebreak`` value when one is given, then to the earlier item:
    the sort is stable, so a caller's order survives wherever nothing else decides.
    """
    if len(similarities) != len(confidences):
        raise ValueError("one similarity per confidence is needed")
    scores = [
        similarity_weight * sim + confidence_weight * conf
        for sim, conf in zip(similarities, confidences, strict=True)
    ]
    if tiebreak is None:
        order = sorted(range(len(scores)), key=lambda i: -scores[i])
    else:
        order = sorted(range(len(scores)), key=lambda i: (-scores[i], -tiebreak[i]))
    return [(i, scores[i]) for i in order]
