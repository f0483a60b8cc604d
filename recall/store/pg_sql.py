"""PostgreSQL's spelling of the SQLite store's statements, and a connection adapter.

:class:`~recall.store.pg.PostgresStore` reuses every query of the SQLite store: the
adapter here turns ``?`` placeholders into psycopg's ``%s``, SQLite's ``INSERT OR
REPLACE`` into ``INSERT ... ON CONFLICT DO UPDATE`` and psycopg's errors into
:class:`~recall.errors.StoreError`, and gives rows the ``sqlite3.Row`` access by name.

A store error may reach any tenant of a shared server (a REST 503, an MCP tool error), so
:func:`store_error` names neither the host nor the user nor the database, and never the
password: "the PostgreSQL store is unavailable (connection refused)". The operator's log
line says where, with the URL's password masked (:func:`recall.settings.redact.redact`).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from typing import Any

from ..errors import StoreError
from ..settings.redact import redact, scrub

__all__ = ["Adapter", "ddl", "row_factory", "store_error", "to_postgres", "unavailable_reason"]

log = logging.getLogger("recall.store.pg")

# INSERT OR REPLACE -> upsert: the conflict target of each table written that way.
_KEYS = {"records": ("user_id", "id"), "index_state": ("index_key", "user_id"), "meta": ("key",)}
_UPSERT = re.compile(r"INSERT OR REPLACE INTO (\w+)\s*\(([^)]*)\)\s*VALUES\s*\(([^)]*)\)", re.S)


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


# libpq's words for why a connection failed or broke -> what a tenant may be told.
_REASONS: tuple[tuple[tuple[str, ...], str], ...] = (
    (("connection refused",), "connection refused"),
    (("timeout", "timed out"), "connection timed out"),
    (("could not translate host", "name or service not known", "nodename nor servname",
      "temporary failure in name resolution"), "host name not resolved"),
    (("starting up", "shutting down", "recovery mode"), "server starting or stopping"),
    (("too many connections", "connection slots"), "too many connections"),
    (("authentication", "no password supplied", "role"), "authentication failed"),
    (("database",), "database not found"),
    (("terminat", "closed", "lost", "consuming input", "ssl syscall", "eof"),
     "connection lost"),
)  # fmt: skip


def unavailable_reason(exc: BaseException) -> str:
    """A few words on why the server cannot be used, naming no host, user or database."""
    text = str(exc).lower()
    for words, reason in _REASONS:
        if any(w in text for w in words):
            return reason
    return "connection failed"


def store_error(url: str, exc: BaseException, action: str) -> StoreError:
    """The StoreError for psycopg's ``exc`` while ``action``, safe to show to any caller.

    A connection that cannot be made or was lost says only that the store is unavailable
    and why in a few words; any other error keeps PostgreSQL's first line, without the
    password. Either way the operator's log (WARNING, ``recall.store.pg``) names the
    server, its URL's password masked, and PostgreSQL's full message.
    """
    import psycopg

    detail = scrub(str(exc).strip(), url)
    log.warning(
        "recall: the PostgreSQL store at %s failed while %s: %s", redact(url), action, detail
    )
    if isinstance(exc, psycopg.OperationalError | psycopg.InterfaceError):
        return StoreError(
            f"the PostgreSQL store is unavailable ({unavailable_reason(exc)}) while {action}; "
            "check RECALL_STORE_URL and that the server is running (the next call reconnects)"
        )
    first = detail.splitlines()[0].rstrip(".") if detail else type(exc).__name__
    return StoreError(f"PostgreSQL failed while {action}: {first}")


class Adapter:
    """The part of ``sqlite3.Connection`` the store's queries use, over psycopg."""

    def __init__(self, conn: Any, url: str) -> None:
        self.conn = conn
        self.url = url  # for scrubbing its password out of errors; never shown

    def execute(self, sql: str, params: Sequence[Any] = ()) -> Any:
        import psycopg

        try:
            return self.conn.execute(to_postgres(sql), tuple(params))
        except psycopg.Error as exc:
            raise store_error(self.url, exc, "running a query") from exc

    def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        import psycopg

        try:
            with self.conn.cursor() as cur:
                cur.executemany(to_postgres(sql), [tuple(r) for r in rows])
        except psycopg.Error as exc:
            raise store_error(self.url, exc, "writing rows") from exc
