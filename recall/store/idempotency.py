"""Remembered answers of writes sent with an ``Idempotency-Key``: a retry never writes twice.

The REST server keeps one row per (user, key) in the ``idempotency`` table (schema
migration 2). :func:`begin` reserves the key before the write runs; :func:`finish` stores
the answer on the same worker thread right after the write, so an answer is remembered
even when the client stopped waiting (a 504); :func:`release` frees the key when the write
failed, so that a retry runs again. A retry with the same key and the same request gets
the remembered answer and writes nothing; one with another request is refused.

Answers are kept :data:`TTL_S`; a reservation whose request never finished (the process
died mid-write) may be taken over after :data:`STALE_S`. The rows live in the store, so
every process on a folder or a PostgreSQL database sees them, and a restart keeps them;
they belong to the user and go with ``delete_user``.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Literal

from .sql_store import SqlStore

__all__ = [
    "Claim",
    "STALE_S",
    "TTL_S",
    "begin",
    "finish",
    "release",
]

#: How long an answer is remembered (seconds): a day covers any client's retry loop.
TTL_S = 24 * 3600.0
#: After this long (seconds), a reservation with no answer is taken to be one a dead
#: process left, and a retry runs the write again.
STALE_S = 600.0


@dataclass(frozen=True)
class Claim:
    """What :func:`begin` found for a key.

    ``new``: reserved for this request, run the write. ``done``: the remembered answer is
    ``status`` and ``body``. ``running``: the first request is still writing. ``mismatch``:
    the key was used for a different request.
    """

    state: Literal["new", "done", "running", "mismatch"]
    status: int = 0
    body: str = ""


def begin(
    store: SqlStore, user_id: str, key: str, fingerprint: str, now: float | None = None
) -> Claim:
    """Reserve ``key`` of ``user_id`` for the request ``fingerprint``, or say why not."""
    now = time.time() if now is None else now
    # One write transaction: two processes sending the same key queue on the store's
    # write lock, and the second finds the first one's reservation.
    with store.sql.write() as db:
        db.execute("DELETE FROM idempotency WHERE created_at < ?", (now - TTL_S,))
        row = db.execute(
            "SELECT fingerprint, status, body, created_at FROM idempotency "
            "WHERE user_id = ? AND idem_key = ?",
            (user_id, key),
        ).fetchone()
        if row is None:
            db.execute(
                "INSERT INTO idempotency (user_id, idem_key, fingerprint, status, body, "
                "created_at) VALUES (?, ?, ?, NULL, NULL, ?)",
                (user_id, key, fingerprint, now),
            )
            return Claim("new")
        if row["fingerprint"] != fingerprint:
            return Claim("mismatch")
        if row["status"] is not None:
            return Claim("done", int(row["status"]), str(row["body"]))
        if float(row["created_at"]) >= now - STALE_S:
            return Claim("running")
        db.execute(
            "UPDATE idempotency SET created_at = ? WHERE user_id = ? AND idem_key = ?",
            (now, user_id, key),
        )
        return Claim("new")


def finish(store: SqlStore, user_id: str, key: str, status: int, body: str) -> None:
    """Remember the answer of the write that reserved ``key``."""
    with store.sql.write() as db:
        db.execute(
            "UPDATE idempotency SET status = ?, body = ? WHERE user_id = ? AND idem_key = ?",
            (status, body, user_id, key),
        )


def release(store: SqlStore, user_id: str, key: str) -> None:
    """Free a reservation whose write failed (nothing was written): a retry runs again."""
    with store.sql.write() as db:
        db.execute(
            "DELETE FROM idempotency WHERE user_id = ? AND idem_key = ? AND status IS NULL",
            (user_id, key),
        )
