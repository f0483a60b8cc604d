"""The SQLite store: the source of truth for every memory record.

One file (``recall.sqlite3`` in the memory folder), WAL mode so that readers never block the
writer, its schema migrated on open (:mod:`recall.store.schema`). Every write bumps the
user's version counter in the same transaction, which is what the derived indexes compare
against to know whether they lag. The store commits before any index is touched, so a crash
between the two loses nothing: the index catches up later.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING

from ..errors import mapped
from ..models import Record
from .articles import latest_version, read_article
from .base import ArticleRow, content_hash
from .records import bump_version, delete_ids, put_records, row_to_record, user_version
from .transaction import SQLiteTransaction
from .users import UserStore

__all__ = ["SQLiteStore", "content_hash"]


class SQLiteStore(UserStore):
    """SQLite-backed :class:`~recall.store.base.Store` with a per-user version counter."""

    @contextmanager
    def transaction(self) -> Iterator[SQLiteTransaction]:
        """One IMMEDIATE transaction: all of it commits or none of it does."""
        with self._write() as db:
            yield SQLiteTransaction(db)

    # --- records ------------------------------------------------------------------------
    def put(self, records: Sequence[Record]) -> dict[str, int]:
        """Insert or replace ``records``; returns each touched user's new version."""
        versions: dict[str, int] = {}
        with self._write() as db:
            put_records(db, records)
            for user_id in dict.fromkeys(r.user_id for r in records):
                versions[user_id] = bump_version(db, user_id)
        return versions

    def delete(self, user_id: str, ids: Iterable[str]) -> tuple[list[str], int]:
        """Delete the user's records with these ids; returns (deleted ids, new version)."""
        wanted = list(dict.fromkeys(ids))
        with self._write() as db:
            deleted = delete_ids(db, user_id, wanted)
            version = bump_version(db, user_id) if deleted else user_version(db, user_id)
        return deleted, version

    def version(self, user_id: str) -> int:
        """The user's version: 0 before the first write, +1 with every write."""
        with self._lock, mapped("reading the store"):
            return user_version(self._db, user_id)

    def records(
        self, user_id: str, kinds: Sequence[str] | None = None, ids: Sequence[str] | None = None
    ) -> list[Record]:
        """The user's records, oldest first, optionally only these kinds or ids."""
        if ids is not None and len(ids) > 500:
            # SQLite caps bound parameters per statement; page through long id lists.
            out = [
                r
                for i in range(0, len(ids), 500)
                for r in self.records(user_id, kinds, ids[i : i + 500])
            ]
            return sorted(out, key=lambda r: (r.created_at, r.id))
        sql = "SELECT * FROM records WHERE user_id = ?"
        params: list[object] = [user_id]
        if kinds is not None:
            sql += f" AND kind IN ({','.join('?' * len(kinds))})"
            params.extend(kinds)
        if ids is not None:
            sql += f" AND id IN ({','.join('?' * len(ids))})"
            params.extend(ids)
        sql += " ORDER BY created_at, id"
        return [row_to_record(r) for r in self._read(sql, params)]

    def hashes(self, user_id: str) -> dict[str, str]:
        """id -> content hash for every record of the user."""
        rows = self._read("SELECT id, hash FROM records WHERE user_id = ?", (user_id,))
        return {r["id"]: r["hash"] for r in rows}

    def users(self) -> list[str]:
        """Every user that was ever written, sorted."""
        return [r["user_id"] for r in self._read("SELECT user_id FROM users ORDER BY user_id")]

    def counts(self) -> dict[str, dict[str, int]]:
        """user -> kind -> number of records."""
        out: dict[str, dict[str, int]] = {}
        for r in self._read(
            "SELECT user_id, kind, COUNT(*) AS n FROM records GROUP BY user_id, kind"
        ):
            out.setdefault(r["user_id"], {})[r["kind"]] = int(r["n"])
        return out

    # --- index bookkeeping and folder settings ------------------------------------------
    def index_version(self, index_key: str, user_id: str) -> int:
        """The store version the index ``index_key`` reflects for the user (0: none)."""
        rows = self._read(
            "SELECT version FROM index_state WHERE index_key = ? AND user_id = ?",
            (index_key, user_id),
        )
        return int(rows[0]["version"]) if rows else 0

    def set_index_version(
        self, index_key: str, user_id: str, version: int, *, expected: int | None = None
    ) -> bool:
        """Record that the index reflects ``version``.

        With ``expected``, only moves from that exact version (a writer that raced another
        leaves the catch-up to the next reader instead of claiming a version it never saw).
        """
        with self._write() as db:
            current = db.execute(
                "SELECT version FROM index_state WHERE index_key = ? AND user_id = ?",
                (index_key, user_id),
            ).fetchone()
            have = int(current[0]) if current else 0
            if expected is not None and have != expected:
                return False
            db.execute(
                "INSERT OR REPLACE INTO index_state (index_key, user_id, version) VALUES (?, ?, ?)",
                (index_key, user_id, version),
            )
        return True

    def get_meta(self, key: str) -> str | None:
        """A value from the store's key/value table."""
        rows = self._read("SELECT value FROM meta WHERE key = ?", (key,))
        return str(rows[0]["value"]) if rows else None

    def set_meta(self, key: str, value: str) -> None:
        """Set a value in the store's key/value table."""
        self.set_metas({key: value})

    def set_metas(self, values: Mapping[str, str]) -> None:
        """Set several values of the key/value table in one transaction."""
        with self._write() as db:
            db.executemany(
                "INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", list(values.items())
            )

    # --- long-term articles -------------------------------------------------------------
    def article(self, user_id: str, version: int | None = None) -> ArticleRow | None:
        """Version ``version`` of the user's article (None: the newest); None if absent."""
        with self._lock, mapped("reading the store"):
            return read_article(self._db, user_id, version)

    def article_version(self, user_id: str) -> int:
        """The user's newest article version (0: none yet)."""
        with self._lock, mapped("reading the store"):
            return latest_version(self._db, user_id)


if TYPE_CHECKING:
    # mypy proves here that the SQLite class implements the whole interface.
    from . import base

    _implements: type[base.Store] = SQLiteStore
