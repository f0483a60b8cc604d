"""The PostgreSQL store: the same schema, queries and rules as SQLite, on a database server.

Several recall processes (on several machines) can share one memory through it. Every
query of the SQLite store is written in the SQL both databases speak, so
:class:`PostgresStore` reuses them all and swaps the connection underneath: a thin
adapter (:mod:`recall.store.pg_sql`) turns ``?`` placeholders into ``%s`` and ``INSERT OR REPLACE``
into ``INSERT ... ON CONFLICT DO UPDATE``. The schema comes from the same numbered
migrations (:mod:`recall.store.schema`), with the column types PostgreSQL names
differently, tracked in a one-row ``recall_schema`` table.

What SQLite gets from its single-writer lock, PostgreSQL gets from a transaction-scoped
advisory lock taken by every write transaction: writes are serialized across every
process on the database, so the per-user version bump, the article's optimistic version
check and the job journal's claim (``pending`` -> ``summarized`` only from ``pending``)
behave exactly as on SQLite. Reads take no lock and see every committed write at once,
which is what keeps each process's caches fresh (they follow the per-user version).

Background jobs are claimed the way ``SELECT ... FOR UPDATE SKIP LOCKED`` claims queue rows,
with session-level advisory locks (a row lock would have to be held in an open transaction
for the whole job, blocking every other write): a process holds one lock per job it
journals or takes over, and :meth:`PostgresStore.unfinished_jobs` returns only the jobs
whose lock it holds or can take. A live process's jobs are skipped by the others; a dead
process's session is gone with its locks, so its jobs go to the next process that asks.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator, Sequence
from contextlib import ExitStack, contextmanager, suppress
from datetime import datetime
from typing import Any

from ..errors import ConfigError, StoreError
from ..settings.redact import redact, scrub
from .pg_sql import Adapter, ddl, log, row_factory, store_error, to_postgres
from .pg_vacuum import vacuum_postgres
from .schema import MIGRATIONS, Migration
from .sqlite import SQLiteStore
from .transaction import SQLiteTransaction
from .users import purge_rows

__all__ = ["PostgresStore", "to_postgres"]

# Every write transaction of every process takes this lock (see the module docs).
_WRITE_LOCK = 0x7265_6361  # "reca"
# Job claims: two-int4 advisory keys (this class id, hashtext(job_id)), a key space apart
# from the one-bigint write lock.
_JOB_CLASS = 0x6A6F_6273  # "jobs"


class _Transaction(SQLiteTransaction):
    """A write transaction whose journaled jobs are claimed by this process."""

    def __init__(self, db: Any, store: PostgresStore) -> None:
        super().__init__(db)
        self._store = store
        self.claims: list[str] = []

    def add_summarized_job(self, job_id: str, user_id: str, created_at: datetime) -> None:
        """Journal a job written with its summary; this process claims it."""
        if self._store._claim(job_id):
            self.claims.append(job_id)
        super().add_summarized_job(job_id, user_id, created_at)


class PostgresStore(SQLiteStore):
    """:class:`~recall.store.base.Store` on a PostgreSQL database (``postgresql://...``)."""

    def __init__(self, url: str, *, connect_timeout: float = 10.0) -> None:
        self.url = url
        #: The server for the operator's log lines, the password masked; never in an error
        #: (a tenant of a shared server would read it).
        self.where = redact(url)
        self.path = None  # type: ignore[assignment]  # no file: the database is the store
        self._timeout = connect_timeout
        self._lock = threading.RLock()
        self._claimed: set[str] = set()  # jobs whose advisory lock this session holds
        self._conn = self._connect()
        self._db = Adapter(self._conn, url)  # type: ignore[assignment]
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
                row_factory=row_factory,
            )
        except psycopg.ProgrammingError as exc:  # libpq could not parse the URL
            why = scrub(str(exc).strip(), self.url)
            raise ConfigError(
                f"RECALL_STORE_URL is not a valid PostgreSQL URL ({why}); write "
                "postgresql://user@host:port/database"
            ) from exc
        except psycopg.Error as exc:
            raise store_error(self.url, exc, "connecting") from exc

    def _alive(self) -> None:
        """Reconnect once after a lost connection (a server restart): reads then go on."""
        if self._conn.closed or self._conn.broken:
            self._claimed.clear()  # the session's locks went with it
            self._conn = self._connect()
            self._db = Adapter(self._conn, self.url)  # type: ignore[assignment]

    def _migrate(self, migrations: Sequence[Migration] = MIGRATIONS) -> None:
        with self._write() as db:  # the advisory lock: one process migrates at a time
            db.execute("CREATE TABLE IF NOT EXISTS recall_schema (version BIGINT NOT NULL)")
            row = db.execute("SELECT version FROM recall_schema").fetchone()
            found = int(row[0]) if row else 0
            if found > len(migrations):
                log.warning("recall: the PostgreSQL store at %s is newer than recall", self.where)
                raise StoreError(
                    f"the PostgreSQL store has schema version {found}, newer than this "
                    f"recall's {len(migrations)}: upgrade recall to use it"
                )
            for m in migrations[found:]:
                for sql in m.statements:
                    db.execute(ddl(sql))
            if row is None:
                db.execute("INSERT INTO recall_schema (version) VALUES (?)", (len(migrations),))
            elif found != len(migrations):
                db.execute("UPDATE recall_schema SET version = ?", (len(migrations),))

    @contextmanager
    def _write(self) -> Iterator[Any]:
        """One transaction holding the store-wide write lock: all of it or none of it."""
        with self._lock:
            import psycopg

            try:
                with self._begin():
                    yield self._db
            except psycopg.Error as exc:
                raise store_error(self.url, exc, "writing") from exc

    def _begin(self) -> ExitStack:
        """BEGIN and take the write lock, on a new connection if the old one was lost.

        Nothing is written before the lock is held, so a connection found dead here (the
        server restarted since the last call) is replaced and the start retried once.
        """
        import psycopg

        for attempt in (1, 2):
            self._alive()
            started = ExitStack()
            try:
                started.enter_context(self._conn.transaction())
                self._db.execute("SELECT pg_advisory_xact_lock(?)", (_WRITE_LOCK,))
                return started
            except (psycopg.OperationalError, StoreError) as exc:
                with suppress(psycopg.Error):
                    started.__exit__(type(exc), exc, exc.__traceback__)
                if attempt == 2 or not self._conn.broken:
                    raise
        raise AssertionError("unreachable")  # pragma: no cover

    @contextmanager
    def transaction(self) -> Iterator[SQLiteTransaction]:
        """One transaction under the write lock; the jobs it journals are claimed."""
        tx: _Transaction | None = None
        try:
            with self._write() as db:
                tx = _Transaction(db, self)
                yield tx
        except BaseException:
            for job_id in tx.claims if tx is not None else ():
                self._release(job_id)  # rolled back: nothing journaled, nothing to hold
            raise

    def _read(self, sql: str, params: Sequence[object] = ()) -> list[Any]:
        with self._lock:
            self._alive()
            try:
                return list(self._db.execute(sql, params).fetchall())
            except StoreError:
                if not self._conn.broken:
                    raise
                self._alive()  # lost since the last call: a read is safe to run again
                return list(self._db.execute(sql, params).fetchall())

    def schema_version(self) -> int:
        """The database's schema version (the ``recall_schema`` row)."""
        return int(self._read("SELECT version FROM recall_schema")[0][0])

    def journal_mode(self) -> str:
        """No journal mode: PostgreSQL writes ahead on its own."""
        return "postgresql"

    def _claim(self, job_id: str) -> bool:
        """Take the job's advisory lock for this session if no other session holds it."""
        with self._lock:
            if job_id in self._claimed:
                return True
            self._alive()
            sql = "SELECT pg_try_advisory_lock(?, hashtext(?))"
            if bool(self._db.execute(sql, (_JOB_CLASS, job_id)).fetchone()[0]):
                self._claimed.add(job_id)
                return True
            return False

    def _release(self, job_id: str) -> None:
        with self._lock:
            if job_id in self._claimed and not (self._conn.closed or self._conn.broken):
                self._db.execute("SELECT pg_advisory_unlock(?, hashtext(?))", (_JOB_CLASS, job_id))
            self._claimed.discard(job_id)

    def add_job(
        self, job_id: str, user_id: str, created_at: datetime, payload: dict[str, Any]
    ) -> None:
        """Journal a pending job, claimed by this process until it is finished or failed."""
        self._claim(job_id)
        try:
            super().add_job(job_id, user_id, created_at, payload)
        except BaseException:
            self._release(job_id)
            raise

    def unfinished_jobs(self) -> list[str]:
        """Pending and summarized jobs no other live process holds, oldest first.

        Each one returned is claimed by this process (its advisory lock is taken), so two
        processes resuming a dead one's jobs never both run the same job.
        """
        return [j for j in super().unfinished_jobs() if self._claim(j)]

    def finish_job(self, job_id: str) -> None:
        """The job is done: remove it and release its claim."""
        super().finish_job(job_id)
        self._release(job_id)

    def record_job_failure(self, job_id: str, error: str, max_attempts: int) -> bool:
        """Count a failed try; a job given up on (or gone) is released."""
        retry = super().record_job_failure(job_id, error, max_attempts)
        if not retry:
            self._release(job_id)
        return retry

    def delete_user(self, user_id: str) -> dict[str, int]:
        """Remove every row of the user in one transaction; returns rows removed per table.

        The rows are gone for every reader at commit; the space they held is reclaimed by
        PostgreSQL's (auto)vacuum, not zeroed as SQLite's ``secure_delete`` does.
        """
        with self._write() as db:
            return purge_rows(db, user_id)

    def vacuum(self, *, lock_timeout_s: float = 30.0) -> list[str]:
        """Rewrite every table that holds user rows without its dead rows (``recall
        delete-user --vacuum``); returns what was done, one line each.

        A plain VACUUM leaves a deleted row's bytes in the table and index files: ``VACUUM
        FULL`` writes each table anew and drops the old file. It holds each table's lock for
        its rewrite (other processes wait, ``lock_timeout_s`` at most to get it). A
        CHECKPOINT then unlinks the old files, where this role may run one.
        """
        with self._lock:
            self._alive()
            return vacuum_postgres(self._db, self._conn, lock_timeout_s=lock_timeout_s)

    def close(self) -> None:
        """Close the connection (idempotent); its job claims are released with it."""
        with self._lock:
            self._claimed.clear()
            self._conn.close()
