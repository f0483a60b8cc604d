"""The JSONL form of one user's memory: what ``export_user`` writes and ``import_user`` reads.

One JSON object per line. The first line is a header naming the user and how many rows
follow, so a truncated file is refused instead of half-imported::

    {"type": "recall-user", "format": 1, "user_id": "u1", "records": 2, "articles": 1}
    {"type": "record", "id": "...", "kind": "note", "text": "...", "created_at": "...",
     "metadata": {}}
    {"type": "article", "version": 1, "bedrock": "...", "evolutionary": "...", "dynamic": "...",
     "updated_at": "...", "promoted": ["..."]}

A record line carries exactly the fields ``Memory.add_many`` takes, so an import goes
through the same validation as any write.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ..errors import InputError
from ..jsonlimits import shown
from ..models import Record, validation_message
from .base import ArticleRow

__all__ = ["EXPORT_FORMAT", "ParsedExport", "export_lines", "parse_export"]

#: The version of the line format; an importer refuses a newer one.
EXPORT_FORMAT = 1


class _Header(BaseModel):
    model_config = ConfigDict(extra="forbid")

    type: Literal["recall-user"]
    format: int = Field(ge=1, le=EXPORT_FORMAT)
    user_id: str
    records: int = Field(ge=0)
    articles: int = Field(ge=0)


class _Article(BaseModel):
    model_config = ConfigDict(extra="forbid")

    type: Literal["article"]
    version: int = Field(ge=1)
    bedrock: str
    evolutionary: str
    dynamic: str
    updated_at: datetime
    promoted: list[str] = Field(default_factory=list)


@dataclass(frozen=True)
class ParsedExport:
    """An export read back: the user it was taken from, record items, article versions."""

    user_id: str
    items: list[dict[str, Any]]
    articles: list[_Article]

    def article_rows(self, user_id: str) -> list[ArticleRow]:
        """The article versions as rows of ``user_id`` (the import's target): an article
        line holds a row's own fields, less the user."""
        return [
            ArticleRow(
                user_id=user_id,
                promoted=tuple(a.promoted),
                **a.model_dump(exclude={"type", "promoted"}),
            )
            for a in self.articles
        ]


def _dump(obj: dict[str, Any]) -> str:
    return json.dumps(obj, ensure_ascii=False) + "\n"


def export_lines(
    user_id: str, records: Sequence[Record], articles: Sequence[ArticleRow]
) -> list[str]:
    """The user's memory as JSONL lines (each ending in a newline), header first."""
    lines = [
        _dump(
            {
                "type": "recall-user",
                "format": EXPORT_FORMAT,
                "user_id": user_id,
                "records": len(records),
                "articles": len(articles),
            }
        )
    ]
    lines += [
        _dump(
            {
                "type": "record",
                "id": r.id,
                "kind": r.kind,
                "text": r.text,
                "created_at": r.created_at.isoformat(),
                "metadata": r.metadata,
            }
        )
        for r in records
    ]
    lines += [
        _dump(
            {
                "type": "article",
                "version": a.version,
                "bedrock": a.bedrock,
                "evolutionary": a.evolutionary,
                "dynamic": a.dynamic,
                "updated_at": a.updated_at.isoformat(),
                "promoted": list(a.promoted),
            }
        )
        for a in articles
    ]
    return lines


def _objects(lines: str | bytes | Iterable[str | bytes]) -> list[tuple[int, dict[str, Any]]]:
    if isinstance(lines, str | bytes):
        lines = lines.splitlines()
    out = []
    for n, line in enumerate(lines, start=1):
        try:
            text = line.decode("utf-8") if isinstance(line, bytes) else line
        except UnicodeDecodeError as exc:
            raise InputError(f"line {n} of the export is not UTF-8: {exc.reason}") from None
        if not text.strip():
            continue
        try:
            obj = json.loads(text)
        except json.JSONDecodeError as exc:
            raise InputError(f"line {n} of the export is not JSON: {exc.msg}") from exc
        except (RecursionError, ValueError) as exc:  # nested too deep; an int over 4300 digits
            what = "nested too deep" if isinstance(exc, RecursionError) else str(exc)
            raise InputError(f"line {n} of the export cannot be read: {what}") from None
        if not isinstance(obj, dict):
            raise InputError(f"line {n} of the export is not a JSON object")
        out.append((n, obj))
    return out


def parse_export(lines: str | bytes | Iterable[str | bytes]) -> ParsedExport:
    """Read an export (text, or an iterable of lines such as an open file); raises
    ``InputError`` naming the line for anything malformed, truncated or of a newer format."""
    objects = _objects(lines)
    if not objects:
        raise InputError("the export is empty; expected a recall-user header line first")
    try:
        header = _Header.model_validate(objects[0][1])
    except ValidationError as exc:
        raise InputError(validation_message(exc, "export header (line 1)")) from exc
    items: list[dict[str, Any]] = []
    articles: list[_Article] = []
    for n, obj in objects[1:]:
        kind = obj.pop("type", None)
        if kind == "record":
            items.append(obj)
        elif kind == "article":
            try:
                articles.append(_Article.model_validate({"type": kind, **obj}))
            except ValidationError as exc:
                raise InputError(validation_message(exc, f"article (line {n})")) from exc
        else:
            raise InputError(
                f"line {n}: unknown row type {shown(kind)}; expected record or article"
            )
    if (len(items), len(articles)) != (header.records, header.articles):
        raise InputError(
            f"the export says {header.records} records and {header.articles} articles but "
            f"holds {len(items)} and {len(articles)}: it is truncated or was edited"
        )
    articles.sort(key=lambda a: a.version)
    return ParsedExport(header.user_id, items, articles)
