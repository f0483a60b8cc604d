"""The SQLite schema as numbered migrations, tracked with ``PRAGMA user_version``.

A store file's ``user_version`` is the number of the last migration applied to it. On open,
:func:`migrate` applies every later migration in order, all inside ONE transaction together
with the new ``user_version``: a failure leaves the file exactly as it was. A file whose
version is above :data:`LATEST` was written by a newer recall and is refused rather than
guessed at.

Migration 1 is the whole schema of recall 0.1.0, written with ``IF NOT EXISTS``: a folder
that release wrote already has these tables at ``user_version`` 0, so migrating it to 1
changes nothing but the version number.

To change the schema, append ``Migration(N + 1, ...)`` to :data:`MIGRATIONS`; never edit a
migration that has shipped, since folders in the field already ran it.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from typing import NamedTuple

from ..errors import StoreError

__all__ = ["LATEST", "MIGRATIONS", "Migration", "migrate", "schema_version"]


class Migration(NamedTuple):
    """One schema step: the statements that take a file from ``version - 1`` to ``version``."""

    version: int
    description: str
    # One statement per item: sqlite3's executescript() would commit the open transaction.
    statements: tuple[str, ...]


MIGRATIONS: tuple[Migration, ...] = (
    Migration(
        1,
        "records, users, index_state, meta, lt_articles, lt_jobs (the 0.1.0 schema)",
        (
            """CREATE TABLE IF NOT EXISTS records (
                user_id     TEXT NOT NULL,
                id          TEXT NOT NULL,
                kind        TEXT NOT NULL,
                text        TEXT NOT NULL,
                created_at  REAL NOT NULL,
                tokens      INTEGER NOT NULL,
                metadata    TEXT NOT NULL DEFAULT '{}',
                hash        TEXT NOT NULL,
                PRIMARY KEY (user_id, id)
            ) WITHOUT ROWID""",
            "CREATE INDEX IF NOT EXISTS records_user_kind ON records (user_id, kind, created_at)",
            """CREATE TABLE IF NOT EXISTS users (
                user_id  TEXT PRIMARY KEY,
                version  INTEGER NOT NULL
            ) WITHOUT ROWID""",
            """CREATE TABLE IF NOT EXISTS index_state (
                index_key  TEXT NOT NULL,
                user_id    TEXT NOT NULL,
                version    INTEGER NOT NULL,
                PRIMARY KEY (index_key, user_id)
            ) WITHOUT ROWID""",
            """CREATE TABLE IF NOT EXISTS meta (
                key    TEXT PRIMARY KEY,
                value  TEXT NOT NULL
            ) WITHOUT ROWID""",
            """CREATE TABLE IF NOT EXISTS lt_articles (
                user_id       TEXT NOT NULL,
                version       INTEGER NOT NULL,
                bedrock       TEXT NOT NULL,
                evolutionary  TEXT NOT NULL,
                dynamic       TEXT NOT NULL,
                updated_at    REAL NOT NULL,
                promoted      TEXT NOT NULL DEFAULT '[]',
                PRIMARY KEY (user_id, version)
            ) WITHOUT ROWID""",
            """CREATE TABLE IF NOT EXISTS lt_jobs (
                job_id      TEXT PRIMARY KEY,
                user_id     TEXT NOT NULL,
                created_at  REAL NOT NULL,
                states      TEXT NOT NULL,
                status      TEXT NOT NULL,
                attempts    INTEGER NOT NULL DEFAULT 0,
                error       TEXT
            ) WITHOUT ROWID""",
            "CREATE INDEX IF NOT EXISTS lt_jobs_status ON lt_jobs (status, created_at)",
        ),
    ),
    Migration(
        2,
        "idempotency: the remembered answers of REST writes sent with an Idempotency-Key",
        (
            # status and body stay NULL while the first request runs (recall.store.idempotency).
            """CREATE TABLE IF NOT EXISTS idempotency (
                user_id      TEXT NOT NULL,
                idem_key     TEXT NOT NULL,
                fingerprint  TEXT NOT NULL,
                status       INTEGER,
                body         TEXT,
                created_at   REAL NOT NULL,
                PRIMARY KEY (user_id, idem_key)
            ) WITHOUT ROWID""",
            "CREATE INDEX IF NOT EXISTS idempotency_created ON idempotency (created_at)",
        ),
    ),
)

#: The schema version this code writes and reads.
LATEST = MIGRATIONS[-1].version


def schema_version(db: sqlite3.Connection) -> int:
    """The file's schema version (``PRAGMA user_version``; 0 for 0.1.0 and new files)."""
    return int(db.execute("PRAGMA user_version").fetchone()[0])


def _refuse_newer(found: int, latest: int, where: str) -> None:
    if found > latest:
        raise StoreError(
            f"{where} has schema version {found}, but this recall only knows versions up to "
            f"{latest}: it was written by a newer recall. Upgrade recall to open it; "
            "the file was left unchanged."
        )


def migrate(
    db: sqlite3.Connection, where: str, migrations: Sequence[Migration] = MIGRATIONS
) -> int:
    """Bring the file up to the last of ``migrations``; returns the version it is at.

    ``db`` must be in autocommit mode (``isolation_level=None``). ``where`` names the file
    in error messages. A file already at the latest version is not written at all.
    """
    for i, m in enumerate(migrations, start=1):
        if m.version != i:
            raise ValueError(f"migrations must be numbered 1, 2, ... in order; got {m.version}")
    latest = len(migrations)
    found = schema_version(db)
    _refuse_newer(found, latest, where)
    if found == latest:
        return found  # the common case, and the reason reopening a folder writes nothing
    # IMMEDIATE takes the write lock first, so two processes opening one old folder at once
    # queue here and the second finds the work done when it re-reads the version.
    db.execute("BEGIN IMMEDIATE")
    try:
        found = schema_version(db)
        _refuse_newer(found, latest, where)
        for m in migrations[found:]:
            for sql in m.statements:
                db.execute(sql)
        # user_version lives in the file header, which the transaction covers: it commits
        # with the tables or rolls back with them.
        db.execute(f"PRAGMA user_version = {latest:d}")
    except BaseException:
        db.execute("ROLLBACK")
        raise
    db.execute("COMMIT")
    return latest
