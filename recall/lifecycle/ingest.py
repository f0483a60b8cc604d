"""``recall ingest``: a chat log or a LoCoMo conversation, as a sequence of update_memory calls.

Accepted files (the shape is read from the content; ``.jsonl``/``.ndjson`` files, and JSON
files holding several values, are read one value per line):

- **OpenAI chat messages**: a JSON list of messages, ``{"messages": [...]}``, or a list of
  such conversations; JSONL with one message per line (consecutive message lines are one
  conversation) or one conversation per line (``{"messages": [...]}``, the fine-tuning
  format). Each conversation is cut into chunks of about ``settings.lifecycle.ingest_chunk_tokens``
  (4,000: with ``summary_tokens`` 600 a summary keeps ~15% of its chunk); a chunk never
  starts with a tool result, which stays with the call it answers.
- **LoCoMo** (see the datasets README): one sample ``{"conversation": {...}}`` or a list of
  them. One update per session, in session order: a header message naming the session, the
  two speakers and ``session_N_date_time``, then one ``user`` message per turn written
  ``"Speaker: text"`` (a shared photo's caption appended). The speaker goes into the text
  because summaries label messages by role only. ``qa``, ``observation``,
  ``session_summary`` and ``event_summary`` are evaluation data and are not ingested.

One chunk or session is one ``update_memory`` call: summarized, then promoted when the
short-term memory is over capacity. The whole file is read and checked before anything is
written; every problem is an :class:`~recall.errors.InputError` naming where it is (JSONL
line number, JSON index, LoCoMo sample and session). The file is read by
:mod:`~recall.lifecycle.chatlog`, LoCoMo samples are parsed by :mod:`~recall.lifecycle.locomo`
(the parser the LoCoMo benchmark uses too); this module plans the calls and runs them.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from pydantic import BaseModel, Field

from ..errors import InputError
from ..settings import Settings
from ..text import Count, count_tokens, message_tokens
from .chatlog import check_message, conversation, read_values
from .locomo import LocomoSample, is_locomo_sample, parse_sample
from .states import MessageError, to_turns

if TYPE_CHECKING:
    from ..models import Record
    from .article import LongTerm
    from .pipeline import UpdateResult


class Target(Protocol):
    """What ingest writes through: a :class:`recall.Memory` (or its lifecycle)."""

    def update_memory(
        self, states: Any, *, user_id: str, at: datetime | None = None
    ) -> UpdateResult: ...

    def long_term(self, user_id: str) -> LongTerm: ...

    def short_term(self, user_id: str) -> list[Record]: ...


__all__ = [
    "IngestReport",
    "Target",
    "Update",
    "chunk_bounds",
    "ingest",
    "plan_file",
    "plan_values",
]


@dataclass(frozen=True)
class Update:
    """One update_memory call: chat ``messages`` and where each came from in the file."""

    where: str
    messages: list[dict[str, Any]]
    locations: list[str] = field(default_factory=list)
    #: When it was said (a LoCoMo session's date); None: now.
    at: datetime | None = None

    def locate(self, problem: InputError) -> str:
        """``problem`` (raised for these messages) named by the file location it is about."""
        if isinstance(problem, MessageError) and problem.index < len(self.locations):
            return f"{self.where}: {self.locations[problem.index]}: {problem.detail}"
        return f"{self.where}: {problem}"


class IngestReport(BaseModel):
    """What one ingest did."""

    user_id: str
    updates: int
    promotions: int = Field(description="Promotions into the long-term article.")
    version: int = Field(description="The user's long-term version afterwards.")
    short_term_count: int
    seconds: float


# --- planning -----------------------------------------------------------------------------
def chunk_bounds(tokens: Sequence[int], starts: Sequence[bool], budget: int) -> list[range]:
    """Consecutive chunks of messages of about ``budget`` tokens each.

    A chunk closes before a message that would take it over ``budget``, if a chunk may
    start there (``starts[i]``: false for a tool result). A message alone over budget is a
    chunk of its own.
    """
    out: list[range] = []
    begin, used = 0, 0
    for i, cost in enumerate(tokens):
        if i > begin and starts[i] and used + cost > budget:
            out.append(range(begin, i))
            begin, used = i, 0
        used += cost
    if begin < len(tokens):
        out.append(range(begin, len(tokens)))
    return out


def _chat_updates(
    messages: list[tuple[str, dict[str, Any]]], settings: Settings, count: Count
) -> list[Update]:
    overhead = settings.context.message_overhead_tokens
    costs = [message_tokens(m, count, overhead) for _, m in messages]
    starts = [m.get("role") not in ("tool", "function") for _, m in messages]
    updates = []
    for span in chunk_bounds(costs, starts, settings.lifecycle.ingest_chunk_tokens):
        locs = [messages[i][0] for i in span]
        where = locs[0] if len(locs) == 1 else f"{locs[0]} to {_tail(locs[-1], locs[0])}"
        updates.append(Update(where, [messages[i][1] for i in span], locs))
    return updates


def _tail(last: str, first: str) -> str:
    """``last`` without what it shares with ``first``: "x.jsonl line 40" -> "40"."""
    n = 0
    while n < min(len(last), len(first)) and last[n] == first[n]:
        n += 1
    cut = max(last.rfind(" ", 0, n) + 1, last.rfind("[", 0, n))
    return last[cut:] if cut > 0 else last


def _locomo_updates(sample: LocomoSample) -> list[Update]:
    """One update per session that says something: a header, then one message per turn."""
    updates = []
    for session in sample.sessions:
        turns = session.turns
        if not any(t.text.strip() or t.caption for t in turns):
            continue  # an empty session: nothing was said
        here = f"{sample.where} {session.key}"
        names = list(sample.speakers) or list(dict.fromkeys(t.speaker for t in turns))
        date = session.date
        header = f"Session {session.number} of the conversation between {' and '.join(names)}"
        header += f" ({date})." if date and date.strip() else "."
        messages: list[dict[str, Any]] = [{"role": "user", "content": header}]
        locs = [here]
        for j, t in enumerate(turns):
            text = t.text.strip()
            if t.caption:
                text = f"{text} [shares a photo: {t.caption}]".strip()
            # The speaker goes into the text: summaries label messages by role only.
            messages.append({"role": "user", "content": f"{t.speaker}: {text}"})
            locs.append(f"{here}[{j}]" + (f" ({t.dia_id})" if t.dia_id else ""))
        updates.append(Update(here, messages, locs, session.start))
    return updates


def plan_values(
    values: Sequence[tuple[str, object]],
    settings: Settings,
    *,
    samples: Sequence[str] = (),
    count: Count | None = None,
) -> list[Update]:
    """The update_memory calls for the file's top-level ``(location, value)`` entries."""
    counter = count or (lambda t: count_tokens(t, settings.text.encoding))
    updates: list[Update] = []
    pending: list[tuple[str, dict[str, Any]]] = []  # consecutive message entries
    seen: list[str] = []

    def flush() -> None:
        if pending:
            updates.extend(_chat_updates(pending, settings, counter))
            pending.clear()

    for where, value in values:
        if is_locomo_sample(value):
            flush()
            sid = value.get("sample_id")
            seen.append(str(sid))
            if not samples or sid in samples:  # only the samples asked for are checked
                updates.extend(_locomo_updates(parse_sample(value, where)))
        elif isinstance(value, Mapping) and "role" in value:
            pending.append((where, check_message(value, where)))
        elif isinstance(value, Mapping) and "messages" in value:
            flush()
            messages = conversation(value["messages"], f"{where}.messages")
            updates.extend(_chat_updates(messages, settings, counter))
        elif isinstance(value, list):
            flush()
            updates.extend(_chat_updates(conversation(value, where), settings, counter))
        else:
            raise InputError(
                f"{where}: expected a chat message (an object with 'role'), a conversation "
                "({'messages': [...]} or a list of messages) or a LoCoMo sample (an object "
                f"with 'conversation'); got {type(value).__name__}"
            )
    flush()
    missing = [s for s in samples if s not in seen]
    if missing:
        have = ", ".join(seen) if seen else "none: this is not a LoCoMo file"
        raise InputError(f"no LoCoMo sample {', '.join(missing)} in the file; samples: {have}")
    for u in updates:  # the deep checks of update_memory, before anything is written
        try:
            to_turns(u.messages, max_chars=settings.lifecycle.max_states_chars)
        except InputError as exc:
            raise InputError(u.locate(exc)) from exc
    return updates


def plan_file(path: Path, settings: Settings, *, samples: Sequence[str] = ()) -> list[Update]:
    """Read and check ``path`` (see the module docstring); the update_memory calls to make."""
    values = read_values(path)
    if not values:
        raise InputError(f"{path.name} is empty: give chat messages or a LoCoMo conversation")
    updates = plan_values(values, settings, samples=samples)
    if not updates:
        raise InputError(f"{path.name} holds no conversation turns to remember")
    return updates


def ingest(
    mem: Target,
    updates: Sequence[Update],
    *,
    user_id: str,
    progress: Callable[[Update], None] | None = None,
) -> IngestReport:
    """Run ``updates`` through ``mem.update_memory`` in order (promoting as it goes)."""
    started = time.perf_counter()
    promotions = 0
    result = None
    for u in updates:
        try:
            result = mem.update_memory(u.messages, user_id=user_id, at=u.at)
        except InputError as exc:
            raise InputError(u.locate(exc)) from exc
        promotions += len(result.versions)
        if progress is not None:
            progress(u)
    return IngestReport(
        user_id=user_id,
        updates=len(updates),
        promotions=promotions,
        version=result.version if result else mem.long_term(user_id).version,
        short_term_count=result.short_term_count if result else len(mem.short_term(user_id)),
        seconds=time.perf_counter() - started,
    )
