"""The facade's read-only views of a user's memory, for people and agents that look at it.

What the inspector page (``/ui``), the memory report, the MCP browsing tools, REST and the
CLI show: the records a page at a time (by kind and by the date each was said), the
article's versions and the difference between two of them, and a query explained (every
hit's legs, and which hits the relevance floor removed). Nothing here writes.
"""

from __future__ import annotations

import difflib
from collections.abc import Sequence
from datetime import datetime

from pydantic import BaseModel, Field

from .. import inputs
from ..errors import InputError, UnknownUserError
from ..jsonlimits import shown
from ..models import Hit, Record, require_user_id
from ..text.tokens import estimate_tokens
from .core import MemoryCore

#: A listing's kind filter, checked (for a service that lists records page by page).
record_kinds = inputs.record_kinds

__all__ = [
    "ArticleDiff",
    "ArticleVersion",
    "ChapterDiff",
    "Explained",
    "InspectMethods",
    "MAX_PAGE",
    "RecordPage",
    "record_kinds",
]

#: Most records one page may hold: a page is for reading, an export for everything.
MAX_PAGE = 500


class RecordPage(BaseModel):
    """One page of a user's records, newest said first."""

    records: list[Record]
    total: int = Field(description="Records matching the filters, on every page.")
    offset: int
    limit: int
    next_offset: int | None = Field(None, description="The next page's offset; None: last.")


class ArticleVersion(BaseModel):
    """One stored version of the long-term article, without its text."""

    version: int
    updated_at: datetime
    tokens: int = Field(description="Estimated tokens of the three chapters.")
    promoted: int = Field(description="Short-term summaries that fed this version.")


class ChapterDiff(BaseModel):
    """One chapter's change between two versions, as unified-diff lines."""

    chapter: str
    changed: bool
    lines: list[str]


class ArticleDiff(BaseModel):
    """What changed in the article from version ``old`` to version ``new``."""

    user_id: str
    old: int
    new: int
    chapters: list[ChapterDiff]


class Explained(BaseModel):
    """A query's hits as deep_recall returns them, and the ones the relevance floor removed."""

    query: str
    hits: list[Hit]
    floored: list[Hit] = Field(description="Ranked, then removed by the relevance floor.")


def _page_bounds(offset: int, limit: int) -> None:
    if isinstance(offset, bool) or not isinstance(offset, int) or offset < 0:
        raise InputError(f"offset must be a whole number >= 0, got {shown(offset)}")
    if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= MAX_PAGE:
        raise InputError(f"limit must be a whole number from 1 to {MAX_PAGE}, got {shown(limit)}")


class InspectMethods(MemoryCore):
    """The read-only views of :class:`recall.Memory`: browse, versions, diff (explain:
    :mod:`.search`)."""

    def browse(
        self,
        user_id: str,
        *,
        kinds: Sequence[str] | None = None,
        since: datetime | str | None = None,
        until: datetime | str | None = None,
        offset: int = 0,
        limit: int = 50,
    ) -> RecordPage:
        """A page of the user's records, newest said first: of ``kinds`` (default every
        kind), said from ``since`` (inclusive) to ``until`` (exclusive; a bare date keeps
        its whole day), ``limit`` records (at most :data:`MAX_PAGE`) from ``offset``."""
        uid = require_user_id(user_id)
        _page_bounds(offset, limit)
        checked = inputs.record_kinds(list(kinds)) if kinds is not None else None
        start, end = inputs.window_bounds(since, until)
        rows = [
            r
            for r in self._store.records(uid, kinds=checked)
            if (start is None or r.created_at >= start) and (end is None or r.created_at < end)
        ]
        rows.sort(key=lambda r: (r.created_at, r.id), reverse=True)
        page = rows[offset : offset + limit]
        more = offset + limit < len(rows)
        return RecordPage(
            records=page,
            total=len(rows),
            offset=offset,
            limit=limit,
            next_offset=offset + limit if more else None,
        )

    def article_versions(self, user_id: str) -> list[ArticleVersion]:
        """Every stored version of the user's article, newest first (empty: none yet)."""
        rows = self._store.articles(require_user_id(user_id))
        return [
            ArticleVersion(
                version=r.version,
                updated_at=r.updated_at,
                tokens=estimate_tokens(f"{r.bedrock}\n{r.evolutionary}\n{r.dynamic}"),
                promoted=len(r.promoted),
            )
            for r in reversed(rows)
        ]

    def article_diff(self, user_id: str, old: int, new: int | None = None) -> ArticleDiff:
        """What changed in each chapter from version ``old`` to ``new`` (default newest).

        Raises ``UnknownUserError`` when either version does not exist."""
        uid = require_user_id(user_id)
        latest = self._store.article_version(uid)
        target = latest if new is None else new
        for v in (old, target):
            if isinstance(v, bool) or not isinstance(v, int) or not 1 <= v <= latest:
                raise UnknownUserError(
                    f"user {uid!r} has no article version {v!r} (versions 1..{latest}); "
                    "list them with article_versions"
                )
        a = self._store.article(uid, old)
        b = self._store.article(uid, target)
        if a is None or b is None:
            raise UnknownUserError(f"user {uid!r} has no article version {old} or {target}")
        chapters = []
        for name, before, after in (
            ("Bedrock", a.bedrock, b.bedrock),
            ("Evolutionary", a.evolutionary, b.evolutionary),
            ("Dynamic", a.dynamic, b.dynamic),
        ):
            lines = list(
                difflib.unified_diff(
                    before.splitlines(),
                    after.splitlines(),
                    f"v{old}",
                    f"v{target}",
                    lineterm="",
                    n=1,
                )
            )
            chapters.append(ChapterDiff(chapter=name, changed=before != after, lines=lines))
        return ArticleDiff(user_id=uid, old=old, new=target, chapters=chapters)
