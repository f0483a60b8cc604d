"""deep_recall: both legs over one user's partition, fused.

A partition (:mod:`.partitions`) is one user's records of some kinds at one store version:
the BM25 model over their texts, the records, and (unless the cache is off) their vectors,
loaded from Chroma once per version and scored exactly by one matrix-vector product (a
Chroma query with the user filter took 15-25 ms at 10,000 records). With the cache off
(``vector_cache_mb=0``) every query goes to Chroma with the user filter and fetches the
vectors of keyword-only candidates. Steps are timed as :mod:`recall.spans` when counted.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal, NotRequired, TypedDict, Unpack

import numpy as np
import numpy.typing as npt

from ..errors import EmbedderError, StoreError
from ..models import Hit, Profile, RecallRequest
from ..settings import Settings
from ..spans import span
from ..store import Store
from ..text import Analyzer
from . import crosslang, neighbours, window
from .cold import vector_cold
from .embed import Embedder
from .floor import floor_hits
from .fuse import fuse_linear, fuse_rrf, minmax
from .hits import ordered
from .keyword import BM25Params
from .partitions import Partition, PartitionCache
from .sync import IndexSync
from .user_model import UserModel, leading
from .vector import VectorIndex

__all__ = ["Fusing", "Retriever"]

#: The vector side is down (the store or your own model): keyword only, when allowed.
_VECTOR_DOWN = (StoreError, EmbedderError)


class Fusing(TypedDict):
    """How :meth:`Retriever.ranked` fuses the two legs, and whether a vector outage may
    answer keyword-only hits."""

    alpha: float
    fusion: Literal["linear", "rrf"]
    allow_degraded: NotRequired[bool]


def _top(scores: npt.NDArray[np.float64], n: int) -> npt.NDArray[np.intp]:
    """Indices of the ``n`` highest scores, unordered (all of them when there are fewer)."""
    if scores.size <= n:
        return np.arange(scores.size)
    return np.argpartition(-scores, n - 1)[:n]


class Retriever:
    """Answers deep_recall queries for any user of one store and one index spec."""

    def __init__(
        self,
        store: Store,
        vectors: VectorIndex,
        sync: IndexSync,
        settings: Settings,
        bm25: BM25Params,
        user: UserModel,
        analyzer: Analyzer | None = None,
    ) -> None:
        # The store and BM25 parameters are the partition cache's alone (below); ``user``
        # reads the user's own words (recall.user.USER_READER: recall.index does not).
        self.vectors = vectors
        self.user = user
        self.sync = sync
        self.settings = settings
        self.analyzer = analyzer or Analyzer()
        derive = (
            (lambda part, emb: user.derive(part, emb, self.analyzer))
            if settings.retrieval.current_facts
            else None
        )
        self.partitions = PartitionCache(
            store,
            vectors,
            settings,
            bm25,
            self.analyzer,
            indexed=lambda u: not sync.lag(u),
            derive=derive,
        )

    def forget(self, user_id: str) -> None:
        """Drop cached partitions of a user (they would be rebuilt on version anyway)."""
        self.partitions.forget(user_id)

    def prewarm(
        self, user_id: str, kinds: tuple[str, ...], embedder: Callable[[], Embedder]
    ) -> None:
        """Rebuild the user's partitions in the background after a write: ``kinds`` (the
        default depth's) and any the user's queries use (:mod:`.partitions`)."""
        self.partitions.prewarm(user_id, [tuple(sorted(set(kinds)))], embedder)

    def profile(
        self, user_id: str, kinds: tuple[str, ...], embedder: Embedder, query: str | None = None
    ) -> tuple[Profile, str | None]:
        """What the user's own words in ``kinds`` say of them, attribute by attribute
        (:mod:`recall.user.now`), and the attribute ``query`` asks the present value of
        (None: none, or no query)."""
        self.sync.ensure(user_id)
        part = self.partitions.get(user_id, kinds, embedder)
        return self.user.profile(user_id, part, embedder, self.analyzer, query)

    # --- the query ----------------------------------------------------------------------
    def search(self, req: RecallRequest, embedder: Embedder, **how: Unpack[Fusing]) -> list[Hit]:
        """The top ``req.top_k`` hits for the request, best first, less those under the
        relevance floor (:mod:`.floor`); ``how``: those of :meth:`ranked`."""
        with span("retrieve"):  # the spans inside are parts of it; the rest is fusion
            return self.floored(*self.ranked(req, embedder, **how))

    def floored(self, hits: list[Hit], req: RecallRequest) -> list[Hit]:
        """``hits`` (order kept) less those under the relevance floor (:mod:`.floor`)."""
        return floor_hits(hits, req, self.analyzer, self.settings.retrieval)

    def ranked(
        self,
        req: RecallRequest,
        embedder: Embedder,
        *,
        alpha: float,
        fusion: Literal["linear", "rrf"],
        allow_degraded: bool = False,
    ) -> tuple[list[Hit], RecallRequest]:
        """The top ``req.top_k`` hits, best first, before the relevance floor: what
        :meth:`search` returns and what it removed (the inspector shows both); and the
        request as it was scored, which :meth:`floored` takes. A question naming the user
        in the third person ("Which city does Dara live in?", "the user's employer") is
        scored in the first (the user model's reading), so that the user's name finds no
        reply that merely addresses them."""
        part, degraded = self._partition(req, embedder, allow_degraded)
        if not part.records:
            return [], req
        if not degraded:  # reading the user's name may embed: not with the vector side down
            query = self.user.first_person(req.query, part, embedder, self.analyzer)
            req = req if query == req.query else req.model_copy(update={"query": query})
        pool = self.settings.retrieval.candidate_pool
        hard, req = window.hard(part, req)
        soft = window.mask(part, *req.prior) if req.prior else None
        with span("keyword"):
            kw_all = part.keyword.scores(req.query)
        if hard is not None:  # records outside the window score nothing, so none is a candidate
            kw_all = np.where(hard, kw_all, 0.0)
        kw_top = _top(kw_all, pool)
        kw_top = kw_top[kw_all[kw_top] > 0.0]  # documents sharing no word are no candidates
        # Threaded records are scored with their neighbours (recall.index.neighbours).
        links = part.links if self.settings.retrieval.neighbour_weight > 0 else None
        cand, vec_all, degraded = self._candidates(
            req,
            part,
            embedder,
            kw_top,
            pool,
            links,
            degraded=degraded,
            allow=allow_degraded,
        )
        if soft is not None:
            if hard is not None:
                soft = soft & hard
            cand = np.union1d(cand, window.best_inside(soft, kw_all, vec_all, pool))
        # What the question asks of the user now: its current statements are candidates
        # even when they share no word with it (recall.user.now).
        asked = (
            None
            if degraded
            else self.user.asked(req, part, embedder, self.analyzer, self.settings, hard)
        )
        current = np.array([] if asked is None else asked.current, dtype=np.intp)
        cand = np.union1d(cand, current)
        cand, kw, vec = self._legs(cand, kw_all, vec_all, links)
        if hard is not None:  # thread neighbours and the vector top may lie outside it
            keep = hard[cand]
            cand, kw, vec = cand[keep], kw[keep], None if vec is None else vec[keep]
        if cand.size == 0:
            return [], req
        vec_leg = vec if vec is not None else np.zeros_like(kw)
        if fusion == "rrf":
            fused = fuse_rrf(kw, vec_leg, alpha, self.settings.retrieval.rrf_k)
        else:
            fused = fuse_linear(kw, vec_leg, alpha)
            other = crosslang.other_language(embedder, req.query, part.cjk[cand])
            share = self.settings.retrieval.cross_keyword_share
            if other is not None and vec is not None and share > 0:
                fused = crosslang.impute_keyword(fused, minmax(vec_leg), other, alpha, share)
        # Best fused first (inside the query's own time window first by the boost; the
        # hit keeps its fused score); ties broken by keyword, then vector score.
        rank = fused
        if soft is not None:
            rank = fused + self.settings.retrieval.time_prior_boost * soft[cand]
        # A question about what holds now: of its few best hits, the newest first (unless
        # a model read the attribute: its answer leads).
        newest = 0 if asked is None or asked.settled else self.settings.retrieval.newest_first
        hits = ordered(
            req,
            part.records,
            cand,
            leading(cand, current),
            rank,
            fused,
            kw,
            vec,
            degraded,
            newest_first=newest,
            present_first=self.user.present_first,
            named_since=lambda head: self.user.named_since(part, embedder, self.analyzer, head),
        )
        return hits, req

    def _partition(
        self, req: RecallRequest, embedder: Embedder, allow_degraded: bool
    ) -> tuple[Partition, bool]:
        """The user's partition of the request's kinds, and whether it is degraded: keyword
        only, the vector side being down (raised unless ``allow_degraded``)."""
        try:
            with span("index"):
                self.sync.ensure(req.user_id)
                return self.partitions.get(req.user_id, req.kinds, embedder), False
        except _VECTOR_DOWN:
            if not allow_degraded:
                raise
            return self.partitions.keyword_only(req.user_id, req.kinds), True

    def _candidates(
        self,
        req: RecallRequest,
        part: Partition,
        embedder: Embedder,
        kw_top: npt.NDArray[np.intp],
        pool: int,
        links: tuple[npt.NDArray[np.intp], npt.NDArray[np.intp]] | None,
        *,
        degraded: bool,
        allow: bool,
    ) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.float64] | None, bool]:
        """The candidates (keyword top, plus the vector top unless degraded), the vector
        scores of every record (None without a vector leg) and whether now degraded.

        The vector leg comes from the cached matrix when there is one, else from Chroma;
        a store error there degrades to keyword only if ``allow``, else it is raised.
        """
        if degraded:
            return kw_top, None, True
        r = self.settings.retrieval
        try:
            with span("embed"):
                scales = r.cross_language_scale, r.cross_language_scale_cjk
                routes = crosslang.routes(embedder, req.query, part.cjk, *scales)
        except EmbedderError:  # your own model is down: keyword only, if allowed
            if not allow:
                raise
            return kw_top, None, True
        if part.matrix is not None:
            with span("vector"):
                vec_all = crosslang.score_matrix(part.matrix, routes)
            hard = window.mask(part, req.since, req.until)  # widened already, in ranked()
            ranked = vec_all if hard is None else np.where(hard, vec_all, -np.inf)
            return np.union1d(kw_top, _top(ranked, pool)), vec_all, False
        try:
            cand, vec_all = vector_cold(
                self.vectors, self.settings, req, part, routes, kw_top, links
            )
        except _VECTOR_DOWN:
            if not allow:
                raise
            return kw_top, None, True
        return cand, vec_all, False

    def _legs(
        self,
        cand: npt.NDArray[np.intp],
        kw_all: npt.NDArray[np.float64],
        vec_all: npt.NDArray[np.float64] | None,
        links: tuple[npt.NDArray[np.intp], npt.NDArray[np.intp]] | None,
    ) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.float64], npt.NDArray[np.float64] | None]:
        """The records to rank and both legs' scores over them (vector: None without one):
        the candidates as they are, or with thread links, grown by their neighbours and
        smoothed with the neighbours' scores."""
        if links is None:
            return cand, kw_all[cand], None if vec_all is None else vec_all[cand]
        prev, nxt = links
        cand = neighbours.expand(cand, prev, nxt)
        w, hops = self.settings.retrieval.neighbour_weight, self.settings.retrieval.neighbour_hops
        kw = neighbours.smooth(kw_all, cand, prev, nxt, w, hops)
        vec = None if vec_all is None else neighbours.smooth(vec_all, cand, prev, nxt, w, hops)
        return cand, kw, vec
