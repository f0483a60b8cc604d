"""The durable job journal (table ``lt_jobs``); :mod:`recall.lifecycle.worker` drains it.

A job is one update_memory call. Its life::

    pending ──summary written (same transaction)──▶ summarized ──promotions done──▶ (deleted)
       └── fails job_attempts times ──▶ failed (kept, with the error)

``background=True`` writes the job (with its states) as ``pending`` before returning; a
foreground call writes it straight as ``summarized`` together with its summary. Either way
a job that is still in the table after a crash is resumed when the lifecycle starts: a
pending one is summarized (the transition is conditional, so two resumers cannot both write
its summary), a summarized one re-runs the promotion check, which is idempotent.

:class:`JobJournal` is the store's part for the operations that run in a transaction of
their own, over any :class:`~recall.store.dialect.Dialect`. Where several processes share
a store, each job is held by the process that journaled or took it over
(:meth:`~recall.store.dialect.Dialect.claim`): :meth:`JobJournal.unfinished_jobs` returns
only the jobs this process holds or can take, so two resumers never run one job.
"""

from __future__ import annotations

import json
import threading
import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

from .base import Job
from .dialect import Db, Dialect
from .keyed import settled_write

__all__ = ["JobJournal", "add_summarized_job", "mark_job_summarized", "new_job_id"]

_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_clock_lock = threading.Lock()
_last_ns = 0


def new_job_id() -> tuple[str, datetime]:
    """A time-ordered job id and its timestamp, strictly increasing within the process.

    Summaries are ordered by (created_at, id); two calls in the same microsecond would
    otherwise tie and "the oldest 5" would be ambiguous.
    """
    global _last_ns
    with _clock_lock:
        now = datetime.now(UTC)
        ns = max(int(now.timestamp() * 1_000_000) * 1000, _last_ns + 1000)
        _last_ns = ns
    micros = ns // 1000
    return f"{micros:015x}{uuid.uuid4().hex[:12]}", _EPOCH + timedelta(microseconds=micros)


def add_summarized_job(db: Db, job_id: str, user_id: str, at: datetime) -> None:
    """Journal a job whose summary is written in the same transaction."""
    db.execute(
        "INSERT INTO lt_jobs (job_id, user_id, created_at, states, status) "
        "VALUES (?, ?, ?, '', 'summarized')",
        (job_id, user_id, at.timestamp()),
    )


def mark_job_summarized(db: Db, job_id: str) -> bool:
    """pending -> summarized; False if another runner got there first."""
    cur = db.execute(
        "UPDATE lt_jobs SET status = 'summarized', states = '' "
        "WHERE job_id = ? AND status = 'pending'",
        (job_id,),
    )
    return cur.rowcount == 1


class JobJournal:
    """The journal operations that run in a transaction of their own."""

    def __init__(self, sql: Dialect) -> None:
        self.sql = sql

    def _rows(self, query: str, params: tuple[Any, ...] = ()) -> list[Any]:
        return list(self.sql.read(lambda db: db.execute(query, params).fetchall()))

    def add_job(
        self, job_id: str, user_id: str, created_at: datetime, payload: dict[str, Any]
    ) -> None:
        """Journal a pending job with its states, held by this process until it is done."""
        self.sql.claim(job_id)
        try:
            with settled_write(self.sql) as db:
                db.execute(
                    "INSERT INTO lt_jobs (job_id, user_id, created_at, states, status) "
                    "VALUES (?, ?, ?, ?, 'pending')",
                    (
                        job_id,
                        user_id,
                        created_at.timestamp(),
                        json.dumps(payload, ensure_ascii=False),
                    ),
                )
        except BaseException:
            self.sql.release(job_id)
            raise

    def job(self, job_id: str) -> Job | None:
        """The job, or None when it is done (deleted)."""
        rows = self._rows("SELECT * FROM lt_jobs WHERE job_id = ?", (job_id,))
        if not rows:
            return None
        row = rows[0]
        return Job(
            job_id=row["job_id"],
            user_id=row["user_id"],
            created_at=datetime.fromtimestamp(row["created_at"], UTC),
            payload=json.loads(row["states"]) if row["states"] else None,
            status=row["status"],
            attempts=int(row["attempts"]),
        )

    def unfinished_jobs(self) -> list[str]:
        """Ids of pending and summarized jobs no other live process holds, oldest first.

        Each one returned is held by this process from now on (see the module docs).
        """
        rows = self._rows(
            "SELECT job_id FROM lt_jobs WHERE status IN ('pending', 'summarized') "
            "ORDER BY created_at, job_id"
        )
        return [r[0] for r in rows if self.sql.claim(r[0])]

    def has_unfinished_jobs(self) -> bool:
        """True when the journal holds pending or summarized jobs (of any process)."""
        return bool(
            self._rows("SELECT 1 FROM lt_jobs WHERE status IN ('pending', 'summarized') LIMIT 1")
        )

    def failed_jobs(self) -> list[Job]:
        """Jobs that gave up, with their last error in ``payload['error']``."""
        rows = self._rows(
            "SELECT job_id, user_id, created_at, error, attempts FROM lt_jobs "
            "WHERE status = 'failed' ORDER BY created_at"
        )
        return [
            Job(r[0], r[1], datetime.fromtimestamp(r[2], UTC), {"error": r[3]}, "failed", r[4])
            for r in rows
        ]

    def finish_job(self, job_id: str) -> None:
        """The job is done: remove it and let it go."""
        with self.sql.write() as db:
            db.execute("DELETE FROM lt_jobs WHERE job_id = ?", (job_id,))
        self.sql.release(job_id)

    def record_job_failure(self, job_id: str, error: str, max_attempts: int) -> bool:
        """Count a failed try; True when the job should be tried again (else it is let go)."""
        retry = False
        with self.sql.write() as db:
            db.execute(
                "UPDATE lt_jobs SET attempts = attempts + 1, error = ? WHERE job_id = ?",
                (error[:2_000], job_id),
            )
            row = db.execute("SELECT attempts FROM lt_jobs WHERE job_id = ?", (job_id,))
            found = row.fetchone()
            if found is not None and int(found[0]) >= max_attempts:
                db.execute("UPDATE lt_jobs SET status = 'failed' WHERE job_id = ?", (job_id,))
            retry = found is not None and int(found[0]) < max_attempts
        if not retry:
            self.sql.release(job_id)
        return retry
