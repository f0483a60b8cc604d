"""The relevance floor: a hit weak on both legs is not returned.

Fused scores are normalized per query, so the best of a batch of unrelated records always
scores high ("launch code" once returned "User prefers vim keybindings" at 0.5). The floor
reads what does not depend on the batch instead. A hit stays when

- its raw vector similarity (the spec's embedder, cosine) reaches ``min_similarity``, or
- it shares words with the query (BM25 score above 0) covering at least
  ``min_keyword_coverage`` of the query's analyzed terms ("cache" finds "...session
  cache." whatever the similarity of one word to a sentence).

Coverage rather than the raw BM25 score: BM25 grows with the collection's size (IDF), so a
threshold calibrated on 600 turns would reject every keyword match in a memory of ten. Both
defaults are calibrated on the LoCoMo development conversations (benchmarks/floor.py; the
figures are in benchmarks/README.md). A query holding CJK text is scored by USE-multilingual,
whose cosines run lower: it has its own threshold, ``min_similarity_cjk``, calibrated on
MemDaily questions outside the evaluated sample (benchmarks/floor_cjk.py). A degraded hit
(no vector leg) is judged by its keywords alone.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ..models import Hit
from ..text import has_cjk
from ..text.analyzer import Analyzer

__all__ = ["above_floor", "apply_floor", "coverage", "similarity_floor"]


def similarity_floor(query: str, min_similarity: float, min_similarity_cjk: float) -> float:
    """The similarity floor for ``query``: CJK queries are scored by USE-multilingual, whose
    cosines run lower than MiniLM's, so they have a threshold of their own."""
    return min_similarity_cjk if has_cjk(query) else min_similarity


def coverage(query_terms: frozenset[str], text_terms: Iterable[str]) -> float:
    """Share of ``query_terms`` present in ``text_terms`` (0 for a query with no terms)."""
    if not query_terms:
        return 0.0
    return len(query_terms.intersection(text_terms)) / len(query_terms)


def above_floor(
    hit: Hit, keyword_coverage: float, min_similarity: float, min_keyword_coverage: float
) -> bool:
    """Whether ``hit`` is strong enough on one leg: see the module docs. A
    ``min_similarity`` of -1 lets every hit through."""
    if hit.keyword_score > 0 and keyword_coverage >= min_keyword_coverage:
        return True
    if hit.vector_score is None:
        return min_similarity <= -1
    return hit.vector_score >= min_similarity


def apply_floor(
    hits: Sequence[Hit],
    query: str,
    analyzer: Analyzer,
    min_similarity: float,
    min_keyword_coverage: float,
) -> list[Hit]:
    """``hits`` (order kept) less those under the floor."""
    if min_similarity <= -1:
        return list(hits)
    terms = frozenset(analyzer.tokens(query))
    return [
        h
        for h in hits
        if above_floor(
            h, coverage(terms, analyzer.tokens(h.text)), min_similarity, min_keyword_coverage
        )
    ]
