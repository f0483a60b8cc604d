"""The per-user query partitions deep_recall scores, cached, and rebuilt ahead of the reader.

A partition is one user's records of some kinds at one store version: the BM25 model over
their texts, the records, and (unless the cache is off) their vectors aligned with them.
The first build loads the vectors from Chroma (tens of milliseconds for a few hundred
records); a rebuild after a write carries unchanged rows over and takes the written ones
from :mod:`.recent`, reading no vector from Chroma. After a write,
:meth:`PartitionCache.prewarm` rebuilds the user's partitions on a background thread; a
query arriving meanwhile waits for that build instead of starting a second one.
"""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np
import numpy.typing as npt

from ..models import Record
from ..settings import Settings
from ..store import Store, content_hash
from ..text import Analyzer
from . import neighbours
from .crosslang import cjk_mask
from .embed import Embedder
from .keyword import BM25Params, KeywordPartition
from .vector import VectorIndex

__all__ = ["Links", "Partition", "PartitionCache"]

log = logging.getLogger(__name__)

#: (previous, next) record index in its thread.
Links = tuple[npt.NDArray[np.intp], npt.NDArray[np.intp]]
_Key = tuple[str, tuple[str, ...]]
#: Rows missing after a rebuild's reuse fetched by id, not by loading the whole user.
_BY_ID = 256


@dataclass
class Partition:
    """One user's records of some kinds at one store version, ready to score."""

    version: int
    records: list[Record]
    keyword: KeywordPartition
    matrix: npt.NDArray[np.float32] | None  # rows aligned with records; None: not cached
    #: (previous, next) record index in its thread, or None when no record has a thread.
    links: Links | None = None
    #: False when some record had no vector yet (a write between its commit and its
    #: upsert): such a partition answers this query but is never cached.
    complete: bool = True
    #: When each record was said (epoch seconds), filled by recall.index.window on the
    #: first query with a time window.
    said: npt.NDArray[np.float64] | None = None
    #: What is derived once per partition (recall.user.now), by the deriving module.
    derived: dict[str, object] = field(default_factory=dict)

    @cached_property
    def cjk(self) -> npt.NDArray[np.bool_]:
        """Which records hold CJK text (their cross-language route: :mod:`.crosslang`)."""
        return cjk_mask(self.records)

    @property
    def nbytes(self) -> int:
        """Bytes held by the cached vectors."""
        return 0 if self.matrix is None else int(self.matrix.nbytes)


class PartitionCache:
    """Partitions by (user, kinds), least recently used out first, within the budgets of
    ``settings.retrieval`` (``keyword_cache_partitions``, ``vector_cache_mb``)."""

    def __init__(
        self,
        store: Store,
        vectors: VectorIndex,
        settings: Settings,
        bm25: BM25Params,
        analyzer: Analyzer,
        indexed: Callable[[str], bool] = lambda _uid: True,
        derive: Callable[[Partition, Embedder], object] | None = None,
    ) -> None:
        self.store = store
        self.vectors = vectors
        #: Derived in a background rebuild too, so the next query does not pay for it.
        self.derive = derive
        #: True when the user's vectors reflect the store's version (IndexSync.lag's
        #: negation): only then may a partition be cached, its vectors all current.
        self.indexed = indexed
        self.settings = settings
        self.bm25 = bm25
        self.analyzer = analyzer
        self._cache: OrderedDict[_Key, Partition] = OrderedDict()
        self._lock = threading.Lock()
        self._building: dict[_Key, threading.Lock] = {}
        # One thread: prewarming is a convenience, it must never take both cores.
        self._pool: ThreadPoolExecutor | None = None
        self._queued: set[str] = set()
        self._last: Future[None] | None = None
        self._closed = False

    def get(self, user_id: str, kinds: tuple[str, ...], embedder: Embedder) -> Partition:
        """The user's partition of ``kinds`` at the store's current version."""
        key = (user_id, kinds)
        part = self._fresh(key)
        if part is not None:
            return part
        with self._build_lock(key):  # a prewarm in flight: wait for it, do not build twice
            part = self._fresh(key)
            if part is not None:
                return part
            part = self._build(user_id, kinds, embedder)
        if not part.complete:
            return part
        with self._lock:
            self._cache[key] = part
            self._cache.move_to_end(key)
            self._evict()
        return part

    def keyword_only(self, user_id: str, kinds: tuple[str, ...]) -> Partition:
        """A partition without vectors (the vector store is down), not cached."""
        records = self.store.records(user_id, kinds=list(kinds))
        return Partition(
            self.store.version(user_id), records, self._keyword(records), None, self._links(records)
        )

    def forget(self, user_id: str) -> None:
        """Drop cached partitions of a user (they would be rebuilt on version anyway)."""
        self.vectors.recent.drop(user_id)
        with self._lock:
            for key in [k for k in self._cache if k[0] == user_id]:
                del self._cache[key]
            for key in [k for k in self._building if k[0] == user_id]:
                if not self._building[key].locked():
                    del self._building[key]  # else a build runs: it keeps its lock

    # --- ahead of the reader ------------------------------------------------------------
    def prewarm(
        self, user_id: str, kinds: Iterable[tuple[str, ...]], embedder: Callable[[], Embedder]
    ) -> None:
        """Rebuild the user's partitions of ``kinds`` (plus those cached) in the background.

        Several writes of one user in a row queue one rebuild, not one each.
        """
        wanted = {*kinds, *(k[1] for k in list(self._cache) if k[0] == user_id)}
        with self._lock:
            if self._closed or user_id in self._queued:
                return
            self._queued.add(user_id)
            if self._pool is None:
                self._pool = ThreadPoolExecutor(1, thread_name_prefix="recall-prewarm")
            self._last = self._pool.submit(self._prewarm, user_id, sorted(wanted), embedder)

    def _prewarm(
        self, user_id: str, kinds: list[tuple[str, ...]], embedder: Callable[[], Embedder]
    ) -> None:
        with self._lock:
            self._queued.discard(user_id)  # a write from now on queues a new rebuild
        try:
            for part in (self.get(user_id, k, embedder()) for k in kinds):
                if self.derive is not None:
                    self.derive(part, embedder())
        except Exception as exc:  # the next query builds it itself and says why
            log.info("recall: prewarming %s failed: %s: %s", user_id, type(exc).__name__, exc)

    def wait(self) -> None:
        """Block until the rebuilds queued so far are done (tests, benchmarks)."""
        while True:
            with self._lock:
                last = self._last
            if last is None:
                return
            last.result()
            with self._lock:
                if self._last is last:
                    return

    def close(self) -> None:
        """Stop the background thread (queued rebuilds are dropped, a running one ends)."""
        with self._lock:
            pool, self._pool = self._pool, None
            self._closed = True  # a late write must not start a new thread
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)

    # --- building -----------------------------------------------------------------------
    def _fresh(self, key: _Key) -> Partition | None:
        version = self.store.version(key[0])
        with self._lock:
            part = self._cache.get(key)
            if part is not None and part.version == version:
                self._cache.move_to_end(key)
                return part
        return None

    def _build_lock(self, key: _Key) -> threading.Lock:
        with self._lock:
            return self._building.setdefault(key, threading.Lock())

    def _build(self, user_id: str, kinds: tuple[str, ...], embedder: Embedder) -> Partition:
        # The version is read before the records: a write landing between the two makes
        # this partition look older than it is, so the next query rebuilds, never misses.
        version = self.store.version(user_id)
        records = self.store.records(user_id, kinds=list(kinds))
        keyword = self._keyword(records)
        matrix = None
        missing = 0
        if self.settings.retrieval.vector_cache_mb > 0:
            matrix, missing = self._matrix(user_id, kinds, records, embedder.dimension)
            if missing:
                log.info("recall: %d records of %s have no vector yet", missing, user_id)
        # A vector that exists but is stale (a vector store outage after a rewrite of the
        # same id) would pass the count: a lagging index keeps the partition uncached.
        complete = missing == 0 and self.indexed(user_id)
        return Partition(version, records, keyword, matrix, self._links(records), complete=complete)

    def _matrix(
        self, user_id: str, kinds: tuple[str, ...], records: list[Record], dimension: int
    ) -> tuple[npt.NDArray[np.float32], int]:
        """The records' vectors, rows aligned with them, and how many have none yet.

        A row comes from the partition this one replaces when its record's text is the
        same, else from the rows this process just wrote (:mod:`.recent`), else from
        Chroma: after a write, Chroma is not read at all (see :mod:`.recent` for why).
        """
        # Column-major: a query vector is zero outside its model's block (a composite
        # routes an English query to MiniLM alone), so scoring reads that block's columns
        # only, contiguous (crosslang.score_matrix): at 10,000 records of the default
        # spec, 0.15 ms instead of 1.1 ms for the whole row-major matrix.
        matrix = np.zeros((len(records), dimension), dtype=np.float32, order="F")
        with self._lock:
            old = self._cache.get((user_id, kinds))
        if old is None or old.matrix is None:  # a first build: every row from Chroma
            return matrix, self._fill(user_id, matrix, records, range(len(records)), False)
        old_rows = {r.id: (r.text, j) for j, r in enumerate(old.records)}
        dst: list[int] = []
        src: list[int] = []
        todo: list[int] = []
        for i, r in enumerate(records):
            was = old_rows.get(r.id)
            if was is not None and was[0] == r.text:
                dst.append(i)
                src.append(was[1])
                continue
            row = self.vectors.recent.get(user_id, r.id, content_hash(r.text))
            if row is None:
                todo.append(i)
            else:
                matrix[i] = row
        if dst:
            matrix[dst] = old.matrix[src]
        return matrix, self._fill(user_id, matrix, records, todo, len(todo) <= _BY_ID)

    def _fill(
        self,
        user_id: str,
        matrix: npt.NDArray[np.float32],
        records: list[Record],
        todo: Sequence[int],
        by_id: bool,
    ) -> int:
        """Read the rows ``todo`` from Chroma (those ids alone, or the whole user); returns
        how many have no vector there yet."""
        if not todo:
            return 0
        if by_id:
            found = self.vectors.vectors(user_id, [records[i].id for i in todo])
        else:
            loaded = self.vectors.load(user_id)
            found = {rid: loaded.matrix[j] for j, rid in enumerate(loaded.ids)}
        # A row not found was written after our version check: scored 0 until the next.
        rows = [(i, found.get(records[i].id)) for i in todo]
        for i, vec in rows:
            if vec is not None:
                matrix[i] = vec
        return sum(vec is None for _, vec in rows)

    def _evict(self) -> None:
        budget = self.settings.retrieval.vector_cache_mb * 1024 * 1024
        while len(self._cache) > 1 and (
            len(self._cache) > self.settings.retrieval.keyword_cache_partitions
            or sum(p.nbytes for p in self._cache.values()) > budget
        ):
            self._cache.popitem(last=False)

    def _links(self, records: list[Record]) -> Links | None:
        return neighbours.links(records, self.settings.retrieval.thread_key)

    def _keyword(self, records: list[Record]) -> KeywordPartition:
        return KeywordPartition(
            [r.id for r in records], [r.text for r in records], self.bm25, self.analyzer
        )
