"""The core of the facade: records in, hits out.

It validates at the edge (pydantic models, ``InputError`` on bad input) and delegates:
records go to the :class:`~recall.store.Store` first, then to the index sync; queries go
to the :class:`~recall.index.retriever.Retriever` (built and run by :mod:`.search`). It
holds no retrieval logic of its own.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, Self

from .. import inputs
from ..index.embed import Embedder, load_embedder
from ..index.integrity import bind_folder, check_store_file, mark_missing_vectors
from ..index.layout import (
    check_fingerprint,
    folder_spec,
    index_key,
    vector_index,
    vector_partitions,
)
from ..index.own import Embeds, adapt_embedder, own_spec
from ..index.query_front import fronted
from ..index.retriever import Retriever
from ..index.spec import IndexSpec
from ..index.sync import IndexSync
from ..models import Profile, Record, require_user_id
from ..settings import Settings
from ..store import STORE_FILE, open_store
from ..store.keyed import answer_at_commit
from ..user import USER_READER

if TYPE_CHECKING:  # the lifecycle is imported lazily at run time
    from ..lifecycle.pipeline import Lifecycle, Written

__all__ = ["MemoryCore"]


class MemoryCore:
    """One memory folder: a SQLite store, a Chroma vector index and BM25 partitions."""

    def __init__(
        self,
        settings: Settings,
        *,
        spec: IndexSpec | None = None,
        embedder: Embeds | Embedder | None = None,
    ) -> None:
        self.settings = settings
        self.path = Path(settings.storage.path)
        # A model of one's own (recall.index.own): checked, and its dimension known, first.
        own = None if embedder is None else adapt_embedder(embedder)
        url = settings.storage.store_url
        if url is None:
            check_store_file(self.path, self.path / STORE_FILE)
        self._store = open_store(self.path, url, timeout_s=settings.storage.store_timeout_s)
        try:
            self.spec = spec or folder_spec(self._store, settings)
            if own is not None:
                self.spec = own_spec(self.spec, own)
            check_fingerprint(self._store, self.spec, self.path)
            partitions = vector_partitions(self._store, settings)
            self._vectors = vector_index(settings, self.spec, partitions)
        except BaseException:
            self._store.close()  # a refused open must not leak the connection
            raise
        self._verify_index()
        self._embedder: Embedder | None = own
        self._embedder_lock = threading.Lock()
        self._sync = IndexSync(
            self._store,
            self._vectors,
            self.embedder,
            key=index_key(self.spec),
            batch_size=settings.retrieval.embed_batch_size,
        )
        self._retriever = Retriever(
            self._store,
            self._vectors,
            self._sync,
            settings,
            self.spec.bm25,
            USER_READER,  # the model of the user (recall.user), a layer above the index
            self.spec.analyzer,
        )
        if self._store.has_unfinished_jobs():
            # A previous process died with journaled update_memory jobs: resume them now,
            # not at the first lifecycle call, which an app that only searches never makes.
            self._lifecycle()

    def _verify_index(self) -> None:
        """Refuse a truncated store; notice vectors removed behind recall's back."""
        embedded = None if self.settings.storage.chroma_url else self._vectors
        try:
            own = self.settings.storage.store_url is None
            bind_folder(self._store, self.path, embedded, own_store=own)
            if embedded is not None:
                mark_missing_vectors(self._store, embedded, index_key(self.spec))
        except BaseException:
            self._vectors.close()  # a refused open must not leak the client's handles
            self._store.close()
            raise

    def embedder(self) -> Embedder:
        """The embedder given to open, else the spec's, loaded on first use (shared per
        process)."""
        if self._embedder is None:
            with self._embedder_lock:
                if self._embedder is None:
                    r = self.settings.retrieval
                    model = load_embedder(
                        self.spec.embedder, device=r.embed_device, threads=r.embed_threads
                    )
                    self._embedder = fronted(model, r.query_cache_size)
        return self._embedder

    # --- writes -------------------------------------------------------------------------
    def add(
        self,
        text: str,
        *,
        user_id: str,
        kind: str = "note",
        id: str | None = None,
        metadata: Mapping[str, Any] | None = None,
        created_at: datetime | str | float | None = None,
    ) -> str:
        """Store one record for ``user_id`` and index it; returns its id.

        ``kind`` is any short identifier. The default, "note", is never touched by the
        lifecycle; "short_term" (which update_memory promotes), "dynamic", "archive", "turn"
        and "fact" (a model's reading of the user: recall.lifecycle.extract) are the
        lifecycle's own (see :data:`recall.lifecycle.tiers.LIFECYCLE_KINDS`).
        An existing ``id`` of the same user is replaced.
        """
        item: dict[str, Any] = {"text": text, "kind": kind, "id": id, "metadata": metadata}
        if created_at is not None:
            item["created_at"] = created_at
        return self.add_many([item], user_id=user_id)[0]

    def add_many(self, items: Iterable[Mapping[str, Any]], *, user_id: str) -> list[str]:
        """Store many records of one user in one transaction, then index them."""
        records = inputs.records(items, user_id, self.settings)
        if not records:
            return []
        uid = records[0].user_id
        ids = [r.id for r in records]
        with answer_at_commit(lambda _db: ids):  # a keyed write's answer commits with it
            version = self._store.put(records)[uid]
        self._sync.after_write(uid, version, written=records)
        self._prewarm(uid)
        return ids

    def delete(self, ids: str | Sequence[str], *, user_id: str) -> int:
        """Delete the user's records with these ids; returns how many existed."""
        uid = require_user_id(user_id)
        deleted, version = self._store.delete(uid, inputs.record_ids(ids))
        if deleted:
            self._sync.after_write(uid, version, deleted=deleted)
            self._prewarm(uid)
        return len(deleted)

    def _indexed(self, user_id: str, written: Written | None = None) -> None:
        """After a lifecycle write: index what committed, then rebuild the user's
        partitions ahead of the reader.

        ``written`` (version, records): a summary written alone, indexed as it is.
        """
        self._sync.catch_up(user_id, written)
        self._prewarm(user_id)

    def _prewarm(self, user_id: str) -> None:
        # The default depth's partition, on the background thread: the next query finds it
        # built (or waits for the build in flight) instead of building it itself.
        kinds = inputs.depth_kinds(None, self.settings)
        self._retriever.prewarm(user_id, kinds, self.embedder)

    # --- reads --------------------------------------------------------------------------
    def profile(self, user_id: str) -> Profile:
        """What is true of the user now, and what was: each attribute their own words set
        (where they live, who they work for, the gym they go to...), its values oldest
        first with when each was introduced and last said, the records stating it and what
        replaced it. Read from the user's raw turns (not notes: they name no speaker), in any
        phrasing, en and zh (recall.user.now); ``profile(u).now()`` is the current value of
        each."""
        uid = require_user_id(user_id)
        kinds = inputs.depth_kinds(None, self.settings)
        return self._retriever.profile(uid, kinds, self.embedder())[0]

    def records(self, user_id: str, kinds: Sequence[str] | None = None) -> list[Record]:
        """The user's stored records, oldest first."""
        return self._store.records(require_user_id(user_id), kinds=kinds)

    def stats(self) -> dict[str, Any]:
        """Users, records per kind, and index state."""
        counts = self._store.counts()
        return {
            "path": str(self.path),
            "spec": self.spec.name,
            "fingerprint": self.spec.fingerprint,
            "users": len(self._store.users()),
            "records": sum(sum(k.values()) for k in counts.values()),
            "kinds": {
                kind: sum(k.get(kind, 0) for k in counts.values())
                for kind in sorted({kind for k in counts.values() for kind in k})
            },
            "lagging_users": sum(1 for u in self._store.users() if self._sync.lag(u)),
        }

    def close(self) -> None:
        """Release the store and the Chroma client (idempotent)."""
        self._close_lifecycle()  # drain the lifecycle's worker before the store goes
        self._retriever.partitions.close()  # and the prewarm thread, which reads the store
        self._vectors.close()
        self._store.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- the lifecycle: recall.lifecycle.pipeline.Lifecycle, built lazily ----------------
    def _lifecycle(self) -> Lifecycle:
        with self._embedder_lock:
            life: Lifecycle | None = getattr(self, "_life", None)
            if life is None:
                from ..lifecycle.pipeline import Lifecycle
                from ..lifecycle.privacy_model import learned_reader

                life = self._life = Lifecycle(
                    self._store,
                    self.settings,
                    self.embedder,
                    passage_tokens=self.spec.passage_tokens,
                    on_written=self._indexed,
                    privacy=learned_reader(self.embedder),
                )
        return life

    def _close_lifecycle(self) -> None:
        life: Lifecycle | None = getattr(self, "_life", None)
        if life is not None:
            life.close()
