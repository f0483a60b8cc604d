"""Remembered answers of writes sent with an ``Idempotency-Key``: a retry never writes twice.

The REST server keeps one row per (user, key) in the ``idempotency`` table (schema
migration 2). :func:`begin` reserves the key before the write runs; the write's effect
transaction stores the answer as it commits (:mod:`recall.store.keyed`), so "written" and
"answered" are one fact that a crash cannot split; :func:`finish` then stores the call's
final answer, and :func:`release` frees the key when the write failed before committing,
so that a retry runs again. A retry with the same key and the same request gets the
remembered answer and writes nothing; one with another request is refused.

While a reservation waits for its answer, its ``body`` holds the owner's token
(:mod:`recall.store.owners`): a retry that finds the owner dead (a process of this host
killed mid-write) takes the key over at once, since a write that had committed would have
left its answer. Any other reservation (its owner alive, or on another host: nothing tells) is
taken over after :data:`STALE_S`; the token fences the commit, so the first owner, were it
alive after all, cannot store the write a second time. Answers are kept :data:`TTL_S`.
The rows live in the store, so every process on a folder or a PostgreSQL database sees
them, and a restart keeps them; they belong to the user and go with ``delete_user``.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Literal

from .dialect import Db
from .owners import drop, new_token, owner_alive
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
#: After this long (seconds), a reservation with no answer is taken over even from an
#: owner alive or on another host (its commit is then refused), and a retry runs the write.
STALE_S = 600.0


@dataclass(frozen=True)
class Claim:
    """What :func:`begin` found for a key.

    ``new``: reserved for this request (``token`` names the reservation), run the write.
    ``done``: the remembered answer is ``status`` and ``body``. ``running``: the first
    request is still writing. ``mismatch``: the key was used for a different request.
    """

    state: Literal["new", "done", "running", "mismatch"]
    status: int = 0
    body: str = ""
    token: str = ""


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
            token = new_token()
            db.execute(
                "INSERT INTO idempotency (user_id, idem_key, fingerprint, status, body, "
                "created_at) VALUES (?, ?, ?, NULL, ?, ?)",
                (user_id, key, fingerprint, token, now),
            )
            return Claim("new", token=token)
        if row["fingerprint"] != fingerprint:
            return Claim("mismatch")
        if row["status"] is not None:
            return Claim("done", int(row["status"]), str(row["body"]))
        # An owner that died never commits: its write runs here. One alive (or that cannot
        # be told) keeps the key STALE_S; its commit is fenced by its token after that.
        if owner_alive(row["body"]) is not False and float(row["created_at"]) >= now - STALE_S:
            return Claim("running")
        token = new_token()
        db.execute(
            "UPDATE idempotency SET body = ?, created_at = ? WHERE user_id = ? AND idem_key = ?",
            (token, now, user_id, key),
        )
        return Claim("new", token=token)


def finish(
    store: SqlStore,
    user_id: str,
    key: str,
    status: int,
    body: str,
    token: str | None = None,
    *,
    committed: bool = False,
) -> None:
    """Remember the answer of the write that reserved ``key``. With ``token``, only while
    that reservation holds the key; ``committed``: its write stored an answer at commit,
    which this final one replaces."""
    with store.sql.write() as db:
        where, params = _mine(db, user_id, key, token)
        if committed:
            where, params = "user_id = ? AND idem_key = ? AND status IS NOT NULL", (user_id, key)
        db.execute(
            f"UPDATE idempotency SET status = ?, body = ? WHERE {where}", (status, body, *params)
        )


def release(store: SqlStore, user_id: str, key: str, token: str | None = None) -> None:
    """Free a reservation whose write failed (nothing was written): a retry runs again.
    With ``token``, only that reservation (not one a retry took over)."""
    with store.sql.write() as db:
        where, params = _mine(db, user_id, key, token)
        db.execute(f"DELETE FROM idempotency WHERE {where} AND status IS NULL", params)


def _mine(db: Db, user_id: str, key: str, token: str | None) -> tuple[str, tuple[str, ...]]:
    """The WHERE clause naming the key's reservation (``token``'s only, if given); the
    reservation's write has ended, so this process holds its token no more."""
    if token is None:
        row = db.execute(
            "SELECT body FROM idempotency WHERE user_id = ? AND idem_key = ? AND status IS NULL",
            (user_id, key),
        ).fetchone()
        if row is not None and row["body"]:
            drop(str(row["body"]))
        return "user_id = ? AND idem_key = ?", (user_id, key)
    drop(token)
    return "user_id = ? AND idem_key = ? AND body = ?", (user_id, key, token)
