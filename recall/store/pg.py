"""The PostgreSQL store: the same schema, queries and rules as SQLite, on a database server.

Several recall processes (on several machines) can share one memory through it. Every
query of the SQLite store is written in the SQL both databases speak, so
:class:`PostgresStore` reuses them all and swaps the connection underneath: a thin
adapter turns ``?`` placeholders into psycopg's ``%s`` and SQLite's ``INSERT OR REPLACE``
into ``INSERT ... ON CONFLICT DO UPDATE``. The schema comes from the same numbered
migrations (:mod:`recall.store.schema`), with the column types PostgreSQL names
differently, tracked in a one-row ``recall_schema`` table.

What SQLite gets from its single-writer lock, PostgreSQL gets from a transaction-scoped
advisory lock taken by every write transaction: writes are serialized across every
process on the database, so the per-user version bump, the article's optimistic version
check and the job journal's claim (``pending`` -> ``summarized`` only from ``pending``)
behave exactly as on SQLite. Reads take no lock and see every committed write at once,
which is what keeps each process's caches fresh (they follow the per-user version).
"""

from __future__ import annotations

import re
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from ..errors import StoreError
from .schema import MIGRATIONS, Migration
from .sqlite import SQLiteStore
from .users import purge_rows

__all__ = ["PostgresStore", "redact_url", "to_postgres"]

# Every write transaction of every process takes this lock (see the module docs).
_WRITE_LOCK = 0x7265_6361  # "reca"
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


def _ddl(sql: str) -> str:
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


def _row_factory(cursor: Any) -> Any:
    names = {d.name: i for i, d in enumerate(cursor.description or ())}

    def make(values: Sequence[Any]) -> _Row:
        row = _Row(values)
        row._names = names
        return row

    return make


class _Adapter:
    """The part of ``sqlite3.Connection`` the store's queries use, over psycopg."""

    def __init__(self, conn: Any, where: str) -> None:
        self.conn = conn
        self.where = where

    def execute(self, sql: str, params: Sequence[Any] = ()) -> Any:
        import psycopg

        try:
            return self.conn.execute(to_postgres(sql), tuple(params))
        except psycopg.Error as exc:
            raise StoreError(f"PostgreSQL failed at {self.where}: {exc}".strip()) from exc

    def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        import psycopg

        try:
            with self.conn.cursor() as cur:
                cur.executemany(to_postgres(sql), [tuple(r) for r in rows])
        except psycopg.Error as exc:
            raise StoreError(f"PostgreSQL failed at {self.where}: {exc}".strip()) from exc


class PostgresStore(SQLiteStore):
    """:class:`~recall.store.base.Store` on a PostgreSQL database (``postgresql://...``)."""

    def __init__(self, url: str, *, connect_timeout: float = 10.0) -> None:
        self.url = url
        self.where = redact_url(url)
        self.path = None  # type: ignore[assignment]  # no file: the database is the store
        self._timeout = connect_timeout
        self._lock = threading.RLock()
        self._conn = self._connect()
        self._db = _Adapter(self._conn, self.where)  # type: ignore[assignment]
        try:
            self._migrate()
        except BaseException:
            self._conn.close()
            raise

    def _connect(self) -> Any:
        try:
            import psycopg
        except ImportError as exc:  # pragma: no cover - a broken install
            raise StoreError(
                f"the PostgreSQL store needs psycopg ({exc}); reinstall recall"
            ) from exc
        try:
            return psycopg.connect(
                self.url,
                autocommit=True,  # reads see every commit at once; writes open transactions
                connect_timeout=max(1, int(self._timeout)),
                row_factory=_row_factory,
            )
        except psycopg.Error as exc:
            raise StoreError(
                f"cannot connect to the PostgreSQL store at {self.where}: {exc}. Is the "
                "server running, and does the database exist (createdb NAME)?"
            ) from exc

    def _alive(self) -> None:
        """Reconnect once after a lost connection (a server restart): reads then go on."""
        if self._conn.closed or self._conn.broken:
            self._conn = self._connect()
            self._db = _Adapter(self._conn, self.where)  # type: ignore[assignment]

    def _migrate(self, migrations: Sequence[Migration] = MIGRATIONS) -> None:
        with self._write() as db:  # the advisory lock: one process migrates at a time
            db.execute("CREATE TABLE IF NOT EXISTS recall_schema (version BIGINT NOT NULL)")
            row = db.execute("SELECT version FROM recall_schema").fetchone()
            found = int(row[0]) if row else 0
            if found > len(migrations):
                raise StoreError(
                    f"the PostgreSQL store at {self.where} has schema version {found}, newer "
                    f"than this recall's {len(migrations)}: upgrade recall to use it"
                )
            for m in migrations[found:]:
                for sql in m.statements:
                    db.execute(_ddl(sql))
            if row is None:
                db.execute("INSERT INTO recall_schema (version) VALUES (?)", (len(migrations),))
            elif found != len(migrations):
                db.execute("UPDATE recall_schema SET version = ?", (len(migrations),))

    @contextmanager
    def _write(self) -> Iterator[Any]:
        """One transaction holding the store-wide write lock: all of it or none of it."""
        with self._lock:
            self._alive()
            import psycopg

            try:
                with self._conn.transaction():
                    self._db.execute("SELECT pg_advisory_xact_lock(?)", (_WRITE_LOCK,))
                    yield self._db
            except psycopg.Error as exc:
                raise StoreError(f"PostgreSQL failed at {self.where}: {exc}") from exc

    def _read(self, sql: str, params: Sequence[object] = ()) -> list[Any]:
        with self._lock:
            self._alive()
            return list(self._db.execute(sql, params).fetchall())

    def schema_version(self) -> int:
        """The database's schema version (the ``recall_schema`` row)."""
        return int(self._read("SELECT version FROM recall_schema")[0][0])

    def journal_mode(self) -> str:
        """No journal mode: PostgreSQL writes ahead on its own."""
        return "postgresql"

    def delete_user(self, user_id: str) -> dict[str, int]:
        """Remove every row of the user in one transaction; returns rows removed per table.

        The rows are gone for every reader at commit; the space they held is reclaimed by
        PostgreSQL's (auto)vacuum, not zeroed as SQLite's ``secure_delete`` does.
        """
        with self._write() as db:
            return purge_rows(db, user_id)

    def close(self) -> None:
        """Close the connection (idempotent)."""
        with self._lock:
            self._conn.close()
