"""SQL on the ``records`` and ``users`` tables, run on a connection the caller holds.

These are the building blocks of :class:`~recall.store.sqlite.SQLiteStore` and
:class:`~recall.store.transaction.SQLiteTransaction`; they neither open nor commit
transactions themselves.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from datetime import UTC, datetime

from ..models import Record, stored_metadata
from .base import content_hash

__all__ = [
    "bump_version",
    "count_kind",
    "delete_ids",
    "delete_kind",
    "put_records",
    "row_to_record",
    "user_version",
]


def row_to_record(row: sqlite3.Row) -> Record:
    """A ``records`` row as a :class:`Record` (trusted data: no re-validation, but metadata
    over the limits reads as a marker: :func:`~recall.models.stored_metadata`)."""
    return Record.model_construct(
        id=row["id"],
        user_id=row["user_id"],
        kind=row["kind"],
        text=row["text"],
        created_at=datetime.fromtimestamp(row["created_at"], UTC),
        tokens=row["tokens"],
        metadata=stored_metadata(row["metadata"], row["id"]),
    )


def put_records(db: sqlite3.Connection, records: Sequence[Record]) -> None:
    """Insert or replace ``records`` (no version bump)."""
    db.executemany(
        "INSERT OR REPLACE INTO records "
        "(user_id, id, kind, text, created_at, tokens, metadata, hash) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        [
            (
                r.user_id,
                r.id,
                r.kind,
                r.text,
                r.created_at.timestamp(),
                r.tokens,
                json.dumps(r.metadata, ensure_ascii=False),
                content_hash(r.text),
            )
            for r in records
        ],
    )


def delete_ids(db: sqlite3.Connection, user_id: str, ids: Sequence[str]) -> list[str]:
    """Delete the user's records with these ids; returns the ids that existed."""
    return [
        i
        for i in ids
        if db.execute("DELETE FROM records WHERE user_id = ? AND id = ?", (user_id, i)).rowcount
    ]


def delete_kind(db: sqlite3.Connection, user_id: str, kind: str) -> None:
    """Delete every record of ``kind`` the user has."""
    db.execute("DELETE FROM records WHERE user_id = ? AND kind = ?", (user_id, kind))


def count_kind(db: sqlite3.Connection, user_id: str, kind: str, ids: Sequence[str]) -> int:
    """How many of the user's records with these ids are of ``kind``."""
    total = 0
    # SQLite caps bound parameters per statement; count long id lists in pages.
    for i in range(0, len(ids), 500):
        page = ids[i : i + 500]
        row = db.execute(
            "SELECT COUNT(*) FROM records WHERE user_id = ? AND kind = ? "
            f"AND id IN ({','.join('?' * len(page))})",
            (user_id, kind, *page),
        ).fetchone()
        total += int(row[0])
    return total


def bump_version(db: sqlite3.Connection, user_id: str) -> int:
    """Add one to the user's version; returns the new version."""
    row = db.execute(
        "INSERT INTO users (user_id, version) VALUES (?, 1) "
        "ON CONFLICT (user_id) DO UPDATE SET version = users.version + 1 RETURNING version",
        (user_id,),
    ).fetchone()
    return int(row[0])


def user_version(db: sqlite3.Connection, user_id: str) -> int:
    """The user's version (0 before the first write)."""
    row = db.execute("SELECT version FROM users WHERE user_id = ?", (user_id,)).fetchone()
    return int(row[0]) if row else 0
