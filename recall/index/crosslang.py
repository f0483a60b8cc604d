"""Cross-language scoring: each record is scored by the model that reads both it and the query.

The default spec's documents carry MiniLM and USE-multilingual; a query is routed to one of
them (:class:`~recall.index.embed.CompositeEmbedder`): USE for a query holding CJK text,
MiniLM for any other. MiniLM does not read Chinese, so an English question scored a fact
said in Chinese at noise level (0 of 3 found). Here the route is chosen per record as well:

- a query without CJK text scores records without CJK text by MiniLM as before, and
  records holding CJK text by USE (the query embedded by USE too), times
  ``cross_language_scale``;
- a query holding CJK text scores every record by USE as before, records without CJK text
  times ``cross_language_scale_cjk``: USE rates a Chinese question nearer to unrelated
  Chinese text than to its English answer.

BM25 cannot match across languages, so in linear fusion a record in the other language
takes ``cross_keyword_share`` × its normalized vector score as keyword score when that is
higher (:func:`impute_keyword`). Same-language pairs keep today's scores exactly, so
English-only memories (LoCoMo) and Chinese-only ones (MemDaily) rank as before. The
factors stay 1: other values did no better on the project's own development set
(``benchmarks/crosslang.py``, ``tests/data/crosslang.jsonl``). The scaled score is what the
relevance floor (:mod:`.floor`) reads, a USE-scored record against USE's threshold. Embedders that
are not such a composite are left as they are.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from ..models import Record
from ..text import has_cjk
from .embed import CompositeEmbedder, Embedder

__all__ = [
    "Route",
    "cjk_mask",
    "impute_keyword",
    "other_language",
    "routes",
    "score_matrix",
    "score_rows",
]

Vectors = npt.NDArray[np.float32]
Mask = npt.NDArray[np.bool_]


@dataclass(frozen=True)
class Route:
    """Records in ``mask`` are scored ``factor · (vector · document)``."""

    vector: Vectors
    mask: Mask
    factor: float


def cjk_mask(records: Sequence[Record]) -> Mask:
    """Which records hold CJK text (the same test that routes a query)."""
    return np.fromiter((has_cjk(r.text) for r in records), dtype=np.bool_, count=len(records))


def routes(
    embedder: Embedder, query: str, cjk: Mask, scale: float, scale_cjk: float
) -> list[Route]:
    """How each record is scored for ``query`` (the routes cover every record once).

    One route, the query's own vector over every record, unless the embedder is a composite
    that routes CJK and other queries differently and the records mix in the other
    language; routes over no record are left out.
    """
    query_cjk = has_cjk(query)
    q = embedder.embed_query(query)
    everything = np.ones(cjk.shape, dtype=np.bool_)
    if not isinstance(embedder, CompositeEmbedder) or not embedder.routes_by_language:
        return [Route(q, everything, 1.0)]
    same = cjk if query_cjk else ~cjk
    if same.all():
        return [Route(q, everything, 1.0)]
    if query_cjk:  # USE already reads both languages: only the scale differs
        out = [Route(q, same, 1.0), Route(q, ~same, scale_cjk)]
    else:  # an English query over CJK records: those are read by USE, not MiniLM
        out = [Route(q, same, 1.0), Route(embedder.embed_query_as(query, cjk=True), cjk, scale)]
    return [r for r in out if r.mask.any()]


def _dot(matrix: Vectors, vector: Vectors) -> npt.NDArray[np.float64]:
    """``matrix @ vector`` over the columns where ``vector`` is not zero.

    A composite's query vector is zero outside the blocks of the models it is routed to;
    on a column-major matrix (the partitions') those columns are contiguous, so the product
    reads only them."""
    nonzero = np.flatnonzero(vector)
    if nonzero.size == 0:
        return np.zeros(matrix.shape[0], dtype=np.float64)
    lo, hi = int(nonzero[0]), int(nonzero[-1]) + 1
    return (matrix[:, lo:hi] @ vector[lo:hi]).astype(np.float64)


def score_matrix(matrix: Vectors, rs: Sequence[Route]) -> npt.NDArray[np.float64]:
    """Every row's score (rows aligned with the mask of the routes)."""
    if len(rs) == 1 and rs[0].factor == 1.0:
        return _dot(matrix, rs[0].vector)
    out = np.zeros(matrix.shape[0], dtype=np.float64)
    products: dict[int, npt.NDArray[np.float64]] = {}  # a CJK query's routes share a vector
    for r in rs:
        # Every row through the route's columns, then the route's rows kept: a row gather
        # first would copy the matrix.
        if id(r.vector) not in products:
            products[id(r.vector)] = _dot(matrix, r.vector)
        out[r.mask] = products[id(r.vector)][r.mask] * r.factor
    return out


def score_rows(rows: dict[int, Vectors], rs: Sequence[Route]) -> dict[int, float]:
    """The scores of some rows (record position -> vector), each by its route."""
    out: dict[int, float] = {}
    for i, v in rows.items():
        for r in rs:
            if r.mask[i]:
                out[i] = float(v @ r.vector) * r.factor
                break
    return out


def other_language(embedder: Embedder, query: str, cjk: Mask) -> Mask | None:
    """Records in the other language than ``query`` when the embedder reads both across
    languages (a composite that routes by language), else None."""
    if not isinstance(embedder, CompositeEmbedder) or not embedder.routes_by_language:
        return None
    other: Mask = ~cjk if has_cjk(query) else cjk
    return other if other.any() else None


def impute_keyword(
    fused: npt.NDArray[np.float64],
    vector_norm: npt.NDArray[np.float64],
    other: Mask,
    alpha: float,
    share: float,
) -> npt.NDArray[np.float64]:
    """Linear fusion where the keyword leg cannot see: a record in the other language
    (``other``) shares no word with the query, so its normalized keyword score is taken as
    the larger of the real one and ``share`` × its normalized vector score. ``fused`` is
    ``alpha·keyword + (1-alpha)·vector`` (both normalized): without this a fact said in
    Chinese is capped at ``1 - alpha``, under every English record sharing a word with an
    English question. Same-language rows are unchanged; ``share`` 0 changes nothing."""
    out = fused.copy()
    lifted = (alpha * share + 1.0 - alpha) * vector_norm
    out[other] = np.maximum(fused[other], lifted[other])
    return out
