"""Offline reindexing: ``recall reindex`` (``recall check`` is :mod:`recall.index.compare`).

The store is the source of truth, so an index can always be rebuilt from it. A reindex:

1. diffs, per user, the store's content hashes against the target spec's vectors in Chroma
   (missing or changed records are embedded, orphan vectors removed): a killed run simply
   continues, and a run on an up-to-date index embeds nothing;
2. streams the work through a bounded pipeline (store reads | embedding | Chroma writes,
   each in its own thread) so that I/O overlaps the embedding;
3. switches over atomically at the end (one SQLite write of the spec fingerprint) when the
   spec changed; until then, processes on the old spec keep serving from the old vectors.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..errors import ConfigError
from ..models import Record
from ..settings import Settings
from ..store import Store, open_store
from .embed import Embedder, load_embedder
from .layout import FINGERPRINT_KEY, SPEC_NAME_KEY, index_key, vector_index, vector_partitions
from .own import adapt_embedder, own_spec
from .spec import IndexSpec
from .sync import upsert_records
from .vector import VectorIndex

__all__ = ["ReindexReport", "reindex"]

log = logging.getLogger(__name__)
_DONE = object()


@dataclass
class ReindexReport:
    """What a reindex did."""

    spec: str
    fingerprint: str
    users: int = 0
    records: int = 0
    embedded: int = 0
    removed: int = 0
    seconds: float = 0.0
    switched: bool = False
    remaining_users: list[str] = field(default_factory=list)

    @property
    def records_per_s(self) -> float:
        return self.embedded / self.seconds if self.seconds > 0 else 0.0


@dataclass
class _Plan:
    user_id: str
    version: int
    stale: list[str]
    orphans: list[str]


def _plan(store: Store, vectors: VectorIndex, user_id: str) -> _Plan:
    # The version is read before the hashes: a write landing in between is indexed now
    # but recorded as not yet reflected, so the next reader reconciles again (harmless).
    version = store.version(user_id)
    want = store.hashes(user_id)
    have = vectors.hashes(user_id)
    stale = sorted(i for i, h in want.items() if have.get(i) != h)
    orphans = sorted(i for i in have if i not in want)
    return _Plan(user_id, version, stale, orphans)


def _read_batches(
    store: Store, plans: Sequence[_Plan], size: int
) -> Iterator[tuple[str, list[Record]]]:
    for plan in plans:
        for i in range(0, len(plan.stale), size):
            yield plan.user_id, store.records(plan.user_id, ids=plan.stale[i : i + size])


@dataclass
class _Pipeline:
    """Read | embed | write, overlapped through bounded queues; marks users as they finish.

    The reader thread puts ``(user, records)`` on ``todo``; the calling thread embeds them
    onto ``done`` as ``(user, records, vectors)``; the writer thread upserts those and marks
    a user indexed once all its stale records are written. A class so that each stage is
    a small method sharing the queues, the per-user counts and the errors.
    """

    store: Store
    vectors: VectorIndex
    embed: Callable[[list[str]], Any]
    plans: Sequence[_Plan]
    key: str
    batch: int
    on_batch: Callable[[int], None]
    todo: queue.Queue[Any] = field(init=False, default_factory=lambda: queue.Queue(maxsize=4))
    done: queue.Queue[Any] = field(init=False, default_factory=lambda: queue.Queue(maxsize=4))
    errors: list[BaseException] = field(init=False, default_factory=list)
    left: dict[str, int] = field(init=False)  # user -> stale records not yet written
    by_user: dict[str, _Plan] = field(init=False)

    def __post_init__(self) -> None:
        self.left = {p.user_id: len(p.stale) for p in self.plans}
        self.by_user = {p.user_id: p for p in self.plans}

    def run(self) -> None:
        """Mark users with nothing to embed, run the three stages, re-raise the first error."""
        for plan in self.plans:
            if not plan.stale:
                self._finish(plan.user_id)
        threads = [threading.Thread(target=self._reader, daemon=True)]
        threads.append(threading.Thread(target=self._writer, daemon=True))
        for t in threads:
            t.start()
        try:
            self._embedder()
        finally:
            self.done.put(_DONE)
            for t in threads:
                t.join(timeout=60)
        if self.errors:
            raise self.errors[0]

    def _finish(self, user_id: str) -> None:
        """All of a user's stale records are written: drop its orphans, record its version."""
        plan = self.by_user[user_id]
        self.vectors.delete(user_id, plan.orphans)
        self.store.set_index_version(self.key, user_id, plan.version)

    def _reader(self) -> None:
        """Stage 1 (thread): store reads onto ``todo``, always ended by ``_DONE``."""
        try:
            for item in _read_batches(self.store, self.plans, self.batch):
                self.todo.put(item)
        except BaseException as exc:  # surfaced in the main thread
            self.errors.append(exc)
        finally:
            self.todo.put(_DONE)

    def _embedder(self) -> None:
        """Stage 2 (calling thread): embed ``todo`` batches onto ``done``; stops on an error."""
        while (item := self.todo.get()) is not _DONE:
            if self.errors:
                break
            user_id, records = item
            self.done.put((user_id, records, self.embed([r.text for r in records])))

    def _writer(self) -> None:
        """Stage 3 (thread): write ``done`` batches until ``_DONE``; on an error, record it
        and keep draining so the embedder never blocks forever on the full queue."""
        try:
            while (item := self.done.get()) is not _DONE:
                user_id, records, vecs = item
                self._write(user_id, records, vecs)
        except BaseException as exc:
            self.errors.append(exc)
            while self.done.get() is not _DONE:  # drain so the embedder never blocks forever
                pass

    def _write(self, user_id: str, records: list[Record], vecs: Any) -> None:
        """Upsert one embedded batch; finish its user when it was the user's last."""
        upsert_records(self.vectors, user_id, records, vecs)
        self.left[user_id] -= len(records)
        if self.left[user_id] == 0:
            self._finish(user_id)
        self.on_batch(len(records))


def reindex(
    settings: Settings,
    spec: IndexSpec,
    *,
    users: Sequence[str] | None = None,
    keep_old: bool = False,
    progress: Callable[[int, int], None] | None = None,
    embedder: object | None = None,
) -> ReindexReport:
    """Bring ``spec``'s index up to the store; switch to it if all users are done.

    ``users`` limits the work (a spec change then switches only once every user has been
    reindexed); ``progress(done, total)`` is called after every written batch. With
    ``embedder`` (an object as ``recall.open(embedder=...)`` takes) the index is built with
    it in place of the spec's model, as that open expects (:func:`.own.own_spec`).
    """
    started = time.perf_counter()
    own: Embedder | None = None
    if embedder is not None:
        own = adapt_embedder(embedder)
        spec = own_spec(spec, own)
    store = open_store(settings.storage.path, settings.storage.store_url)
    vectors: VectorIndex | None = None
    try:
        vectors = vector_index(settings, spec, vector_partitions(store, settings))
        everyone = store.users()
        scope = list(everyone if users is None else users)
        unknown = sorted(set(scope) - set(everyone))
        if unknown:
            raise ConfigError(f"no such users in {settings.storage.path}: {unknown[:5]}")
        report = ReindexReport(spec=spec.name, fingerprint=spec.fingerprint, users=len(scope))
        plans = [_plan(store, vectors, u) for u in scope]
        total = sum(len(p.stale) for p in plans)
        report.records = sum(len(store.hashes(u)) for u in scope)
        report.removed = sum(len(p.orphans) for p in plans)
        written = 0

        def embed(texts: Sequence[str]) -> Any:
            # Loaded on the first batch: a reindex with nothing to embed loads no model.
            r = settings.retrieval
            model = own or load_embedder(
                spec.embedder, device=r.embed_device, threads=r.embed_threads
            )
            return model.embed_documents(texts)

        def on_batch(n: int) -> None:
            nonlocal written
            written += n
            if progress is not None:
                progress(written, total)

        if progress is not None:
            progress(0, total)
        _Pipeline(
            store,
            vectors,
            embed,
            plans,
            key=index_key(spec),
            batch=settings.retrieval.reindex_batch_size,
            on_batch=on_batch,
        ).run()
        report.embedded = total
        report.remaining_users = [
            u for u in everyone if store.index_version(index_key(spec), u) != store.version(u)
        ]
        old = store.get_meta(FINGERPRINT_KEY)
        if old != spec.fingerprint and not report.remaining_users:
            # The switch: one committed write. Until here, the old spec kept serving.
            store.set_metas({FINGERPRINT_KEY: spec.fingerprint, SPEC_NAME_KEY: spec.name})
            report.switched = True
            if not keep_old:
                _drop_other_collections(vectors, keep=f"recall-{spec.vector_fingerprint}-")
        report.seconds = time.perf_counter() - started
        return report
    finally:
        if vectors is not None:
            vectors.close()
        store.close()


def _drop_other_collections(vectors: VectorIndex, keep: str) -> None:
    client = vectors.client
    for c in client.list_collections():
        name = c if isinstance(c, str) else c.name
        if name.startswith("recall-") and not name.startswith(keep):
            try:
                client.delete_collection(name)
            except Exception as exc:  # a leftover collection is harmless: say so, go on
                log.warning("recall: switched, but could not drop old collection %s: %s", name, exc)
