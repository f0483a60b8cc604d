"""The relevance floor: a hit too weak on both legs is not returned.

Fused scores are normalized per query, so the best of a batch of unrelated records always
scores high ("launch code" once returned "User prefers vim keybindings" at 0.5). The floor
reads the raw leg scores instead: a hit stays when its vector similarity reaches
``min_similarity`` or its BM25 score reaches ``min_keyword_score``. Both defaults are
calibrated on the LoCoMo development conversations (benchmarks/floor.py; the figures are in
benchmarks/README.md). A degraded hit (no vector leg) is judged by its keywords alone.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..models import Hit

__all__ = ["above_floor", "apply_floor"]


def above_floor(hit: Hit, min_similarity: float, min_keyword_score: float) -> bool:
    """Whether ``hit`` is strong enough on at least one leg to be returned: its BM25 score
    is positive (it shares a word with the query) and reaches ``min_keyword_score``, or its
    vector similarity reaches ``min_similarity`` (-1 lets every hit through)."""
    if hit.keyword_score > 0 and hit.keyword_score >= min_keyword_score:
        return True
    if hit.vector_score is None:
        return min_similarity <= -1
    return hit.vector_score >= min_similarity


def apply_floor(hits: Sequence[Hit], min_similarity: float, min_keyword_score: float) -> list[Hit]:
    """``hits`` (order kept) less those under the floor."""
    return [h for h in hits if above_floor(h, min_similarity, min_keyword_score)]
