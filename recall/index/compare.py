"""``recall check``: compare the store and a spec's vectors, user by user.

A user is in step when every record's vector is there with the record's content hash, no
vector is left over, and the index's recorded version is the store's. A user whose recorded
version is behind is *pending* (every write indexes before it returns, so only a crash or a
vector store outage leaves that; the next query catches up). Vectors changed behind
recall's back (deleted through Chroma, a lost ``chroma/`` folder) while the index claims to
be current are reported as needing a reindex, and the user is marked lagging, so that the
next query of any process repairs them.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..settings import Settings
from ..store import Store, open_store
from .layout import FINGERPRINT_KEY, index_key, vector_index, vector_partitions
from .spec import IndexSpec
from .vector import VectorIndex

__all__ = ["CheckRow", "compare"]


@dataclass
class CheckRow:
    """One user's state in ``recall check``."""

    user_id: str
    records: int
    vectors: int
    store_version: int
    index_version: int
    missing: int  # in the store, not (or stale) in the index
    orphans: int  # in the index, not in the store

    @property
    def ok(self) -> bool:
        """Every record's vector is there, none left over, and the versions agree."""
        return self.missing == 0 and self.orphans == 0 and self.store_version == self.index_version

    @property
    def pending(self) -> bool:
        """Indexing is behind the store (a crash between the two commits, a vector store
        outage): the user's next query, or ``recall reindex``, catches up. Not a fault."""
        return self.index_version not in (self.store_version, -1)

    @property
    def status(self) -> str:
        """``ok``, ``pending`` or ``REINDEX`` (vectors changed behind recall's back)."""
        if self.ok:
            return "ok"
        return "pending" if self.pending else "REINDEX"


def compare(settings: Settings, spec: IndexSpec) -> tuple[str | None, list[CheckRow]]:
    """Compare store and index per user: (built fingerprint, one row per user)."""
    store = open_store(settings.storage.path, settings.storage.store_url)
    try:
        vectors = vector_index(settings, spec, vector_partitions(store, settings))
        try:
            return store.get_meta(FINGERPRINT_KEY), _rows(store, vectors, index_key(spec))
        finally:
            vectors.close()
    finally:
        store.close()


def _rows(store: Store, vectors: VectorIndex, key: str) -> list[CheckRow]:
    """One row per user; a user whose vectors changed behind recall's back is marked."""
    rows = []
    for user_id in store.users():
        want = store.hashes(user_id)
        have = vectors.hashes(user_id)
        row = CheckRow(
            user_id=user_id,
            records=len(want),
            vectors=len(have),
            store_version=store.version(user_id),
            index_version=store.index_version(key, user_id),
            missing=sum(1 for i, h in want.items() if have.get(i) != h),
            orphans=sum(1 for i in have if i not in want),
        )
        if (row.missing or row.orphans) and row.index_version == row.store_version:
            # Vectors changed behind recall's back: mark the user lagging, so that the
            # next query of any process (or `recall reindex`) repairs them.
            store.set_index_version(key, user_id, -1)
        rows.append(row)
    return rows
