"""The schema as numbered migrations, applied on open by every backend.

A store's schema version is the number of the last migration applied to it (SQLite keeps
it in ``PRAGMA user_version``, PostgreSQL in a one-row ``recall_schema`` table: the
dialect's :meth:`~recall.store.dialect.Dialect.schema_version`). On open, :func:`migrate`
applies every later migration in order, all inside ONE transaction together with the new
version: a failure leaves the store exactly as it was. A store whose version is above
:data:`LATEST` was written by a newer recall and is refused rather than guessed at.

Migration 1 is the whole schema of recall 0.1.0, written with ``IF NOT EXISTS``: a folder
that release wrote already has these tables at ``user_version`` 0, so migrating it to 1
changes nothing but the version number.

To change the schema, append ``Migration(N + 1, ...)`` to :data:`MIGRATIONS`; never edit a
migration that has shipped, since folders in the field already ran it.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import NamedTuple

from ..errors import StoreError
from .dialect import Dialect

__all__ = ["LATEST", "MIGRATIONS", "Migration", "migrate"]

log = logging.getLogger(__name__)


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


def _refuse_newer(found: int, latest: int, where: str) -> None:
    if found > latest:
        log.warning("recall: %s has schema version %d, newer than this recall", where, found)
        raise StoreError(
            f"{where} has schema version {found}, but this recall only knows versions up to "
            f"{latest}: it was written by a newer recall. Upgrade recall to open it; "
            "the store was left unchanged."
        )


def migrate(sql: Dialect, migrations: Sequence[Migration] = MIGRATIONS) -> int:
    """Bring the store up to the last of ``migrations``; returns the version it is at.

    Runs on any backend: the statements go through :meth:`Dialect.ddl`, the version is
    kept where the backend keeps it. A store already at the latest version is not written
    at all (a read finds it so).
    """
    for i, m in enumerate(migrations, start=1):
        if m.version != i:
            raise ValueError(f"migrations must be numbered 1, 2, ... in order; got {m.version}")
    latest = len(migrations)
    found = sql.read(sql.schema_version)
    _refuse_newer(found, latest, sql.where)
    if found == latest:
        return found  # the common case, and the reason reopening a folder writes nothing
    # The write lock first: two processes opening one old store at once queue here, and
    # the second finds the work done when it re-reads the version. The version commits
    # with the tables or rolls back with them.
    with sql.write() as db:
        found = sql.schema_version(db)
        _refuse_newer(found, latest, sql.where)
        for m in migrations[found:]:
            for statement in m.statements:
                db.execute(sql.ddl(statement))
        if found != latest:
            sql.set_schema_version(db, latest)
    return latest
