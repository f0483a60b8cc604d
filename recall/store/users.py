"""A user as a whole: erase every row of them (GDPR), import one, on any backend.

:class:`UserStore` is the store's part for these, over a
:class:`~recall.store.dialect.Dialect`. Erasing runs in the dialect's
:meth:`~recall.store.dialect.Dialect.erase` transaction: on SQLite with ``secure_delete``
on, so the freed cells and pages are overwritten with zeros, then the write-ahead log is
checkpointed into the main file and truncated: afterwards neither ``recall.sqlite3`` nor
its ``-wal`` holds the user's text or id (the test reads the raw bytes of both).
Importing writes a user's records and article versions in one transaction, and only into
a user that holds nothing yet, so an import never mixes two histories.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..errors import InputError, UnknownUserError, UserExistsError
from ..models import Record
from .articles import insert_article
from .base import ArticleRow
from .dialect import Db, Dialect
from .keyed import settled_write
from .records import bump_version, put_records

__all__ = [
    "USER_TABLES",
    "UnknownUserError",
    "UserExistsError",
    "UserStore",
    "holds_anything",
    "purge_rows",
]

#: Every table holding rows of a user, keyed by its ``user_id`` column.
USER_TABLES = ("records", "lt_articles", "lt_jobs", "index_state", "users", "idempotency")


def purge_rows(db: Db, user_id: str) -> dict[str, int]:
    """Delete the user's rows from every table of :data:`USER_TABLES`; rows per table."""
    return {
        table: db.execute(f"DELETE FROM {table} WHERE user_id = ?", (user_id,)).rowcount
        for table in USER_TABLES
    }


def holds_anything(db: Db, user_id: str) -> bool:
    """True when the user has records, article versions or journaled jobs."""
    return any(
        db.execute(f"SELECT 1 FROM {table} WHERE user_id = ? LIMIT 1", (user_id,)).fetchone()
        for table in ("records", "lt_articles", "lt_jobs")
    )


class UserStore:
    """Whole-user operations of the store (see the module docs)."""

    def __init__(self, sql: Dialect) -> None:
        self.sql = sql

    def delete_user(self, user_id: str) -> dict[str, int]:
        """Remove every row of the user from every table; returns rows removed per table.

        Records, article versions, journaled jobs, index bookkeeping and the version counter
        all go in one transaction; what the backend can do about the freed space, it does.
        """
        with self.sql.erase() as db:
            return purge_rows(db, user_id)

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
        with settled_write(self.sql) as db:
            if holds_anything(db, user_id):
                raise UserExistsError(
                    f"user {user_id!r} already holds memory; delete it first or import under "
                    "another user id"
                )
            put_records(self.sql, db, records)
            for row in articles:
                insert_article(db, row)
            return bump_version(db, user_id)
