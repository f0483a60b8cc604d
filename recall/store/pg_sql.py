"""PostgreSQL's spelling of the SQLite store's statements, and a connection adapter.

:class:`~recall.store.pg.PostgresStore` reuses every query of the SQLite store: the
adapter here turns ``?`` placeholders into psycopg's ``%s``, SQLite's ``INSERT OR
REPLACE`` into ``INSERT ... ON CONFLICT DO UPDATE`` and psycopg's errors into
:class:`~recall.errors.StoreError`, and gives rows the ``sqlite3.Row`` access by name.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from ..errors import StoreError

__all__ = ["Adapter", "ddl", "redact_url", "row_factory", "to_postgres"]

# INSERT OR REPLACE -> upsert: the conflict target of each table written that way.
_KEYS = {"records": ("user_id", "id"), "index_state": ("index_key", "user_id"), "meta": ("key",)}
_UPSERT = re.compile(r"INSERT OR REPLACE INTO (\w+)\s*\(([^)]*)\)\s*VALUES\s*\(([^)]*)\)", re.S)


def redact_url(url: str) -> str:
    """``url`` with its password hidden, for messages and logs."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    netloc = parts.netloc.replace(f":{parts.password}@", ":***@")
    return urlunsplit(parts._replace(netloc=netloc))


def to_postgres(sql: str) -> str:
    """A statement of the SQLite store in PostgreSQL's spelling."""

    def upsert(m: re.Match[str]) -> str:
        table, cols = m.group(1), [c.strip() for c in m.group(2).split(",")]
        keys = _KEYS[table]
        sets = ", ".join(f"{c} = EXCLUDED.{c}" for c in cols if c not in keys)
        return (
            f"INSERT INTO {table} ({m.group(2)}) VALUES ({m.group(3)}) "
            f"ON CONFLICT ({', '.join(keys)}) DO UPDATE SET {sets}"
        )

    return _UPSERT.sub(upsert, sql).replace("?", "%s")


def ddl(sql: str) -> str:
    """A migration statement with PostgreSQL's column types."""
    sql = sql.replace(") WITHOUT ROWID", ")")
    sql = re.sub(r"\bREAL\b", "DOUBLE PRECISION", sql)
    return re.sub(r"\bINTEGER\b", "BIGINT", sql)


class _Row(tuple):  # type: ignore[type-arg]
    """A result row readable by position and by column name, like ``sqlite3.Row``."""

    _names: dict[str, int]

    def __getitem__(self, key: Any) -> Any:
        if isinstance(key, str):
            return tuple.__getitem__(self, self._names[key])
        return tuple.__getitem__(self, key)

    def keys(self) -> list[str]:
        return list(self._names)


def row_factory(cursor: Any) -> Any:
    """psycopg row factory: rows readable by position and by column name."""
    names = {d.name: i for i, d in enumerate(cursor.description or ())}

    def make(values: Sequence[Any]) -> _Row:
        row = _Row(values)
        row._names = names
        return row

    return make


def _failed(where: str, exc: Exception) -> StoreError:
    import psycopg

    hint = ""
    if isinstance(exc, psycopg.OperationalError):
        hint = " Is the PostgreSQL server running and reachable? The next call reconnects."
    return StoreError(f"PostgreSQL failed at {where}: {str(exc).strip().rstrip('.')}.{hint}")


class Adapter:
    """The part of ``sqlite3.Connection`` the store's queries use, over psycopg."""

    def __init__(self, conn: Any, where: str) -> None:
        self.conn = conn
        self.where = where

    def execute(self, sql: str, params: Sequence[Any] = ()) -> Any:
        import psycopg

        try:
            return self.conn.execute(to_postgres(sql), tuple(params))
        except psycopg.Error as exc:
            raise _failed(self.where, exc) from exc

    def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        import psycopg

        try:
            with self.conn.cursor() as cur:
                cur.executemany(to_postgres(sql), [tuple(r) for r in rows])
        except psycopg.Error as exc:
            raise _failed(self.where, exc) from exc
