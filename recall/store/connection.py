"""One SQLite file opened the way every part of the store needs it.

WAL mode so that readers never block the writer; one connection per store object, shared
by threads under a lock; the schema migrated to :data:`~recall.store.schema.LATEST` before
anything else runs. Nothing outside ``recall.store`` sees the connection.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from ..errors import mapped
from .schema import migrate

__all__ = ["SQLiteConnection"]


class SQLiteConnection:
    """The store file's connection: opening, migrating, reading and write transactions."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
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
            try:
                migrate(self._db, str(self.path))
            except BaseException:
                self._db.close()  # a refused or failed open must not leak the file handle
                raise

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
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

    def _read(self, sql: str, params: Sequence[object] = ()) -> list[sqlite3.Row]:
        with self._lock, mapped("reading the store"):
            return self._db.execute(sql, params).fetchall()

    def schema_version(self) -> int:
        """The file's schema version (``PRAGMA user_version``)."""
        return int(self._read("PRAGMA user_version")[0][0])

    def journal_mode(self) -> str:
        """SQLite's journal mode for this file (``wal`` once opened)."""
        return str(self._read("PRAGMA journal_mode")[0][0])

    def close(self) -> None:
        """Close the connection (idempotent)."""
        with self._lock:
            self._db.close()
