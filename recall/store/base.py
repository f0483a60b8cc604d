"""The store interface: every operation the upper layers need from the source of truth.

:class:`Store` and :class:`Transaction` are protocols, implemented once by
:class:`~recall.store.sql_store.SqlStore` over any backend's
:class:`~recall.store.dialect.Dialect` (SQLite, PostgreSQL). The index,
the lifecycle and the facade type against these protocols only; none of them sees SQL or a
database connection. Rows come back as plain typed values (:class:`~recall.models.Record`,
:class:`ArticleRow`, :class:`Job`), never as driver rows.

Two rules the store keeps on every backend:

* every write that changes a user's records bumps that user's version in the same
  transaction (the indexes compare against it to know whether they lag);
* :meth:`Store.transaction` is all or nothing, and two transactions on one user never
  interleave (promotion relies on it for its optimistic version check).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from datetime import datetime
from typing import Any, NamedTuple, Protocol

from ..models import Record

__all__ = ["ArticleRow", "Job", "Store", "Transaction", "content_hash"]


def content_hash(text: str) -> str:
    """A stable hash of a record's text (lets a reindex skip unchanged records)."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:32]


@dataclass(frozen=True)
class ArticleRow:
    """One stored version of a user's long-term article, as the store keeps it."""

    user_id: str
    version: int
    bedrock: str
    evolutionary: str
    dynamic: str
    updated_at: datetime
    promoted: tuple[str, ...] = ()


class Job(NamedTuple):
    """One journaled update_memory call."""

    job_id: str
    user_id: str
    created_at: datetime
    payload: dict[str, Any] | None
    status: str
    attempts: int


class Transaction(Protocol):
    """Writes that commit together: what :meth:`Store.transaction` yields.

    Nothing here bumps a version by itself; the caller bumps each user it changed once,
    so that one transaction is one version step however many rows it touched.
    """

    def put(self, records: Sequence[Record]) -> None:
        """Insert or replace ``records``."""
        ...

    def bump_version(self, user_id: str) -> int:
        """Add one to the user's version; returns the new version."""
        ...

    def count(self, user_id: str, kind: str, ids: Sequence[str]) -> int:
        """How many of the user's records with these ids are of ``kind``."""
        ...

    def replace_ids(self, user_id: str, ids: Sequence[str], records: Sequence[Record]) -> None:
        """Remove the user's records with these ids, then write ``records``.

        Promotion turns short-term summaries into archive records this way.
        """
        ...

    def replace_kind(self, user_id: str, kind: str, records: Sequence[Record]) -> None:
        """Remove every record of ``kind`` the user has, then write ``records``.

        Promotion swaps the Dynamic chapter's passages this way.
        """
        ...

    def latest_article_version(self, user_id: str) -> int:
        """The user's newest article version (0: none yet)."""
        ...

    def insert_article(self, row: ArticleRow) -> bool:
        """Write ``row`` if it is exactly one above the newest version, else write nothing.

        False means another writer got there first: the caller re-reads and retries.
        """
        ...

    def add_summarized_job(self, job_id: str, user_id: str, created_at: datetime) -> None:
        """Journal a job whose summary is written in this same transaction."""
        ...

    def mark_job_summarized(self, job_id: str) -> bool:
        """pending -> summarized; False if another runner got there first."""
        ...


class Store(Protocol):
    """The source of truth: records, per-user versions, index bookkeeping, articles, jobs."""

    def transaction(self) -> AbstractContextManager[Transaction]:
        """One transaction: all of it commits or none of it does."""
        ...

    def close(self) -> None:
        """Release the connection (idempotent)."""
        ...

    # records
    def put(self, records: Sequence[Record]) -> dict[str, int]:
        """Insert or replace ``records``; returns each touched user's new version."""
        ...

    def delete(self, user_id: str, ids: Iterable[str]) -> tuple[list[str], int]:
        """Delete the user's records with these ids; returns (deleted ids, new version)."""
        ...

    def records(
        self, user_id: str, kinds: Sequence[str] | None = None, ids: Sequence[str] | None = None
    ) -> list[Record]:
        """The user's records, oldest first (by created_at, then id), optionally filtered."""
        ...

    def hashes(self, user_id: str) -> dict[str, str]:
        """id -> :func:`content_hash` for every record of the user."""
        ...

    def version(self, user_id: str) -> int:
        """The user's version: 0 before the first write, +1 with every write."""
        ...

    def users(self) -> list[str]:
        """Every user that was ever written, sorted."""
        ...

    def counts(self) -> dict[str, dict[str, int]]:
        """user -> kind -> number of records."""
        ...

    # index bookkeeping and settings of the folder
    def index_version(self, index_key: str, user_id: str) -> int:
        """The store version the index ``index_key`` reflects for the user (0: none)."""
        ...

    def set_index_version(
        self, index_key: str, user_id: str, version: int, *, expected: int | None = None
    ) -> bool:
        """Record that the index reflects ``version``; with ``expected``, only from it."""
        ...

    def get_meta(self, key: str) -> str | None:
        """A value from the folder's key/value settings."""
        ...

    def set_meta(self, key: str, value: str) -> None:
        """Set one key/value setting."""
        ...

    def set_metas(self, values: Mapping[str, str]) -> None:
        """Set several key/value settings in one transaction."""
        ...

    # long-term articles
    def article(self, user_id: str, version: int | None = None) -> ArticleRow | None:
        """Version ``version`` of the user's article (None: the newest); None if absent."""
        ...

    def article_version(self, user_id: str) -> int:
        """The user's newest article version (0: none yet)."""
        ...

    # the job journal
    def add_job(
        self, job_id: str, user_id: str, created_at: datetime, payload: dict[str, Any]
    ) -> None:
        """Journal a pending job with its states (its own transaction)."""
        ...

    def job(self, job_id: str) -> Job | None:
        """The job, or None when it is done (deleted)."""
        ...

    def unfinished_jobs(self) -> list[str]:
        """Ids of pending and summarized jobs, oldest first."""
        ...

    def has_unfinished_jobs(self) -> bool:
        """True when the journal holds pending or summarized jobs."""
        ...

    def failed_jobs(self) -> list[Job]:
        """Jobs that gave up, with their last error in ``payload['error']``."""
        ...

    def finish_job(self, job_id: str) -> None:
        """The job is done: remove it."""
        ...

    def record_job_failure(self, job_id: str, error: str, max_attempts: int) -> bool:
        """Count a failed try; True when the job should be tried again."""
        ...

    # a user as a whole
    def delete_user(self, user_id: str) -> dict[str, int]:
        """Erase every row of the user (records, articles, jobs, index state, version);
        returns rows removed per table. The freed space must not keep the user's data."""
        ...

    def articles(self, user_id: str) -> list[ArticleRow]:
        """Every stored version of the user's article, oldest first."""
        ...

    def rewrite_articles(self, rows: Sequence[ArticleRow]) -> int:
        """Overwrite the chapters of these stored versions in place (``forget`` scrubs a
        fact from old versions: no other write changes a version); returns rows changed."""
        ...

    def import_user(
        self, user_id: str, records: Sequence[Record], articles: Sequence[ArticleRow]
    ) -> int:
        """Write a user's records and article versions (1, 2, ...) in one transaction, only
        into a user holding nothing yet; returns the user's new version."""
        ...
