"""The daily log section's source: today's activity, one line per entry, the newest kept.

:func:`daily_log` turns entries, ``(time, text)`` pairs or plain texts, into lines (``HH:MM
text``, whitespace folded to one line), each cut visibly to ``daily_log_entry_tokens`` so
that no single entry crowds out the day, and keeps the newest lines that fit the budget,
oldest first as a log reads. Over the budget the oldest lines go first: the same cut the
builder makes (see docs/design.md), so a log fitted to ``builder.section_room("daily_log")``
is never cut again. :func:`session_entries` makes the entries from a session's turns: a
:class:`~recall.context.session.Session` holds no times, so pass today's session (or the
turns since the day began); an entry is what the user asked, the tools used and the reply.
:func:`record_entries` makes them from what the memory stored (``mem.daily_log(user)``
builds the day's log from the store): each exchange its stored turns hold, each note, and
each summary of a conversation whose turns were not kept. The functions are pure given the
token counter.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import date, datetime
from typing import Any

from ..errors import InputError
from ..models import Record
from ..settings import Settings
from ..text import Count
from .budget import cut_to_tokens, fit_tail
from .inputs import as_settings, token_counter
from .session import Session

__all__ = ["LogEntry", "daily_log", "record_entries", "session_entries"]

#: One entry: a time (a datetime, or a label such as ``"09:00"``, or None) and its text.
LogEntry = tuple[datetime | str | None, str]


def session_entries(
    session: Session | Sequence[Mapping[str, Any]],
    *,
    settings: Settings | Mapping[str, Any] | None = None,
    count: Count | None = None,
) -> list[LogEntry]:
    """One entry per user turn of a session (or its messages): ``asked → [tools] → reply``.

    The request and the reply each get half of ``daily_log_entry_tokens`` (cut visibly), so
    a long paste cannot hide what was answered; tools are named once each, in order. The
    settings default to the session's own.
    """
    messages = session.messages if isinstance(session, Session) else session
    s = as_settings(settings, session.settings if isinstance(session, Session) else None)
    half = s.context.daily_log_entry_tokens // 2
    counter = count or token_counter(s)
    out: list[LogEntry] = []
    turn: list[Mapping[str, Any]] = []
    for message in [*messages, {"role": "user", "content": ""}]:  # a sentinel ends the last
        if message.get("role") == "user" and turn:
            out.append((None, _turn_line(turn, half, counter)))
            turn = []
        turn.append(message)
    return [e for e in out if e[1]]


def record_entries(
    records: Iterable[Record],
    *,
    settings: Settings | Mapping[str, Any] | None = None,
    count: Count | None = None,
) -> list[LogEntry]:
    """Entries, oldest first, from a user's stored records (``mem.records(user)``): one per
    exchange of the raw turns (``asked → reply``, each half of ``daily_log_entry_tokens``),
    one per note, and one per short-term summary of a conversation none of whose turns were
    kept (its turns tell the same story better)."""
    s = as_settings(settings)
    half = s.context.daily_log_entry_tokens // 2
    counter = count or token_counter(s)
    mine = sorted(records, key=lambda r: r.created_at)
    threads = {r.metadata.get("thread") for r in mine if r.kind == "turn"}
    out: list[LogEntry] = []
    turn: list[Mapping[str, Any]] = []
    started: datetime | None = None
    for r in [*mine, None]:  # None ends the last exchange
        role = None if r is None else r.metadata.get("role") if r.kind == "turn" else None
        if turn and (r is None or role == "user" or r.kind != "turn"):
            out.append((started, _turn_line(turn, half, counter)))
            turn = []
        if r is None:
            break
        if role in ("user", "assistant"):
            started = r.created_at if not turn else started
            turn.append({"role": role, "content": r.text})
        elif r.kind == "note" or (r.kind == "short_term" and r.metadata.get("job") not in threads):
            out.append((r.created_at, r.text))
    return [e for e in out if e[1]]


def _turn_line(turn: Sequence[Mapping[str, Any]], half: int, count: Count) -> str:
    asked = _one_line(turn[0].get("content")) if turn[0].get("role") == "user" else ""
    tools = dict.fromkeys(
        str((call.get("function") or {}).get("name", "?"))
        for m in turn
        for call in m.get("tool_calls") or ()
    )
    replies = [m for m in turn if m.get("role") == "assistant" and m.get("content")]
    reply = _one_line(replies[-1].get("content")) if replies else ""
    parts = [cut_to_tokens(asked, half, count) if asked else ""]
    parts += [f"[{', '.join(tools)}]"] if tools else []
    parts += [cut_to_tokens(reply, half, count)] if reply else []
    return " → ".join(p for p in parts if p)


def _one_line(text: object) -> str:
    return " ".join(text.split()) if isinstance(text, str) else ""


def _stamp(at: datetime | str | None) -> str:
    if isinstance(at, datetime):
        return at.strftime("%H:%M")
    return at.strip() if isinstance(at, str) else ""


def _pair(entry: object) -> LogEntry:
    if isinstance(entry, tuple) and len(entry) == 2:
        at, text = entry
        if isinstance(text, str) and (at is None or isinstance(at, datetime | str)):
            return at, text
    raise InputError(f"a daily log entry is a text or a (time, text) pair, got {entry!r:.80}")


def daily_log(
    entries: Iterable[LogEntry | str],
    *,
    budget_tokens: int | None = None,
    settings: Settings | Mapping[str, Any] | None = None,
    count: Count | None = None,
    day: date | None = None,
) -> str:
    """The daily log section's text: the newest entries that fit ``budget_tokens``.

    ``entries`` are oldest first (a plain text is an entry without time). With ``day``,
    entries timed by a datetime on another day are left out (untimed ones stay). The
    budget defaults to ``daily_log_budget_tokens``; pass ``builder.section_room(
    "daily_log")`` to have the builder take the log as it is.
    """
    s = as_settings(settings)
    counter = count or token_counter(s)
    budget = s.context.daily_log_budget_tokens if budget_tokens is None else budget_tokens
    lines = []
    for entry in entries:
        at, text = (None, entry) if isinstance(entry, str) else _pair(entry)
        if day is not None and isinstance(at, datetime) and at.date() != day:
            continue
        line = " ".join(p for p in (_stamp(at), _one_line(text)) if p)
        if _one_line(text):
            lines.append(cut_to_tokens(line, s.context.daily_log_entry_tokens, counter))
    return fit_tail([ln for ln in lines if ln], budget, counter)[0]
