"""The store: one class for every backend, composed of parts over a :class:`Dialect`.

:class:`SqlStore` implements :class:`~recall.store.base.Store` by handing each call to
the part that owns it: :class:`~recall.store.records.Records`,
:class:`~recall.store.meta.Meta`, :class:`~recall.store.articles.Articles`,
:class:`~recall.store.journal.JobJournal` and :class:`~recall.store.users.UserStore`, each
running recall's SQL through the same :class:`~recall.store.dialect.Dialect`. Nothing here
or in the parts knows which database it runs on: the backend is the dialect alone
(:class:`~recall.store.sqlite.SQLiteStore` and :class:`~recall.store.pg.PostgresStore`
only pick one). The schema is migrated when the store opens.

Every write bumps the user's version counter in the same transaction, which is what the
derived indexes compare against to know whether they lag. The store commits before any
index is touched, so a crash between the two loses nothing: the index catches up later.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, contextmanager
from datetime import datetime
from typing import TYPE_CHECKING, Any

from ..models import Record
from .articles import Articles
from .base import ArticleRow, Job
from .dialect import Db, Dialect
from .journal import JobJournal
from .keyed import settled_write
from .meta import Meta
from .records import Records
from .schema import migrate
from .transaction import SqlTransaction
from .users import UserStore

__all__ = ["SqlStore"]


class SqlStore:
    """:class:`~recall.store.base.Store` over the dialect ``sql`` (see the module docs)."""

    def __init__(self, sql: Dialect) -> None:
        #: The backend: its connection, locks and spelling of recall's SQL.
        self.sql = sql
        try:
            migrate(sql)
        except BaseException:
            sql.close()  # a refused or failed open must not leak the connection
            raise
        self._records = Records(sql)
        self._meta = Meta(sql)
        self._articles = Articles(sql)
        self._journal = JobJournal(sql)
        self._users = UserStore(sql)

    @contextmanager
    def transaction(self) -> Iterator[SqlTransaction]:
        """One write transaction: all of it commits or none of it does."""
        tx: SqlTransaction | None = None
        try:
            with settled_write(self.sql) as db:
                tx = SqlTransaction(self.sql, db)
                yield tx
        except BaseException:
            for job_id in tx.claims if tx is not None else ():
                self.sql.release(job_id)  # rolled back: nothing journaled, nothing to hold
            raise

    def _write(self) -> AbstractContextManager[Db]:
        """A raw write transaction (tests plant rows past the API with it)."""
        return self.sql.write()

    def close(self) -> None:
        """Release the connection (idempotent); the jobs it held go with it."""
        self.sql.close()

    def schema_version(self) -> int:
        """The store's schema version (the last migration applied)."""
        return self.sql.read(self.sql.schema_version)

    def journal_mode(self) -> str:
        """The backend's write-ahead logging (``wal`` for SQLite, ``postgresql``)."""
        return self.sql.journal_mode()

    def vacuum(self, *, lock_timeout_s: float = 30.0) -> list[str]:
        """Rewrite the store without what deleted rows left behind (``recall delete-user
        --vacuum``); returns what was done, one line each."""
        return self.sql.vacuum(lock_timeout_s)

    # --- records ------------------------------------------------------------------------
    def put(self, records: Sequence[Record]) -> dict[str, int]:
        """Insert or replace ``records``; returns each touched user's new version."""
        return self._records.put(records)

    def delete(self, user_id: str, ids: Iterable[str]) -> tuple[list[str], int]:
        """Delete the user's records with these ids; returns (deleted ids, new version)."""
        return self._records.delete(user_id, ids)

    def records(
        self, user_id: str, kinds: Sequence[str] | None = None, ids: Sequence[str] | None = None
    ) -> list[Record]:
        """The user's records, oldest first, optionally only these kinds or ids."""
        return self._records.records(user_id, kinds, ids)

    def hashes(self, user_id: str) -> dict[str, str]:
        """id -> content hash for every record of the user."""
        return self._records.hashes(user_id)

    def version(self, user_id: str) -> int:
        """The user's version: 0 before the first write, +1 with every write."""
        return self._records.version(user_id)

    def users(self) -> list[str]:
        """Every user that was ever written, sorted."""
        return self._records.users()

    def counts(self) -> dict[str, dict[str, int]]:
        """user -> kind -> number of records."""
        return self._records.counts()

    # --- index bookkeeping and folder settings ------------------------------------------
    def index_version(self, index_key: str, user_id: str) -> int:
        """The store version the index ``index_key`` reflects for the user (0: none)."""
        return self._meta.index_version(index_key, user_id)

    def set_index_version(
        self, index_key: str, user_id: str, version: int, *, expected: int | None = None
    ) -> bool:
        """Record that the index reflects ``version``; with ``expected``, only from it."""
        return self._meta.set_index_version(index_key, user_id, version, expected=expected)

    def get_meta(self, key: str) -> str | None:
        """A value from the store's key/value table."""
        return self._meta.get_meta(key)

    def set_meta(self, key: str, value: str) -> None:
        """Set a value in the store's key/value table."""
        self._meta.set_metas({key: value})

    def set_metas(self, values: Mapping[str, str]) -> None:
        """Set several values of the key/value table in one transaction."""
        self._meta.set_metas(values)

    def all_meta(self) -> dict[str, str]:
        """Every key/value setting."""
        return self._meta.all_meta()

    # --- long-term articles -------------------------------------------------------------
    def article(self, user_id: str, version: int | None = None) -> ArticleRow | None:
        """Version ``version`` of the user's article (None: the newest); None if absent."""
        return self._articles.article(user_id, version)

    def article_version(self, user_id: str) -> int:
        """The user's newest article version (0: none yet)."""
        return self._articles.article_version(user_id)

    def articles(self, user_id: str) -> list[ArticleRow]:
        """Every stored version of the user's article, oldest first."""
        return self._articles.articles(user_id)

    def rewrite_articles(self, rows: Sequence[ArticleRow]) -> int:
        """Overwrite the chapters of these stored versions in place; rows changed."""
        return self._articles.rewrite_articles(rows)

    # --- the job journal ----------------------------------------------------------------
    def add_job(
        self, job_id: str, user_id: str, created_at: datetime, payload: dict[str, Any]
    ) -> None:
        """Journal a pending job with its states (its own transaction)."""
        self._journal.add_job(job_id, user_id, created_at, payload)

    def job(self, job_id: str) -> Job | None:
        """The job, or None when it is done (deleted)."""
        return self._journal.job(job_id)

    def unfinished_jobs(self) -> list[str]:
        """Pending and summarized jobs no other live process holds, oldest first."""
        return self._journal.unfinished_jobs()

    def has_unfinished_jobs(self) -> bool:
        """True when the journal holds pending or summarized jobs."""
        return self._journal.has_unfinished_jobs()

    def failed_jobs(self) -> list[Job]:
        """Jobs that gave up, with their last error in ``payload['error']``."""
        return self._journal.failed_jobs()

    def finish_job(self, job_id: str) -> None:
        """The job is done: remove it."""
        self._journal.finish_job(job_id)

    def record_job_failure(self, job_id: str, error: str, max_attempts: int) -> bool:
        """Count a failed try; True when the job should be tried again."""
        return self._journal.record_job_failure(job_id, error, max_attempts)

    # --- a user as a whole --------------------------------------------------------------
    def delete_user(self, user_id: str) -> dict[str, int]:
        """Erase every row of the user in one transaction; rows removed per table."""
        return self._users.delete_user(user_id)

    def import_user(
        self, user_id: str, records: Sequence[Record], articles: Sequence[ArticleRow]
    ) -> int:
        """Write a user's records and article versions (1, 2, ...) in one transaction, only
        into a user holding nothing yet; returns the user's new version."""
        return self._users.import_user(user_id, records, articles)


if TYPE_CHECKING:
    # mypy proves here that the one store class implements the whole interface.
    from . import base

    _implements: type[base.Store] = SqlStore
