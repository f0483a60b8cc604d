"""When a Dynamic passage was said: the dates of the statements it came from.

The reconstruction rewrites the Dynamic chapter from its old passages and the promoted
summaries, so a passage's date is not the day the promotion ran but the dates of what it
holds. Each sentence of a new passage is traced to the source it shares the most keyword
tokens with (a promoted summary, or an old passage carrying its own dates), when it shares
at least half of its tokens; the passage takes the earliest and the latest of those dates
(``metadata.said_from`` / ``said_to``, ``created_at`` = the latest). A passage none of whose
sentences traces back (an LLM's rephrasing) takes the batch's latest date: still a date
something was said, never the promotion's.

The offline reconstructor also writes the day a paragraph was said at its head
(``[2026-01-05] I know the user …``; :func:`mark`): it gets each summary as a
:class:`Dated` string. A passage's sentence that traces to no source takes the day of the
paragraph it opens (the source said that day, else that day's midnight), and the marks
are left out of the tracing: they are not words anyone said. The passage records are
stored without the mark (:func:`unmark`), which their dates already carry.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime

from ..models import Record, as_utc
from ..text import split_sentences, tokenize

__all__ = ["Dated", "MARK", "Said", "mark", "passage_dates", "sources_of", "unmark"]

#: Share of a sentence's tokens a source must hold for the sentence to come from it.
_MIN_SHARE = 0.5


#: The day at the head of an article paragraph: ``[2026-01-05] ``.
MARK = re.compile(r"^\[(\d{4}-\d{2}-\d{2})\]\s*")


class Dated(str):
    """A stimulus that knows when it was said: a plain ``str`` to every reconstructor (the
    LLM's prompt included), with ``at`` for the offline one's paragraph marks."""

    at: datetime | None

    def __new__(cls, text: str, at: datetime | None = None) -> Dated:
        """``text``, said at ``at``."""
        obj = super().__new__(cls, text)
        obj.at = at
        return obj


def mark(day: date | None) -> str:
    """The head of a paragraph said on ``day`` (nothing for an unknown day)."""
    return f"[{day.isoformat()}] " if day is not None else ""


def unmark(paragraph: str) -> tuple[date | None, str]:
    """A paragraph's day (None: unmarked) and its text without the mark."""
    m = MARK.match(paragraph)
    if m is None:
        return None, paragraph
    try:
        return date.fromisoformat(m.group(1)), paragraph[m.end() :]
    except ValueError:  # a hand-edited mark that is no date: it stays text
        return None, paragraph


@dataclass(frozen=True)
class Said:
    """A text and the span of dates it was said over."""

    text: str
    first: datetime
    last: datetime


def _span(record: Record) -> Said:
    meta = record.metadata
    first, last = meta.get("said_from"), meta.get("said_to")
    try:
        start = as_utc(datetime.fromisoformat(str(first))) if first else record.created_at
        end = as_utc(datetime.fromisoformat(str(last))) if last else record.created_at
    except ValueError:  # a hand-edited date: the record's own time stands
        start = end = record.created_at
    return Said(record.text, start, end)


def sources_of(batch: Sequence[Record], old_passages: Sequence[Record]) -> list[Said]:
    """What a promotion's Dynamic chapter is made from: the batch of summaries (each said
    at its ``created_at``) and the previous version's passages (each with its span)."""
    return [Said(r.text, r.created_at, r.created_at) for r in batch] + [
        _span(r) for r in old_passages
    ]


def _on(day: date, sources: Sequence[Said]) -> datetime:
    """When on ``day`` something was said: the latest source said that day, else midnight."""
    times = [t for s in sources for t in (s.first, s.last) if t.date() == day]
    return max(times) if times else datetime(day.year, day.month, day.day, tzinfo=UTC)


def passage_dates(
    passages: Sequence[str], sources: Sequence[Said], fallback: datetime
) -> list[tuple[datetime, datetime]]:
    """For each passage, (earliest, latest) date of the statements it came from."""
    bags = [(frozenset(tokenize(_unmarked(s.text))), s) for s in sources]
    out = []
    for passage in passages:
        dates: list[datetime] = []
        day, _ = unmark(passage)
        for sentence in split_sentences(passage):
            words = frozenset(tokenize(unmark(sentence)[1]))
            if not words:
                continue
            share, best = max(
                ((len(words & bag) / len(words), s) for bag, s in bags),
                key=lambda x: x[0],
                default=(0.0, None),
            )
            if best is not None and share >= _MIN_SHARE:
                dates += [best.first, best.last]
            elif day is not None:
                dates.append(_on(day, sources))
        out.append((min(dates), max(dates)) if dates else (fallback, fallback))
    return out


def _unmarked(text: str) -> str:
    """``text`` without the day marks at the head of its paragraphs."""
    return "\n\n".join(unmark(p.strip())[1] for p in re.split(r"\n\s*\n", text))
