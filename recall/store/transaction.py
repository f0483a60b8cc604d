"""The one implementation of :class:`~recall.store.base.Transaction`, on any backend.

An object of this class only lives inside ``SqlStore.transaction()``: every method runs on
the connection that holds the open write transaction of the store's
:class:`~recall.store.dialect.Dialect`, so all of them commit or roll back together. The
jobs it journals are held by this process (:meth:`~recall.store.dialect.Dialect.claim`);
the store lets them go again when the transaction rolls back.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from ..models import Record
from . import articles, journal
from .base import ArticleRow
from .dialect import Db, Dialect
from .records import bump_version, count_kind, delete_ids, delete_kind, put_records

__all__ = ["SqlTransaction"]


class SqlTransaction:
    """Writes inside one open transaction (see :class:`~recall.store.base.Transaction`)."""

    def __init__(self, sql: Dialect, db: Db) -> None:
        self._sql = sql
        self._db = db
        #: The jobs this transaction journaled and this process now holds.
        self.claims: list[str] = []

    def put(self, records: Sequence[Record]) -> None:
        """Insert or replace ``records``."""
        put_records(self._sql, self._db, records)

    def bump_version(self, user_id: str) -> int:
        """Add one to the user's version; returns the new version."""
        return bump_version(self._db, user_id)

    def count(self, user_id: str, kind: str, ids: Sequence[str]) -> int:
        """How many of the user's records with these ids are of ``kind``."""
        return count_kind(self._db, user_id, kind, ids)

    def replace_ids(self, user_id: str, ids: Sequence[str], records: Sequence[Record]) -> None:
        """Remove the user's records with these ids, then write ``records``."""
        delete_ids(self._db, user_id, ids)
        put_records(self._sql, self._db, records)

    def replace_kind(self, user_id: str, kind: str, records: Sequence[Record]) -> None:
        """Remove every record of ``kind`` the user has, then write ``records``."""
        delete_kind(self._db, user_id, kind)
        put_records(self._sql, self._db, records)

    def latest_article_version(self, user_id: str) -> int:
        """The user's newest article version (0: none yet)."""
        return articles.latest_version(self._db, user_id)

    def insert_article(self, row: ArticleRow) -> bool:
        """Write ``row`` if it is exactly one above the newest version; else False."""
        return articles.insert_article(self._db, row)

    def add_summarized_job(self, job_id: str, user_id: str, created_at: datetime) -> None:
        """Journal a job whose summary is written in this same transaction; held by this
        process."""
        if self._sql.claim(job_id):
            self.claims.append(job_id)
        journal.add_summarized_job(self._db, job_id, user_id, created_at)

    def mark_job_summarized(self, job_id: str) -> bool:
        """pending -> summarized; False if another runner got there first."""
        return journal.mark_job_summarized(self._db, job_id)
