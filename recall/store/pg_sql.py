"""PostgreSQL's spelling of recall's SQL, and the connection adapter of its dialect.

:class:`~recall.store.pg.PostgresDialect` hands the store's parts an :class:`Adapter`: a
:class:`~recall.store.dialect.Db` that turns ``?`` placeholders into psycopg's ``%s`` and
psycopg's errors into :class:`~recall.errors.StoreError`, its rows read by position and
by column name.

A store error may reach any tenant of a shared server (a REST 503, an MCP tool error), so
:func:`store_error` names neither the host nor the user nor the database, and never the
password: "the PostgreSQL store is unavailable (connection refused)". The operator's log
line says where, with the URL's password masked (:func:`recall.settings.redact.redact`).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable, Sequence
from typing import Any

from ..errors import StoreError
from ..settings.redact import redact, scrub

__all__ = ["Adapter", "ddl", "row_factory", "store_error", "to_postgres", "unavailable_reason"]

log = logging.getLogger("recall.store.pg")


def to_postgres(sql: str) -> str:
    """A statement in recall's SQL with psycopg's ``%s`` placeholders."""
    return sql.replace("?", "%s")


def ddl(sql: str) -> str:
    """A migration statement with PostgreSQL's column types."""
    sql = sql.replace(") WITHOUT ROWID", ")")
    sql = re.sub(r"\bREAL\b", "DOUBLE PRECISION", sql)
    return re.sub(r"\bINTEGER\b", "BIGINT", sql)


class _Row(tuple[Any, ...]):
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
    """PostgreSQL's :class:`~recall.store.dialect.Db`: recall's SQL, run by psycopg."""

    def __init__(self, conn: Any, url: str) -> None:
        self.conn = conn
        self.url = url  # for scrubbing its password out of errors; never shown

    def execute(self, sql: str, params: Sequence[Any] = ()) -> Any:
        import psycopg

        try:
            return self.conn.execute(to_postgres(sql), tuple(params))
        except psycopg.Error as exc:
            raise store_error(self.url, exc, "running a query") from exc

    def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        import psycopg

        try:
            with self.conn.cursor() as cur:
                cur.executemany(to_postgres(sql), [tuple(r) for r in rows])
        except psycopg.Error as exc:
            raise store_error(self.url, exc, "writing rows") from exc
