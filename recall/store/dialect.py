"""What a SQL backend implements: the :class:`Dialect` protocol, and the SQL recall speaks.

The store is one class, :class:`~recall.store.sql_store.SqlStore`, composed of parts that
know nothing of the database they run on: records and versions
(:mod:`recall.store.records`), index bookkeeping and settings (:mod:`recall.store.meta`),
articles (:mod:`recall.store.articles`), the job journal (:mod:`recall.store.journal`),
whole-user operations (:mod:`recall.store.users`), idempotency keys, migrations
(:mod:`recall.store.schema`) and copying a store (:mod:`recall.store.migrate`). Each
takes a :class:`Dialect` and runs its statements through it. SQLite
(:class:`~recall.store.sqlite.SQLiteDialect`) and PostgreSQL
(:class:`~recall.store.pg.PostgresDialect`) are two siblings implementing it; a third
backend (MySQL, DuckDB) implements these, connecting in its constructor, and nothing else:

* ``where``: the store named for error messages any caller may read (no password, host
  or user of a server);
* :meth:`~Dialect.read`: run a read outside any transaction (reconnecting if it must);
* :meth:`~Dialect.write`: one all-or-nothing transaction holding the store-wide write lock;
* :meth:`~Dialect.erase`: a :meth:`~Dialect.write` after which the deleted rows' bytes are
  gone from what the backend can reach;
* :meth:`~Dialect.upsert`: its spelling of insert-or-replace;
* :meth:`~Dialect.ddl`: a migration statement with its column types;
* :meth:`~Dialect.schema_version` and :meth:`~Dialect.set_schema_version`: where it keeps
  the number of the last migration applied;
* :meth:`~Dialect.claim` and :meth:`~Dialect.release`: a job held by this process while it
  lives (a single-machine backend may hold every job: ``claim`` is True);
* :meth:`~Dialect.vacuum`, :meth:`~Dialect.journal_mode`, :meth:`~Dialect.close`.

Every error of its driver leaves :meth:`~Dialect.read`, :meth:`~Dialect.write` and the
:class:`Db` they hand out as :class:`~recall.errors.StoreError`, naming no secret
(:mod:`recall.settings.redact`). The statements it is given are recall's SQL: ``?``
placeholders (its :class:`Db` turns them into its own), rows read by position and by
column name, no ``RETURNING``, ``INSERT`` that conflicts only through :meth:`~Dialect.upsert`,
``LIMIT``, ``COALESCE``, ``COUNT``, ``IN (...)`` lists of at most 500 values.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import AbstractContextManager
from typing import Any, Protocol, TypeVar, runtime_checkable

__all__ = ["Cursor", "Db", "Dialect", "upsert_sql"]

T = TypeVar("T")


class Cursor(Protocol):
    """What a statement returns: rows readable by position and by column name."""

    @property
    def rowcount(self) -> int:
        """Rows an UPDATE or DELETE changed."""
        ...

    def fetchone(self) -> Any:
        """The next row, or None."""
        ...

    def fetchall(self) -> Any:
        """Every remaining row, as a list."""
        ...

    def __iter__(self) -> Iterator[Any]: ...


class Db(Protocol):
    """A connection handed to one read or one write: runs statements in recall's SQL."""

    def execute(self, sql: str, params: Sequence[Any] = (), /) -> Cursor:
        """Run one statement with ``?`` placeholders."""
        ...

    def executemany(self, sql: str, rows: Iterable[Sequence[Any]], /) -> object:
        """Run one statement once per row of parameters."""
        ...


@runtime_checkable
class Dialect(Protocol):
    """One backend's connection and spelling; everything else is shared (module docs)."""

    where: str

    def read(self, run: Callable[[Db], T]) -> T:
        """``run(db)`` outside any transaction; it sees every committed write."""
        ...

    def write(self) -> AbstractContextManager[Db]:
        """One transaction holding the store-wide write lock: all of it or none of it.

        The lock is taken before anything is read, so a read-then-write inside (the
        optimistic checks of promotion and index bookkeeping) is never overtaken.
        """
        ...

    def erase(self) -> AbstractContextManager[Db]:
        """A :meth:`write` whose deleted rows leave no readable bytes behind, as far as
        the backend can see to it (``delete_user``)."""
        ...

    def upsert(self, table: str, columns: Sequence[str], keys: Sequence[str]) -> str:
        """An insert of ``columns`` (``?`` each) replacing the row with the same ``keys``."""
        ...

    def ddl(self, statement: str) -> str:
        """A migration statement (written for SQLite) with this backend's column types."""
        ...

    def schema_version(self, db: Db) -> int:
        """The number of the last migration applied (0: none, or a 0.1.0 folder)."""
        ...

    def set_schema_version(self, db: Db, version: int) -> None:
        """Record ``version`` inside the migrating transaction ``db``."""
        ...

    def claim(self, job_id: str) -> bool:
        """Hold the job for this process unless another live one holds it."""
        ...

    def release(self, job_id: str) -> None:
        """Let the job go (finished, failed, or its transaction rolled back)."""
        ...

    def vacuum(self, lock_timeout_s: float) -> list[str]:
        """Rewrite the files without deleted rows; returns what was done, one line each."""
        ...

    def journal_mode(self) -> str:
        """How the backend keeps its write-ahead log (SQLite's ``wal``)."""
        ...

    def close(self) -> None:
        """Release the connection (idempotent)."""
        ...


def upsert_sql(table: str, columns: Sequence[str], keys: Sequence[str]) -> str:
    """The standard upsert, ``INSERT ... ON CONFLICT (keys) DO UPDATE SET ...``."""
    sets = ", ".join(f"{c} = EXCLUDED.{c}" for c in columns if c not in keys)
    return (
        f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))}) "
        f"ON CONFLICT ({', '.join(keys)}) DO UPDATE SET {sets}"
    )
