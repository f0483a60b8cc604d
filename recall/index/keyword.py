"""The keyword leg: BM25 over one user's records with bm25s.

A partition is built from texts already in the store; it scores every document of the
partition for a query (``get_scores``), so that fusion has exact keyword scores for every
candidate, not only for the BM25 top list. The default variant is bm25s' ``lucene``, whose
IDF ``log(1 + (N - df + 0.5) / (df + 0.5))`` stays positive even when a user has 3 records
(Robertson's original IDF, as in rank_bm25's BM25Okapi, goes to zero or below there).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from ..text import Analyzer

__all__ = ["BM25Params", "KeywordPartition"]


@dataclass(frozen=True)
class BM25Params:
    """BM25 variant and parameters (part of the index fingerprint)."""

    method: str = "lucene"
    k1: float = 1.5
    b: float = 0.75
    delta: float = 0.5


class KeywordPartition:
    """BM25 over a fixed list of documents (one user's records of some kinds)."""

    def __init__(
        self,
        ids: Sequence[str],
        texts: Sequence[str],
        params: BM25Params,
        analyzer: Analyzer | None = None,
    ) -> None:
        import bm25s

        self.ids = list(ids)
        self.params = params
        self.analyzer = analyzer or Analyzer()
        self._model = bm25s.BM25(method=params.method, k1=params.k1, b=params.b, delta=params.delta)
        tokens = [self.analyzer.tokens(t) for t in texts]
        # A partition whose documents hold no token at all (only stop words, say) has no
        # vocabulary, which bm25s cannot index: it scores 0 everywhere instead.
        self._empty = not any(tokens)
        if not self._empty:
            # bm25s accepts pre-tokenized documents; we tokenize ourselves so that CJK goes
            # through jieba and the query side uses exactly the same analyzer.
            self._model.index(tokens, show_progress=False)

    def __len__(self) -> int:
        return len(self.ids)

    def scores(self, query: str) -> npt.NDArray[np.float64]:
        """BM25 score of every document for ``query`` (0 where no query word occurs)."""
        if self._empty:
            return np.zeros(len(self.ids), dtype=np.float64)
        vocab = self._model.vocab_dict
        # Unknown words would raise inside bm25s; they contribute nothing anyway.
        known = [t for t in self.analyzer.tokens(query) if t in vocab]
        if not known:
            return np.zeros(len(self.ids), dtype=np.float64)
        return np.asarray(self._model.get_scores(known), dtype=np.float64)
