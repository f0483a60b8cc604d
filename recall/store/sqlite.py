"""The SQLite store: the source of truth for every memory record.

One file (``recall.sqlite3`` in the memory folder), WAL mode so that readers never block the
writer. Every write bumps the user's version counter in the same transaction, which is what
the derived indexes compare against to know whether they lag. The store commits before any
index is touched, so a crash between the two loses nothing: the index catches up later.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import threading
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path

from ..errors import StoreError, mapped
from ..models import Record

__all__ = ["Store", "content_hash"]

_SCHEMA = """
CREATE TABLE IF NOT EXISTS records (
    user_id     TEXT NOT NULL,
    id          TEXT NOT NULL,
    kind        TEXT NOT NULL,
    text        TEXT NOT NULL,
    created_at  REAL NOT NULL,
    tokens      INTEGER NOT NULL,
    metadata    TEXT NOT NULL DEFAULT '{}',
    hash        TEXT NOT NULL,
    PRIMARY KEY (user_id, id)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS records_user_kind ON records (user_id, kind, created_at);
CREATE TABLE IF NOT EXISTS users (
    user_id  TEXT PRIMARY KEY,
    version  INTEGER NOT NULL
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS index_state (
    index_key  TEXT NOT NULL,
    user_id    TEXT NOT NULL,
    version    INTEGER NOT NULL,
    PRIMARY KEY (index_key, user_id)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS meta (
    key    TEXT PRIMARY KEY,
    value  TEXT NOT NULL
) WITHOUT ROWID;
"""


def content_hash(text: str) -> str:
    """A stable hash of a record's text (lets a reindex skip unchanged records)."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:32]


def _row_to_record(row: sqlite3.Row) -> Record:
    return Record.model_construct(
        id=row["id"],
        user_id=row["user_id"],
        kind=row["kind"],
        text=row["text"],
        created_at=datetime.fromtimestamp(row["created_at"], UTC),
        tokens=row["tokens"],
        metadata=json.loads(row["metadata"]),
    )


class Store:
    """SQLite-backed record store with a per-user version counter."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self._lock = threading.RLock()
        with mapped(f"opening {self.path}"):
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(
                self.path, timeout=30.0, check_same_thread=False, isolation_level=None
            )
            self._db.row_factory = sqlite3.Row
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.execute("PRAGMA busy_timeout=30000")
            self._db.executescript(_SCHEMA)

    # --- plumbing -----------------------------------------------------------------------
    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """One IMMEDIATE transaction: all of it commits or none of it does."""
        with self._lock, mapped("writing the store"):
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    def _read(self, sql: str, params: Sequence[object] = ()) -> list[sqlite3.Row]:
        with self._lock, mapped("reading the store"):
            return self._db.execute(sql, params).fetchall()

    @staticmethod
    def bump_version(db: sqlite3.Connection, user_id: str) -> int:
        """Bump the user's version inside an open transaction; returns the new version."""
        row = db.execute(
            "INSERT INTO users (user_id, version) VALUES (?, 1) "
            "ON CONFLICT (user_id) DO UPDATE SET version = version + 1 RETURNING version",
            (user_id,),
        ).fetchone()
        return int(row[0])

    def close(self) -> None:
        """Close the connection (idempotent)."""
        with self._lock:
            self._db.close()

    # --- writes -------------------------------------------------------------------------
    def put(self, records: Sequence[Record]) -> dict[str, int]:
        """Insert or replace ``records``; returns each touched user's new version."""
        versions: dict[str, int] = {}
        with self.transaction() as db:
            self.put_in(db, records)
            for user_id in dict.fromkeys(r.user_id for r in records):
                versions[user_id] = self.bump_version(db, user_id)
        return versions

    def replace(self, user_id: str, delete_ids: Iterable[str], put: Sequence[Record]) -> int:
        """Delete some of the user's records and write others in ONE transaction.

        Readers see either the old set or the new one, never a mix (the Dynamic chapter's
        passages are swapped this way). Returns the user's new version.
        """
        with self.transaction() as db:
            db.executemany(
                "DELETE FROM records WHERE user_id = ? AND id = ?",
                [(user_id, i) for i in delete_ids],
            )
            self.put_in(db, put)
            return self.bump_version(db, user_id)

    @staticmethod
    def put_in(db: sqlite3.Connection, records: Sequence[Record]) -> None:
        """Insert or replace records inside an open transaction (no version bump)."""
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

    def delete(self, user_id: str, ids: Iterable[str]) -> tuple[list[str], int]:
        """Delete the user's records with these ids; returns (deleted ids, new version)."""
        wanted = list(dict.fromkeys(ids))
        with self.transaction() as db:
            deleted = [
                i
                for i in wanted
                if db.execute(
                    "DELETE FROM records WHERE user_id = ? AND id = ?", (user_id, i)
                ).rowcount
            ]
            version = self.bump_version(db, user_id) if deleted else self._version(db, user_id)
        return deleted, version

    # --- reads --------------------------------------------------------------------------
    @staticmethod
    def _version(db: sqlite3.Connection, user_id: str) -> int:
        row = db.execute("SELECT version FROM users WHERE user_id = ?", (user_id,)).fetchone()
        return int(row[0]) if row else 0

    def version(self, user_id: str) -> int:
        """The user's version: 0 before the first write, +1 with every write."""
        with self._lock, mapped("reading the store"):
            return self._version(self._db, user_id)

    def records(
        self, user_id: str, kinds: Sequence[str] | None = None, ids: Sequence[str] | None = None
    ) -> list[Record]:
        """The user's records, oldest first, optionally only these kinds or ids."""
        if ids is not None and len(ids) > 500:
            # SQLite caps bound parameters per statement; page through long id lists.
            out = [
                r
                for i in range(0, len(ids), 500)
                for r in self.records(user_id, kinds, ids[i : i + 500])
            ]
            return sorted(out, key=lambda r: (r.created_at, r.id))
        sql = "SELECT * FROM records WHERE user_id = ?"
        params: list[object] = [user_id]
        if kinds is not None:
            sql += f" AND kind IN ({','.join('?' * len(kinds))})"
            params.extend(kinds)
        if ids is not None:
            sql += f" AND id IN ({','.join('?' * len(ids))})"
            params.extend(ids)
        sql += " ORDER BY created_at, id"
        return [_row_to_record(r) for r in self._read(sql, params)]

    def hashes(self, user_id: str) -> dict[str, str]:
        """id -> content hash for every record of the user."""
        rows = self._read("SELECT id, hash FROM records WHERE user_id = ?", (user_id,))
        return {r["id"]: r["hash"] for r in rows}

    def users(self) -> list[str]:
        """Every user that was ever written, sorted."""
        return [r["user_id"] for r in self._read("SELECT user_id FROM users ORDER BY user_id")]

    def counts(self) -> dict[str, dict[str, int]]:
        """user -> kind -> number of records."""
        out: dict[str, dict[str, int]] = {}
        for r in self._read(
            "SELECT user_id, kind, COUNT(*) AS n FROM records GROUP BY user_id, kind"
        ):
            out.setdefault(r["user_id"], {})[r["kind"]] = int(r["n"])
        return out

    # --- index bookkeeping --------------------------------------------------------------
    def index_version(self, index_key: str, user_id: str) -> int:
        """The store version the index ``index_key`` reflects for the user (0: none)."""
        rows = self._read(
            "SELECT version FROM index_state WHERE index_key = ? AND user_id = ?",
            (index_key, user_id),
        )
        return int(rows[0]["version"]) if rows else 0

    def set_index_version(
        self, index_key: str, user_id: str, version: int, *, expected: int | None = None
    ) -> bool:
        """Record that the index reflects ``version``.

        With ``expected``, only moves from that exact version (a writer that raced another
        leaves the catch-up to the next reader instead of claiming a version it never saw).
        """
        with self.transaction() as db:
            current = db.execute(
                "SELECT version FROM index_state WHERE index_key = ? AND user_id = ?",
                (index_key, user_id),
            ).fetchone()
            have = int(current[0]) if current else 0
            if expected is not None and have != expected:
                return False
            db.execute(
                "INSERT OR REPLACE INTO index_state (index_key, user_id, version) VALUES (?, ?, ?)",
                (index_key, user_id, version),
            )
        return True

    def get_meta(self, key: str) -> str | None:
        """A value from the store's key/value table."""
        rows = self._read("SELECT value FROM meta WHERE key = ?", (key,))
        return str(rows[0]["value"]) if rows else None

    def set_meta(self, key: str, value: str) -> None:
        """Set a value in the store's key/value table."""
        with self.transaction() as db:
            db.execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", (key, value))


def ensure_writable(path: Path) -> None:
    """Raise StoreError early when the memory folder cannot be created."""
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise StoreError(f"cannot create memory folder {path}: {exc}") from exc
