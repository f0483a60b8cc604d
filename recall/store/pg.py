"""The PostgreSQL backend: the same schema, queries and rules as SQLite, on a database server.

Several recall processes (on several machines) can share one memory through it.
:class:`PostgresDialect` is PostgreSQL's :class:`~recall.store.dialect.Dialect`, a sibling
of SQLite's: the store's parts run their statements through it unchanged, its adapter
(:mod:`recall.store.pg_sql`) turning ``?`` placeholders into ``%s`` and psycopg's errors
into :class:`~recall.errors.StoreError`; upserts are ``INSERT ... ON CONFLICT DO UPDATE``.
The schema comes from the same numbered migrations (:mod:`recall.store.schema`), with the
column types PostgreSQL names differently, tracked in a one-row ``recall_schema`` table.
:class:`PostgresStore` is the store (:class:`~recall.store.sql_store.SqlStore`) over it.

What SQLite gets from its single-writer lock, PostgreSQL gets from a transaction-scoped
advisory lock taken by every write transaction: writes are serialized across every
process on the database, so the per-user version bump, the article's optimistic version
check and the job journal's claim (``pending`` -> ``summarized`` only from ``pending``)
behave exactly as on SQLite. Reads take no lock and see every committed write at once,
which is what keeps each process's caches fresh (they follow the per-user version).

Background jobs are claimed the way ``SELECT ... FOR UPDATE SKIP LOCKED`` claims queue rows,
with session-level advisory locks (a row lock would have to be held in an open transaction
for the whole job, blocking every other write): a process holds one lock per job it
journals or takes over, and :meth:`PostgresDialect.claim` takes a job's lock only if no
other session holds it, so ``unfinished_jobs`` returns only the jobs this process holds. A
live process's jobs are skipped by the others; a dead process's session is gone with its
locks, so its jobs go to the next process that asks.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager, ExitStack, contextmanager, suppress
from typing import TYPE_CHECKING, Any, TypeVar

from ..errors import ConfigError, StoreError
from ..settings.redact import redact, scrub
from .dialect import Db, upsert_sql
from .pg_sql import Adapter, ddl, row_factory, store_error, to_postgres
from .pg_vacuum import vacuum_postgres
from .sql_store import SqlStore

__all__ = ["PostgresDialect", "PostgresStore", "to_postgres"]

T = TypeVar("T")

# Every write transaction of every process takes this lock (see the module docs).
_WRITE_LOCK = 0x7265_6361  # "reca"
# Job claims: two-int4 advisory keys (this class id, hashtext(job_id)), a key space apart
# from the one-bigint write lock.
_JOB_CLASS = 0x6A6F_6273  # "jobs"


class PostgresDialect:
    """A PostgreSQL database (``postgresql://...``) as the store's backend."""

    def __init__(self, url: str, *, connect_timeout: float = 10.0) -> None:
        self.url = url
        #: What an error any caller may read calls the store: never the server.
        self.where = "the PostgreSQL store"
        #: The server for the operator's log lines, the password masked; never in an error
        #: (a tenant of a shared server would read it).
        self.server = redact(url)
        self._timeout = connect_timeout
        self._lock = threading.RLock()
        self._claimed: set[str] = set()  # jobs whose advisory lock this session holds
        self._conn = self._connect()
        self._db = Adapter(self._conn, url)

    def _connect(self) -> Any:
        try:
            import psycopg
        except ImportError as exc:
            raise StoreError(
                "a postgresql:// store needs psycopg, in the postgres extra: "
                "pip install 'recall-memory[postgres]'"
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
            self._db = Adapter(self._conn, self.url)

    def read(self, run: Callable[[Db], T]) -> T:
        """``run`` outside a transaction; run again once on a new connection if the old
        one was lost since the last call (a read is safe to repeat)."""
        with self._lock:
            self._alive()
            try:
                return run(self._db)
            except StoreError:
                if not self._conn.broken:
                    raise
                self._alive()
                return run(self._db)

    @contextmanager
    def write(self) -> Iterator[Db]:
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

    def erase(self) -> AbstractContextManager[Db]:
        """A plain :meth:`write`: the rows are gone for every reader at commit; the space
        they held is reclaimed by (auto)vacuum, and rewritten by :meth:`vacuum`."""
        return self.write()

    def upsert(self, table: str, columns: Sequence[str], keys: Sequence[str]) -> str:
        """``INSERT ... ON CONFLICT (keys) DO UPDATE SET ...``."""
        return upsert_sql(table, columns, keys)

    def ddl(self, statement: str) -> str:
        """A migration statement with PostgreSQL's column types."""
        return ddl(statement)

    def schema_version(self, db: Db) -> int:
        """The ``recall_schema`` row (0 before the first migration)."""
        if db.execute("SELECT to_regclass('recall_schema')").fetchone()[0] is None:
            return 0
        row = db.execute("SELECT version FROM recall_schema").fetchone()
        return int(row[0]) if row else 0

    def set_schema_version(self, db: Db, version: int) -> None:
        """Write the one ``recall_schema`` row."""
        db.execute("CREATE TABLE IF NOT EXISTS recall_schema (version BIGINT NOT NULL)")
        db.execute("DELETE FROM recall_schema")
        db.execute("INSERT INTO recall_schema (version) VALUES (?)", (version,))

    def claim(self, job_id: str) -> bool:
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

    def release(self, job_id: str) -> None:
        """Release the job's advisory lock, if this session holds it."""
        with self._lock:
            if job_id in self._claimed and not (self._conn.closed or self._conn.broken):
                self._db.execute("SELECT pg_advisory_unlock(?, hashtext(?))", (_JOB_CLASS, job_id))
            self._claimed.discard(job_id)

    def vacuum(self, lock_timeout_s: float) -> list[str]:
        """Rewrite every table that holds user rows without its dead rows.

        A plain VACUUM leaves a deleted row's bytes in the table and index files: ``VACUUM
        FULL`` writes each table anew and drops the old file. It holds each table's lock for
        its rewrite (other processes wait, ``lock_timeout_s`` at most to get it). A
        CHECKPOINT then unlinks the old files, where this role may run one.
        """
        with self._lock:
            self._alive()
            return vacuum_postgres(self._db, self._conn, lock_timeout_s=lock_timeout_s)

    def journal_mode(self) -> str:
        """No journal mode: PostgreSQL writes ahead on its own."""
        return "postgresql"

    def close(self) -> None:
        """Close the connection (idempotent); its job claims are released with it."""
        with self._lock:
            self._claimed.clear()
            self._conn.close()


class PostgresStore(SqlStore):
    """The store in the PostgreSQL database at ``url``: :class:`SqlStore` over
    :class:`PostgresDialect`."""

    def __init__(self, url: str, *, connect_timeout: float = 10.0) -> None:
        dialect = PostgresDialect(url, connect_timeout=connect_timeout)
        self.url = url
        #: The server, its password masked, for the operator's log lines.
        self.where = dialect.server
        super().__init__(dialect)


if TYPE_CHECKING:
    # mypy proves here that PostgreSQL implements the whole backend contract.
    from .dialect import Dialect

    _implements: type[Dialect] = PostgresDialect
