"""SQL on ``lt_articles``: the versioned long-term articles, one row per (user, version).

Every promotion writes a new row; old rows stay, so any past version can be shown. The
table lives in the same file as the records, so an article version, the archive records
that fed it and the Dynamic passages cut from it commit together. The functions run on a
connection the caller holds and neither open nor commit transactions; :class:`Articles` is
the store's part that does, over any :class:`~recall.store.dialect.Dialect`.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import UTC, datetime

from .base import ArticleRow
from .dialect import Db, Dialect

__all__ = ["Articles", "article_rows", "insert_article", "latest_version", "read_article"]


def latest_version(db: Db, user_id: str) -> int:
    """The user's newest article version (0: none)."""
    row = db.execute(
        "SELECT COALESCE(MAX(version), 0) FROM lt_articles WHERE user_id = ?", (user_id,)
    ).fetchone()
    return int(row[0])


def read_article(db: Db, user_id: str, version: int | None) -> ArticleRow | None:
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


def insert_article(db: Db, row: ArticleRow) -> bool:
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


def article_rows(db: Db, user_id: str) -> list[ArticleRow]:
    """Every version of the user's article, oldest first."""
    query = "SELECT version FROM lt_articles WHERE user_id = ? ORDER BY version"
    versions = [int(r[0]) for r in db.execute(query, (user_id,)).fetchall()]
    rows = [read_article(db, user_id, v) for v in versions]
    return [r for r in rows if r is not None]


class Articles:
    """The store's long-term articles: read a version, list them, scrub them in place."""

    def __init__(self, sql: Dialect) -> None:
        self.sql = sql

    def article(self, user_id: str, version: int | None = None) -> ArticleRow | None:
        """Version ``version`` of the user's article (None: the newest); None if absent."""
        return self.sql.read(lambda db: read_article(db, user_id, version))

    def article_version(self, user_id: str) -> int:
        """The user's newest article version (0: none yet)."""
        return self.sql.read(lambda db: latest_version(db, user_id))

    def articles(self, user_id: str) -> list[ArticleRow]:
        """Every stored version of the user's article, oldest first."""
        return self.sql.read(lambda db: article_rows(db, user_id))

    def rewrite_articles(self, rows: Sequence[ArticleRow]) -> int:
        """Overwrite the chapters of these stored versions in place; rows changed."""
        with self.sql.write() as db:
            return sum(
                db.execute(
                    "UPDATE lt_articles SET bedrock = ?, evolutionary = ?, dynamic = ? "
                    "WHERE user_id = ? AND version = ?",
                    (r.bedrock, r.evolutionary, r.dynamic, r.user_id, r.version),
                ).rowcount
                for r in rows
            )
