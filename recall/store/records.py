"""SQL on the ``records`` and ``users`` tables, on any backend.

The functions run on a connection the caller holds (a :class:`~recall.store.dialect.Db`
inside a transaction) and neither open nor commit transactions themselves;
:class:`Records` is the store's part that does, over a :class:`~recall.store.dialect.Dialect`.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from typing import Any

from ..models import Record, stored_metadata
from .base import content_hash
from .dialect import Db, Dialect
from .keyed import settled_write

__all__ = [
    "Records",
    "bump_version",
    "count_kind",
    "delete_ids",
    "delete_kind",
    "put_records",
    "row_to_record",
    "select_records",
    "user_version",
]


def row_to_record(row: Any) -> Record:
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


_COLUMNS = ("user_id", "id", "kind", "text", "created_at", "tokens", "metadata", "hash")


def put_records(sql: Dialect, db: Db, records: Sequence[Record]) -> None:
    """Insert or replace ``records`` (no version bump)."""
    db.executemany(
        sql.upsert("records", _COLUMNS, ("user_id", "id")),
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


def delete_ids(db: Db, user_id: str, ids: Sequence[str]) -> list[str]:
    """Delete the user's records with these ids; returns the ids that existed."""
    return [
        i
        for i in ids
        if db.execute("DELETE FROM records WHERE user_id = ? AND id = ?", (user_id, i)).rowcount
    ]


def delete_kind(db: Db, user_id: str, kind: str) -> None:
    """Delete every record of ``kind`` the user has."""
    db.execute("DELETE FROM records WHERE user_id = ? AND kind = ?", (user_id, kind))


def count_kind(db: Db, user_id: str, kind: str, ids: Sequence[str]) -> int:
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


def bump_version(db: Db, user_id: str) -> int:
    """Add one to the user's version; returns the new version (the caller holds the lock)."""
    version = user_version(db, user_id) + 1
    if version == 1:
        db.execute("INSERT INTO users (user_id, version) VALUES (?, 1)", (user_id,))
    else:
        db.execute("UPDATE users SET version = ? WHERE user_id = ?", (version, user_id))
    return version


def user_version(db: Db, user_id: str) -> int:
    """The user's version (0 before the first write)."""
    row = db.execute("SELECT version FROM users WHERE user_id = ?", (user_id,)).fetchone()
    return int(row[0]) if row else 0


def select_records(
    db: Db, user_id: str, kinds: Sequence[str] | None, ids: Sequence[str] | None
) -> list[Record]:
    """The user's records, oldest first, optionally only these kinds or (at most 500) ids."""
    sql = "SELECT * FROM records WHERE user_id = ?"
    params: list[object] = [user_id]
    if kinds is not None:
        sql += f" AND kind IN ({','.join('?' * len(kinds))})"
        params.extend(kinds)
    if ids is not None:
        sql += f" AND id IN ({','.join('?' * len(ids))})"
        params.extend(ids)
    sql += " ORDER BY created_at, id"
    return [row_to_record(r) for r in db.execute(sql, params).fetchall()]


class Records:
    """The store's records and per-user versions, over any :class:`Dialect`."""

    def __init__(self, sql: Dialect) -> None:
        self.sql = sql

    def put(self, records: Sequence[Record]) -> dict[str, int]:
        """Insert or replace ``records``; returns each touched user's new version."""
        with settled_write(self.sql) as db:
            put_records(self.sql, db, records)
            return {u: bump_version(db, u) for u in dict.fromkeys(r.user_id for r in records)}

    def delete(self, user_id: str, ids: Iterable[str]) -> tuple[list[str], int]:
        """Delete the user's records with these ids; returns (deleted ids, new version)."""
        wanted = list(dict.fromkeys(ids))
        with self.sql.write() as db:
            deleted = delete_ids(db, user_id, wanted)
            return deleted, bump_version(db, user_id) if deleted else user_version(db, user_id)

    def version(self, user_id: str) -> int:
        """The user's version: 0 before the first write, +1 with every write."""
        return self.sql.read(lambda db: user_version(db, user_id))

    def records(
        self, user_id: str, kinds: Sequence[str] | None = None, ids: Sequence[str] | None = None
    ) -> list[Record]:
        """The user's records, oldest first, optionally only these kinds or ids."""
        if ids is not None and len(ids) > 500:
            # Backends cap bound parameters per statement; page through long id lists.
            pages = [ids[i : i + 500] for i in range(0, len(ids), 500)]
            out = [r for page in pages for r in self.records(user_id, kinds, page)]
            return sorted(out, key=lambda r: (r.created_at, r.id))
        return self.sql.read(lambda db: select_records(db, user_id, kinds, ids))

    def hashes(self, user_id: str) -> dict[str, str]:
        """id -> content hash for every record of the user."""
        query = "SELECT id, hash FROM records WHERE user_id = ?"
        rows = self.sql.read(lambda db: db.execute(query, (user_id,)).fetchall())
        return {r["id"]: r["hash"] for r in rows}

    def users(self) -> list[str]:
        """Every user that was ever written, sorted."""
        query = "SELECT user_id FROM users ORDER BY user_id"
        return [r["user_id"] for r in self.sql.read(lambda db: db.execute(query).fetchall())]

    def counts(self) -> dict[str, dict[str, int]]:
        """user -> kind -> number of records."""
        query = "SELECT user_id, kind, COUNT(*) AS n FROM records GROUP BY user_id, kind"
        out: dict[str, dict[str, int]] = {}
        for r in self.sql.read(lambda db: db.execute(query).fetchall()):
            out.setdefault(r["user_id"], {})[r["kind"]] = int(r["n"])
        return out
