"""When a Dynamic passage was said: the dates of the statements it came from.

The reconstruction rewrites the Dynamic chapter from its old passages and the promoted
summaries, so a passage's date is not the day the promotion ran but the dates of what it
holds. Each sentence of a new passage is traced to the source it shares the most keyword
tokens with (a promoted summary, or an old passage carrying its own dates), when it shares
at least half of its tokens; the passage takes the earliest and the latest of those dates
(``metadata.said_from`` / ``said_to``, ``created_at`` = the latest). A passage none of whose
sentences traces back (an LLM's rephrasing) takes the batch's latest date: still a date
something was said, never the promotion's.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from ..models import Record, as_utc
from ..text import split_sentences, tokenize

__all__ = ["Said", "passage_dates", "sources_of"]

#: Share of a sentence's tokens a source must hold for the sentence to come from it.
_MIN_SHARE = 0.5


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


def passage_dates(
    passages: Sequence[str], sources: Sequence[Said], fallback: datetime
) -> list[tuple[datetime, datetime]]:
    """For each passage, (earliest, latest) date of the statements it came from."""
    bags = [(frozenset(tokenize(s.text)), s) for s in sources]
    out = []
    for passage in passages:
        dates: list[datetime] = []
        for sentence in split_sentences(passage):
            words = frozenset(tokenize(sentence))
            if not words:
                continue
            share, best = max(
                ((len(words & bag) / len(words), s) for bag, s in bags),
                key=lambda x: x[0],
                default=(0.0, None),
            )
            if best is not None and share >= _MIN_SHARE:
                dates += [best.first, best.last]
        out.append((min(dates), max(dates)) if dates else (fallback, fallback))
    return out
