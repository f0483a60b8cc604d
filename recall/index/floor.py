"""The relevance floor: a query that nothing in memory answers gets nothing back.

Fused scores are normalized per query, so the best of a batch of unrelated records always
scores high ("launch code" once returned "User prefers vim keybindings" at 0.5). The floor
reads what does not depend on the batch instead. A hit passes when

- its raw vector similarity (the spec's embedder, cosine) reaches a threshold, or
- it shares words with the query (BM25 score above 0) covering at least
  ``min_keyword_coverage`` of the query's analyzed terms ("cache" finds "...session
  cache." whatever the similarity of one word to a sentence).

A query gets nothing unless one hit shows that memory holds something relevant; then the
hits that pass at the lower ``min_similarity_tail`` are returned. A hit shows it when its
similarity reaches ``min_similarity``, or when it passes on its keywords or is the current
statement of what a question asks of the user (recall.user.now) *and* its similarity
reaches ``min_similarity_support``: one shared word of a two-word question ("blood
type" in "...a simple number type scheme") or the asked attribute's newest statement
("What's my blood type?": a check-up's blood pressure) with nothing of the question's
meaning is no sign that memory answers it. Once one hit shows it, both rules keep hits
whatever their similarity (an indirect statement shares no word with the question).
One similarity threshold for both steps cut SciFact's weaker relevant abstracts (claims
share few words with them: nDCG@10 -1.6 on the train queries at 0.3) while LoCoMo lost
nothing down to 0.2 (benchmarks/floor.py, benchmarks/floor_rules.py; figures in
benchmarks/README.md).

Coverage rather than the raw BM25 score: BM25 grows with the collection's size (IDF), so a
threshold calibrated on 600 turns would reject every keyword match in a memory of ten. A
query holding CJK text is scored by USE-multilingual, whose cosines run lower: its
threshold is ``min_similarity_cjk`` (both steps), calibrated on MemDaily questions outside
the evaluated sample (benchmarks/floor_cjk.py). A query without CJK text has USE score the
hits that hold some (:mod:`.crosslang`): such a hit is judged on USE's scale too, every
threshold times ``min_similarity_cjk / min_similarity`` (an English question about a fact
said in Chinese scored 0.13-0.20 and got "nothing relevant": 3 questions of timeline_dev,
benchmarks/README.md). ``min_similarity_support`` is on MiniLM's scale and takes the same
factor for every USE-scored hit. A degraded hit (no vector leg) is judged by its keywords
alone.

The retriever applies it to every query's hits (:func:`floor_hits`, with the time windows'
say: :func:`~recall.index.window.keep_in_window`); the facade holds no part of it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from ..models import Hit, RecallRequest
from ..settings.retrieval import RetrievalSettings
from ..text import has_cjk
from ..text.analyzer import Analyzer
from .window import keep_in_window

__all__ = [
    "above_floor",
    "apply_floor",
    "coverage",
    "floor_hits",
    "shows_relevance",
    "similarity_floor",
]


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
    if hit.current:
        return True  # the current statement of what the question asks (recall.user.now)
    if hit.keyword_score > 0 and keyword_coverage >= min_keyword_coverage:
        return True
    if hit.vector_score is None:
        return min_similarity <= -1
    return hit.vector_score >= min_similarity


def shows_relevance(
    hit: Hit,
    keyword_coverage: float,
    min_similarity: float,
    min_keyword_coverage: float,
    support: float = -1.0,
) -> bool:
    """Whether ``hit`` shows that memory holds something relevant to the query (the first
    step of :func:`apply_floor`): :func:`above_floor`, where the keyword rule and a current
    statement count only at a similarity of ``support`` or more (-1: at any)."""
    weak = hit.vector_score is not None and hit.vector_score < min(min_similarity, support)
    return not weak and above_floor(hit, keyword_coverage, min_similarity, min_keyword_coverage)


def apply_floor(
    hits: Sequence[Hit],
    query: str,
    analyzer: Analyzer,
    min_similarity: float,
    min_keyword_coverage: float,
    tail_similarity: float | None = None,
    support: Callable[[Hit], float] | None = None,
    scale_of: Callable[[Hit], float] | None = None,
) -> list[Hit]:
    """``hits`` (order kept) less those under the floor.

    Two steps: nothing is returned unless one hit reaches ``min_similarity`` (or the keyword
    rule, or is a current statement, each at a similarity of ``support(hit)`` or more:
    :func:`shows_relevance`; no ``support``: at any); then the hits under ``tail_similarity``
    (at most ``min_similarity``; default the same) are dropped. A lower tail keeps the
    weaker relevant hits of an answerable query (SciFact's claims against abstracts) while
    an unrelated query still gets nothing. ``scale_of``: a factor on both thresholds for
    each hit (1: none), for hits a model with another scale scored.
    """
    if min_similarity <= -1:
        return list(hits)
    terms = frozenset(analyzer.tokens(query))
    covered = [(h, coverage(terms, analyzer.tokens(h.text))) for h in hits]
    scales = [1.0 if scale_of is None else scale_of(h) for h in hits]
    gate = [min_similarity * k for k in scales]
    if not any(
        shows_relevance(h, c, g, min_keyword_coverage, -1.0 if support is None else support(h))
        for (h, c), g in zip(covered, gate, strict=True)
    ):
        return []
    low = min_similarity if tail_similarity is None else min(tail_similarity, min_similarity)
    tail = [low * k for k in scales]
    return [
        h
        for (h, c), t in zip(covered, tail, strict=True)
        if above_floor(h, c, t, min_keyword_coverage)
    ]


def floor_hits(
    hits: Sequence[Hit], req: RecallRequest, analyzer: Analyzer, r: RetrievalSettings
) -> list[Hit]:
    """A query's ``hits`` (order kept) less those under the floor of settings ``r``, the
    hits inside the request's time windows aside (:func:`~recall.index.window.keep_in_window`)."""
    floor = similarity_floor(req.query, r.min_similarity, r.min_similarity_cjk)
    # USE-multilingual's cosines run lower: a hit it scored (the query or the hit holding
    # CJK text, recall.index.crosslang) is judged on its scale, floor and support alike.
    use_scale = r.min_similarity_cjk / r.min_similarity if r.min_similarity > 0 else 1.0
    query_cjk = has_cjk(req.query)

    def by_use(hit: Hit) -> bool:
        return query_cjk or has_cjk(hit.text)

    def support(hit: Hit) -> float:
        return r.min_similarity_support * (use_scale if by_use(hit) else 1.0)

    def scale_of(hit: Hit) -> float:
        # A CJK query's floor is USE's already.
        return use_scale if by_use(hit) and not query_cjk else 1.0

    kept = apply_floor(
        hits,
        req.query,
        analyzer,
        floor,
        r.min_keyword_coverage,
        tail_similarity=r.min_similarity_tail,
        support=support if r.min_similarity_support > -1 else None,
        scale_of=scale_of,
    )
    return keep_in_window(hits, kept, req)
