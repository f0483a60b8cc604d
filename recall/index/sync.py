"""Keeping the vector index in step with the store.

The store is the source of truth and commits first. The vector index records, per user,
the store version it reflects (``index_state``). After a write, the writer embeds and
upserts what it wrote and moves the recorded version only from the exact previous one;
anything else (a crash between the two commits, a racing writer, another process) leaves
the index lagging, and the next reader's :meth:`IndexSync.ensure` catches up by diffing
content hashes, which is idempotent.

Every write path indexes before it returns: ``add``/``add_many``/``delete``/``import_user``
through :meth:`IndexSync.after_write` (they know what they wrote), the lifecycle
(``update_memory``, promotion, background jobs, corrections) through
:meth:`IndexSync.catch_up` once its transactions committed (with what it wrote, when an
update_memory summary was all: the diff is then skipped). A query therefore finds the
index current and pays no embedding for earlier writes; only a crash between the two
commits or a vector store outage leaves work *pending* for the next reader.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Sequence

from ..errors import EmbedderError, StoreError
from ..models import Record
from ..spans import span
from ..store import Store, content_hash
from .embed import Embedder
from .vector import VectorIndex, Vectors

__all__ = ["IndexSync", "upsert_records"]

log = logging.getLogger(__name__)


class IndexSync:
    """Brings one spec's vector index up to the store's version, per user."""

    def __init__(
        self,
        store: Store,
        vectors: VectorIndex,
        embedder: Callable[[], Embedder],
        *,
        key: str,
        batch_size: int,
    ) -> None:
        self.store = store
        self.vectors = vectors
        self._embedder = embedder
        self.key = key
        self._batch = batch_size
        self._locks: dict[str, threading.Lock] = {}
        self._locks_guard = threading.Lock()

    def _lock(self, user_id: str) -> threading.Lock:
        with self._locks_guard:
            return self._locks.setdefault(user_id, threading.Lock())

    def _embed_upsert(self, user_id: str, records: Sequence[Record]) -> int:
        embedder = self._embedder()
        for i in range(0, len(records), self._batch):
            chunk = records[i : i + self._batch]
            with span("embed"):
                vecs = embedder.embed_documents([r.text for r in chunk])
            with span("upsert"):
                upsert_records(self.vectors, user_id, chunk, vecs)
        return len(records)

    def after_write(
        self,
        user_id: str,
        version: int,
        written: Sequence[Record] = (),
        deleted: Sequence[str] = (),
    ) -> None:
        """Index what a write just committed at ``version`` (fast path).

        The write is already safe in the store. If the vector store is unreachable now, the
        index is left lagging (logged) and the next read catches up: raising here would tell
        the caller that a write failed when it did not.
        """
        with self._lock(user_id):
            try:
                self._embed_upsert(user_id, written)
                self.vectors.delete(user_id, list(deleted))
            except (StoreError, EmbedderError) as exc:  # the vector store, or your own model
                log.warning("recall: stored, index left lagging for %s: %s", user_id, exc)
                return
            moved = self.store.set_index_version(self.key, user_id, version, expected=version - 1)
        if not moved:
            # Another writer got between our store commit and here: reconcile by content.
            self.ensure(user_id)

    def catch_up(self, user_id: str, written: tuple[int, Sequence[Record]] | None = None) -> int:
        """Index whatever was committed for ``user_id`` and is not indexed yet; returns the
        records embedded by the content diff.

        ``written`` (version, records) is what the last write committed, when the writer
        knows it (an update_memory summary): it is indexed as :meth:`after_write` does,
        and the diff that follows then costs two version reads. For writers that do not
        know record by record what they changed (a promotion rewrites kinds, Dynamic
        passages and the article in one transaction), or when another write came between,
        the content diff of :meth:`ensure` is exact and idempotent. The write is already
        safe in the store, so a failure here (a vector store outage) is logged and left
        pending for the next reader, never raised to a caller whose write succeeded.
        """
        try:
            if written is not None:
                self.after_write(user_id, written[0], written=written[1])
            return self.ensure(user_id)
        except Exception as exc:  # the write stands whatever failed here; a reader retries
            log.warning(
                "recall: stored; indexing of %s pending (the next query retries): %s: %s",
                user_id,
                type(exc).__name__,
                exc,
            )
            return 0

    def lag(self, user_id: str) -> bool:
        """True when the index does not reflect the user's store version."""
        return self.store.index_version(self.key, user_id) != self.store.version(user_id)

    def ensure(self, user_id: str) -> int:
        """Catch the user's vectors up with the store; returns records (re-)embedded."""
        if not self.lag(user_id):
            return 0
        with self._lock(user_id):
            embedded = 0
            # Loop: a write may land while we reconcile; its own fast path or the next
            # round picks it up. Three rounds bound the work under a write storm.
            for _ in range(3):
                version = self.store.version(user_id)
                if self.store.index_version(self.key, user_id) == version:
                    break
                with span("diff"):
                    want = self.store.hashes(user_id)
                    have = self.vectors.hashes(user_id)
                stale = [i for i, h in want.items() if have.get(i) != h]
                orphans = [i for i in have if i not in want]
                if stale:
                    embedded += self._embed_upsert(user_id, self.store.records(user_id, ids=stale))
                self.vectors.delete(user_id, orphans)
                self.store.set_index_version(self.key, user_id, version)
                if stale or orphans:
                    log.info(
                        "recall: caught up user %s: %d embedded, %d orphans removed",
                        user_id,
                        len(stale),
                        len(orphans),
                    )
            return embedded


def upsert_records(
    vectors: VectorIndex, user_id: str, records: Sequence[Record], vecs: Vectors
) -> None:
    """Write ``vecs``, the vectors of ``records`` in their order, with each record's id, kind
    and text hash (what a later sync compares)."""
    ids, kinds = [r.id for r in records], [r.kind for r in records]
    vectors.upsert(user_id, ids, vecs, kinds, [content_hash(r.text) for r in records])
