"""Copy a whole store into another: a folder's SQLite file into PostgreSQL, or back.

Every row is copied as it is (versions, index bookkeeping, articles, the job journal and
the folder settings), so vectors already indexed against the source stay valid against
the copy. The copy goes user by user, each user in one transaction of the target that
first removes what an earlier, interrupted run left of that user: a rerun resumes where a
killed one stopped and skips users already copied (same version, same records). Finally
every user's version and record hashes are compared on both sides.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..errors import StoreError
from .sql_store import SqlStore
from .users import purge_rows

__all__ = ["MigrationReport", "copy_store"]

# Per table, the columns copied (the schema of recall.store.schema), user tables first.
_COLUMNS = {
    "records": "user_id, id, kind, text, created_at, tokens, metadata, hash",
    "lt_articles": "user_id, version, bedrock, evolutionary, dynamic, updated_at, promoted",
    "lt_jobs": "job_id, user_id, created_at, states, status, attempts, error",
    "index_state": "index_key, user_id, version",
    "users": "user_id, version",
}


@dataclass
class MigrationReport:
    """What a copy did, and what the final comparison found."""

    users: int = 0
    copied_users: int = 0
    skipped_users: int = 0
    records: int = 0
    mismatched: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.mismatched


def _rows(store: SqlStore, table: str, user_id: str) -> list[Any]:
    query = f"SELECT {_COLUMNS[table]} FROM {table} WHERE user_id = ?"
    return list(store.sql.read(lambda db: db.execute(query, (user_id,)).fetchall()))


def _same(source: SqlStore, target: SqlStore, user_id: str) -> bool:
    return source.version(user_id) == target.version(user_id) and source.hashes(
        user_id
    ) == target.hashes(user_id)


def copy_store(
    source: SqlStore,
    target: SqlStore,
    progress: Callable[[int, int], None] | None = None,
) -> MigrationReport:
    """Copy every row of ``source`` into ``target`` (resumable); returns the report."""
    users = source.users()
    extra = sorted(set(target.users()) - set(users))
    if extra:
        raise StoreError(
            f"the target holds users the source does not ({extra[:3]}...): copy into an "
            "empty store (a new folder or database), or delete those users there first"
        )
    target.set_metas(source.all_meta())
    report = MigrationReport(users=len(users))
    for done, user_id in enumerate(users, start=1):
        if _same(source, target, user_id):
            report.skipped_users += 1
        else:
            rows = {table: _rows(source, table, user_id) for table in _COLUMNS}
            with target.sql.write() as db:
                purge_rows(db, user_id)
                for table, cols in _COLUMNS.items():
                    marks = ", ".join("?" * len(cols.split(",")))
                    sql = f"INSERT INTO {table} ({cols}) VALUES ({marks})"
                    db.executemany(sql, [tuple(r) for r in rows[table]])
            report.copied_users += 1
        report.records += len(target.hashes(user_id))
        if progress is not None:
            progress(done, len(users))
    report.mismatched = [u for u in users if not _same(source, target, u)]
    return report
