"""SQL on ``lt_articles``: the versioned long-term articles, one row per (user, version).

Every promotion writes a new row; old rows stay, so any past version can be shown. The
table lives in the same file as the records, so an article version, the archive records
that fed it and the Dynamic passages cut from it commit together. The functions run on a
connection the caller holds and neither open nor commit transactions.
"""

from __future__ import annotations

import json
import sqlite3
from datetime import UTC, datetime

from .base import ArticleRow

__all__ = ["insert_article", "latest_version", "read_article"]


def latest_version(db: sqlite3.Connection, user_id: str) -> int:
    """The user's newest article version (0: none)."""
    row = db.execute(
        "SELECT COALESCE(MAX(version), 0) FROM lt_articles WHERE user_id = ?", (user_id,)
    ).fetchone()
    return int(row[0])


def read_article(db: sqlite3.Connection, user_id: str, version: int | None) -> ArticleRow | None:
    """Version ``version`` of the user's article (None: the newest); None when absent."""
    if version is None:
        row = db.execute(
            "SELECT * FROM lt_articles WHERE user_id = ? ORDER BY version DESC LIMIT 1",
            (user_id,),
        ).fetchone()
    else:
        row = db.execute(
            "SELECT * FROM lt_articles WHERE user_id = ? AND version = ?", (user_id, version)
        ).fetchone()
    if row is None:
        return None
    return ArticleRow(
        user_id=row["user_id"],
        version=int(row["version"]),
        bedrock=row["bedrock"],
        evolutionary=row["evolutionary"],
        dynamic=row["dynamic"],
        updated_at=datetime.fromtimestamp(row["updated_at"], UTC),
        promoted=tuple(json.loads(row["promoted"])),
    )


def insert_article(db: sqlite3.Connection, row: ArticleRow) -> bool:
    """Write ``row`` only if it is exactly one above the newest version (the optimistic
    check of promotion); False, writing nothing, when another writer got there first."""
    if latest_version(db, row.user_id) != row.version - 1:
        return False
    db.execute(
        "INSERT INTO lt_articles "
        "(user_id, version, bedrock, evolutionary, dynamic, updated_at, promoted) "
        "VALUES (?, ?, ?, ?, ?, ?, ?)",
        (
            row.user_id,
            row.version,
            row.bedrock,
            row.evolutionary,
            row.dynamic,
            row.updated_at.timestamp(),
            json.dumps(list(row.promoted), ensure_ascii=False),
        ),
    )
    return True
