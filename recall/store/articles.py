"""Versioned long-term articles in the store file (table ``lt_articles``).

Every promotion writes a new row ``(user_id, version)``; old rows stay, so any past version
can be shown. The table lives in the same SQLite file as the records, so an article version,
the archive records that fed it and the Dynamic passages cut from it commit together.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Sequence
from datetime import UTC, datetime

from pydantic import Field

from ..errors import InputError
from ..lifecycle.article import Article
from ..models import Record
from .sqlite import Store, content_hash

__all__ = [
    "LongTerm",
    "archive_records",
    "dynamic_records",
    "ensure_tables",
    "insert_version",
    "latest_version",
    "read_version",
]

_SCHEMA = (
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
)


class LongTerm(Article):
    """One version of a user's long-term article (version 0: nothing promoted yet)."""

    user_id: str
    version: int = Field(ge=0)
    updated_at: datetime | None = None
    promoted_ids: list[str] = Field(
        default_factory=list, description="Short-term summaries that fed this version."
    )

    def article(self) -> Article:
        """Just the three chapters."""
        return Article(bedrock=self.bedrock, evolutionary=self.evolutionary, dynamic=self.dynamic)


def ensure_tables(store: Store, statements: tuple[str, ...] = _SCHEMA) -> None:
    """Create the lifecycle's tables if they are missing (idempotent)."""
    with store.transaction() as db:
        for sql in statements:
            db.execute(sql)


def latest_version(db: sqlite3.Connection, user_id: str) -> int:
    """The user's newest article version inside an open transaction (0: none)."""
    row = db.execute(
        "SELECT COALESCE(MAX(version), 0) FROM lt_articles WHERE user_id = ?", (user_id,)
    ).fetchone()
    return int(row[0])


def read_version(store: Store, user_id: str, version: int | None = None) -> LongTerm:
    """Version ``version`` of the user's article (None: the newest)."""
    if version is not None and (isinstance(version, bool) or not isinstance(version, int)):
        raise InputError(f"version must be an integer, got {version!r}")
    with store.transaction() as db:
        newest = latest_version(db, user_id)
        want = newest if version is None else version
        row = db.execute(
            "SELECT * FROM lt_articles WHERE user_id = ? AND version = ?", (user_id, want)
        ).fetchone()
    if row is None:
        if want == 0:
            return LongTerm(user_id=user_id, version=0)
        raise InputError(
            f"user {user_id!r} has no long-term version {want}; versions go from 0 to {newest}"
        )
    return LongTerm(
        user_id=user_id,
        version=int(row["version"]),
        bedrock=row["bedrock"],
        evolutionary=row["evolutionary"],
        dynamic=row["dynamic"],
        updated_at=datetime.fromtimestamp(row["updated_at"], UTC),
        promoted_ids=json.loads(row["promoted"]),
    )


def insert_version(
    db: sqlite3.Connection,
    user_id: str,
    version: int,
    article: Article,
    updated_at: datetime,
    promoted: list[str],
) -> None:
    """Write one article version inside an open transaction."""
    db.execute(
        "INSERT INTO lt_articles "
        "(user_id, version, bedrock, evolutionary, dynamic, updated_at, promoted) "
        "VALUES (?, ?, ?, ?, ?, ?, ?)",
        (
            user_id,
            version,
            article.bedrock,
            article.evolutionary,
            article.dynamic,
            updated_at.timestamp(),
            json.dumps(promoted, ensure_ascii=False),
        ),
    )


def dynamic_records(
    user_id: str, version: int, passages: Sequence[str], at: datetime, count: Callable[[str], int]
) -> list[Record]:
    """The Dynamic chapter's passages of ``version`` as records of kind ``dynamic``."""
    return [
        Record(
            id=f"dyn-{version}-{i:04d}",
            user_id=user_id,
            kind="dynamic",
            text=p,
            created_at=at,
            tokens=count(p),
            metadata={"chapter_version": version, "passage": i},
        )
        for i, p in enumerate(passages)
    ]


def archive_records(batch: Sequence[Record], version: int, at: datetime) -> list[Record]:
    """Promoted summaries as kind ``archive``, linked to the chapter ``version`` they fed.

    Each gets a new id (``ar-`` + the old one): to the index that is one removal and one
    addition, which every index handles, rather than a kind change under an unchanged text.
    """
    return [
        r.model_copy(
            update={
                "id": f"ar-{r.id}" if len(r.id) <= 250 else f"ar-{content_hash(r.id)}",
                "kind": "archive",
                "metadata": {
                    **r.metadata,
                    "summary_id": r.id,
                    "chapter_version": version,
                    "promoted_at": at.isoformat(),
                },
            }
        )
        for r in batch
    ]
