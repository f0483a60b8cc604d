"""Index bookkeeping (table ``index_state``) and the folder's settings (table ``meta``).

Each derived index records, per user, the store version it reflects; the facade compares
it with the user's version to know whether the index lags. ``meta`` holds the folder's
key/value settings (the index spec in use, the folder's id). :class:`Meta` is the store's
part for both, over any :class:`~recall.store.dialect.Dialect`.
"""

from __future__ import annotations

from collections.abc import Mapping

from .dialect import Db, Dialect

__all__ = ["Meta"]

_INDEX_VERSION = "SELECT version FROM index_state WHERE index_key = ? AND user_id = ?"


def _index_version(db: Db, index_key: str, user_id: str) -> int:
    row = db.execute(_INDEX_VERSION, (index_key, user_id)).fetchone()
    return int(row[0]) if row else 0


class Meta:
    """Index bookkeeping and key/value settings of one store."""

    def __init__(self, sql: Dialect) -> None:
        self.sql = sql

    def index_version(self, index_key: str, user_id: str) -> int:
        """The store version the index ``index_key`` reflects for the user (0: none)."""
        return self.sql.read(lambda db: _index_version(db, index_key, user_id))

    def set_index_version(
        self, index_key: str, user_id: str, version: int, *, expected: int | None = None
    ) -> bool:
        """Record that the index reflects ``version``.

        With ``expected``, only moves from that exact version (a writer that raced another
        leaves the catch-up to the next reader instead of claiming a version it never saw).
        """
        upsert = self.sql.upsert(
            "index_state", ("index_key", "user_id", "version"), ("index_key", "user_id")
        )
        with self.sql.write() as db:
            if expected is not None and _index_version(db, index_key, user_id) != expected:
                return False
            db.execute(upsert, (index_key, user_id, version))
        return True

    def get_meta(self, key: str) -> str | None:
        """A value from the store's key/value table."""
        query = "SELECT value FROM meta WHERE key = ?"
        rows = self.sql.read(lambda db: db.execute(query, (key,)).fetchall())
        return str(rows[0]["value"]) if rows else None

    def set_metas(self, values: Mapping[str, str]) -> None:
        """Set several values of the key/value table in one transaction."""
        upsert = self.sql.upsert("meta", ("key", "value"), ("key",))
        with self.sql.write() as db:
            db.executemany(upsert, list(values.items()))

    def all_meta(self) -> dict[str, str]:
        """Every key/value setting (what a copy of the store carries over)."""
        rows = self.sql.read(lambda db: db.execute("SELECT key, value FROM meta").fetchall())
        return {str(r[0]): str(r[1]) for r in rows}
