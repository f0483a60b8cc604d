"""A user as a whole: erase every row of them (GDPR), read every article version, import.

:class:`UserStore` adds these to the SQLite store. Erasing runs with SQLite's
``secure_delete`` on, so the freed cells and pages are overwritten with zeros, then
checkpoints the write-ahead log into the main file and truncates it: afterwards neither
``recall.sqlite3`` nor its ``-wal`` holds the user's text or id (the test reads the raw
bytes of both). Importing writes a user's records and article versions in one transaction,
and only into a user that holds nothing yet, so an import never mixes two histories.
"""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Sequence

from ..errors import InputError, UnknownUserError, UserExistsError, mapped
from ..models import Record
from .articles import insert_article, read_article
from .base import ArticleRow
from .journal import JobJournal
from .records import bump_version, put_records
from .vacuum import vacuum_sqlite

__all__ = [
    "USER_TABLES",
    "UnknownUserError",
    "UserExistsError",
    "UserStore",
    "article_rows",
    "holds_anything",
    "purge_rows",
]

log = logging.getLogger(__name__)

#: Every table holding rows of a user, keyed by its ``user_id`` column.
USER_TABLES = ("records", "lt_articles", "lt_jobs", "index_state", "users", "idempotency")


def purge_rows(db: sqlite3.Connection, user_id: str) -> dict[str, int]:
    """Delete the user's rows from every table of :data:`USER_TABLES`; rows per table."""
    return {
        table: db.execute(f"DELETE FROM {table} WHERE user_id = ?", (user_id,)).rowcount
        for table in USER_TABLES
    }


def holds_anything(db: sqlite3.Connection, user_id: str) -> bool:
    """True when the user has records, article versions or journaled jobs."""
    return any(
        db.execute(f"SELECT 1 FROM {table} WHERE user_id = ? LIMIT 1", (user_id,)).fetchone()
        for table in ("records", "lt_articles", "lt_jobs")
    )


def article_rows(db: sqlite3.Connection, user_id: str) -> list[ArticleRow]:
    """Every version of the user's article, oldest first."""
    versions = [
        int(r[0])
        for r in db.execute(
            "SELECT version FROM lt_articles WHERE user_id = ? ORDER BY version", (user_id,)
        )
    ]
    rows = [read_article(db, user_id, v) for v in versions]
    return [r for r in rows if r is not None]


class UserStore(JobJournal):
    """Whole-user operations of the SQLite store (see the module docs)."""

    def delete_user(self, user_id: str) -> dict[str, int]:
        """Remove every row of the user from every table; returns rows removed per table.

        Records, article versions, journaled jobs, index bookkeeping and the version counter
        all go in one transaction; the freed space is zeroed and the log truncated.
        """
        with self._lock, mapped("erasing a user"):
            before = int(self._db.execute("PRAGMA secure_delete").fetchone()[0])
            # Zero what the DELETEs free: otherwise the text stays readable in free pages.
            self._db.execute("PRAGMA secure_delete = ON")
            try:
                with self._write() as db:
                    counts = purge_rows(db, user_id)
            finally:
                self._db.execute(f"PRAGMA secure_delete = {before:d}")
            # The log still holds the pages as they were before the delete: fold it into the
            # file (now zeroed there) and cut it to zero bytes.
            busy = self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()[0]
        if busy:
            # Another connection (a second process on this folder) is reading: the log is
            # folded in and cut at the next checkpoint that finds no reader.
            log.warning("recall: erased user %r; the write-ahead log is truncated later", user_id)
        return counts

    def vacuum(self) -> list[str]:
        """Rebuild the file without its free pages and truncate its log (``recall
        delete-user --vacuum``); returns what was done, one line each."""
        with self._lock:
            return vacuum_sqlite(self._db, self.path)

    def articles(self, user_id: str) -> list[ArticleRow]:
        """Every stored version of the user's article, oldest first."""
        with self._lock, mapped("reading the store"):
            return article_rows(self._db, user_id)

    def rewrite_articles(self, rows: Sequence[ArticleRow]) -> int:
        """Overwrite the chapters of these stored versions in place; rows changed."""
        with self._write() as db:
            return sum(
                db.execute(
                    "UPDATE lt_articles SET bedrock = ?, evolutionary = ?, dynamic = ? "
                    "WHERE user_id = ? AND version = ?",
                    (r.bedrock, r.evolutionary, r.dynamic, r.user_id, r.version),
                ).rowcount
                for r in rows
            )

    def import_user(
        self, user_id: str, records: Sequence[Record], articles: Sequence[ArticleRow]
    ) -> int:
        """Write a user's records and article versions in one transaction; returns the
        user's new version.

        Raises :class:`UserExistsError` (writing nothing) when the user already holds
        records, articles or jobs, and ``InputError`` when the article versions are not
        1, 2, ... in order or a row belongs to another user.
        """
        if any(r.user_id != user_id for r in records) or any(
            a.user_id != user_id for a in articles
        ):
            raise InputError(f"every imported row must belong to user {user_id!r}")
        versions = [a.version for a in articles]
        if versions != list(range(1, len(articles) + 1)):
            raise InputError(f"article versions must run 1, 2, ... in order; got {versions}")
        with self._write() as db:
            if holds_anything(db, user_id):
                raise UserExistsError(
                    f"user {user_id!r} already holds memory; delete it first or import under "
                    "another user id"
                )
            put_records(db, records)
            for row in articles:
                insert_article(db, row)
            return bump_version(db, user_id)
