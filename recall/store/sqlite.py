"""The SQLite backend: one file (``recall.sqlite3`` in the memory folder).

:class:`SQLiteDialect` is SQLite's :class:`~recall.store.dialect.Dialect`: WAL mode so that
readers never block the writer; one connection per store object, shared by threads under
a lock; ``BEGIN IMMEDIATE`` for every write, so the write lock is held from the start of
the transaction; the schema version in ``PRAGMA user_version``; errors turned into
:class:`~recall.errors.StoreError` by :func:`~recall.errors.mapped`. :class:`SQLiteStore`
is the store (:class:`~recall.store.sql_store.SqlStore`) over it.
"""

from __future__ import annotations

import logging
import sqlite3
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from ..errors import mapped
from .base import content_hash
from .dialect import Db
from .sql_store import SqlStore
from .vacuum import vacuum_sqlite

__all__ = ["SQLiteDialect", "SQLiteStore", "content_hash"]

log = logging.getLogger(__name__)

T = TypeVar("T")


class SQLiteDialect:
    """The store file's connection: opening, reading and write transactions."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self.where = str(self.path)
        self._lock = threading.RLock()
        with mapped(f"opening {self.path}"):
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(
                self.path, timeout=30.0, check_same_thread=False, isolation_level=None
            )
            self._db.row_factory = sqlite3.Row
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.execute("PRAGMA busy_timeout=30000")

    def read(self, run: Callable[[Db], T]) -> T:
        """``run`` on the connection, under the lock; SQLite's errors as StoreError."""
        with self._lock, mapped("reading the store"):
            return run(self._db)

    @contextmanager
    def write(self) -> Iterator[Db]:
        """One IMMEDIATE transaction: all of it commits or none of it does.

        IMMEDIATE takes the write lock at BEGIN, so a read-then-write inside the block (the
        optimistic checks of promotion and index bookkeeping) cannot be overtaken by another
        process between the read and the write.
        """
        with self._lock, mapped("writing the store"):
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    @contextmanager
    def erase(self) -> Iterator[Db]:
        """A write with ``secure_delete`` on, then the log folded in and truncated.

        ``secure_delete`` zeroes what the DELETEs free (otherwise the text stays readable in
        free pages); the log still holds the pages as they were before, so it is folded
        into the file (zeroed there) and cut to zero bytes.
        """
        with self._lock, mapped("erasing a user"):
            before = int(self._db.execute("PRAGMA secure_delete").fetchone()[0])
            self._db.execute("PRAGMA secure_delete = ON")
            try:
                with self.write() as db:
                    yield db
            finally:
                self._db.execute(f"PRAGMA secure_delete = {before:d}")
            busy = self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()[0]
        if busy:
            # Another connection (a second process on this folder) is reading: the log is
            # folded in and cut at the next checkpoint that finds no reader.
            log.warning("recall: erased a user; the write-ahead log is truncated later")

    def upsert(self, table: str, columns: Sequence[str], keys: Sequence[str]) -> str:  # noqa: ARG002
        """SQLite's ``INSERT OR REPLACE``: the row with the same primary key (``keys``)
        goes first."""
        marks = ", ".join("?" * len(columns))
        return f"INSERT OR REPLACE INTO {table} ({', '.join(columns)}) VALUES ({marks})"

    def ddl(self, statement: str) -> str:
        """The migrations are written in SQLite's types: unchanged."""
        return statement

    def schema_version(self, db: Db) -> int:
        """``PRAGMA user_version`` (0 for 0.1.0 and new files)."""
        return int(db.execute("PRAGMA user_version").fetchone()[0])

    def set_schema_version(self, db: Db, version: int) -> None:
        """``user_version`` lives in the file header, which the transaction covers."""
        db.execute(f"PRAGMA user_version = {int(version):d}")

    def claim(self, job_id: str) -> bool:  # noqa: ARG002
        """Every job is this process's: SQLite's processes share one machine and resume
        jobs through the journal's conditional transitions."""
        return True

    def release(self, job_id: str) -> None:
        """Nothing is held (see :meth:`claim`)."""

    def vacuum(self, lock_timeout_s: float) -> list[str]:
        """Rebuild the file without its free pages and truncate its log, waiting at most
        ``lock_timeout_s`` for another process's lock."""
        with self._lock, mapped("vacuuming the store"):
            self._db.execute(f"PRAGMA busy_timeout = {int(lock_timeout_s * 1000):d}")
            try:
                return vacuum_sqlite(self._db, self.path)
            finally:
                self._db.execute("PRAGMA busy_timeout = 30000")

    def journal_mode(self) -> str:
        """SQLite's journal mode for this file (``wal`` once opened)."""
        return str(self.read(lambda db: db.execute("PRAGMA journal_mode").fetchone()[0]))

    def close(self) -> None:
        """Close the connection (idempotent)."""
        with self._lock:
            self._db.close()


class SQLiteStore(SqlStore):
    """The store in the SQLite file ``path``: :class:`SqlStore` over :class:`SQLiteDialect`."""

    def __init__(self, path: Path) -> None:
        dialect = SQLiteDialect(path)
        #: The store's file.
        self.path = dialect.path
        super().__init__(dialect)


if TYPE_CHECKING:
    # mypy proves here that SQLite implements the whole backend contract.
    from .dialect import Dialect

    _implements: type[Dialect] = SQLiteDialect
