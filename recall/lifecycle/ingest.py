"""``recall ingest``: a chat log or a LoCoMo conversation, as a sequence of update_memory calls.

Accepted files (the shape is read from the content; ``.jsonl``/``.ndjson`` files, and JSON
files holding several values, are read one value per line):

- **OpenAI chat messages**: a JSON list of messages, ``{"messages": [...]}``, or a list of
  such conversations; JSONL with one message per line (consecutive message lines are one
  conversation) or one conversation per line (``{"messages": [...]}``, the fine-tuning
  format). Each conversation is cut into chunks of about ``Settings.ingest_chunk_tokens``
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
line number, JSON index, LoCoMo sample and session).
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from ..context.budget import message_tokens
from ..errors import InputError
from ..settings import Settings
from ..text import count_tokens
from .states import ROLES, to_turns

if TYPE_CHECKING:
    from ..memory import Memory

__all__ = ["IngestReport", "Update", "chunk_bounds", "ingest", "plan_file", "plan_values"]

_JSONL_SUFFIXES = (".jsonl", ".ndjson")
_SESSION = re.compile(r"^session_(\d+)$")
# to_turns names a bad message "message i" of the list it was given; mapped back to the file.
_MESSAGE_REF = re.compile(r"\bmessage (\d+)\b")


@dataclass(frozen=True)
class Update:
    """One update_memory call: chat ``messages`` and where each came from in the file."""

    where: str
    messages: list[dict[str, Any]]
    locations: list[str] = field(default_factory=list)

    def locate(self, problem: str) -> str:
        """``problem`` (an InputError text about these messages) with file locations."""

        def sub(m: re.Match[str]) -> str:
            i = int(m.group(1))
            return self.locations[i] if i < len(self.locations) else m.group(0)

        return f"{self.where}: {_MESSAGE_REF.sub(sub, problem)}"


class IngestReport(BaseModel):
    """What one ingest did."""

    user_id: str
    updates: int
    promotions: int = Field(description="Promotions into the long-term article.")
    version: int = Field(description="The user's long-term version afterwards.")
    short_term_count: int
    seconds: float


class _Message(BaseModel):
    """The shape of an OpenAI chat message; update_memory checks the content in depth."""

    model_config = ConfigDict(extra="allow")

    role: str
    content: str | list[dict[str, Any]] | None = None
    name: str | None = None
    tool_calls: list[dict[str, Any]] | None = None
    tool_call_id: str | None = None

    @field_validator("role")
    @classmethod
    def _role(cls, v: str) -> str:
        if v not in ROLES:
            raise ValueError(f"unknown role {v!r}; use one of {sorted(ROLES)}")
        return v


class _Turn(BaseModel):
    """One LoCoMo turn."""

    model_config = ConfigDict(extra="allow")

    speaker: str = Field(min_length=1)
    text: str
    dia_id: str | None = None
    blip_caption: str | None = None


def _problems(exc: ValidationError) -> str:
    return "; ".join(
        f"{'.'.join(str(x) for x in e['loc'])}: {e['msg']}" if e["loc"] else e["msg"]
        for e in exc.errors()
    )


# --- reading ------------------------------------------------------------------------------
def _read(path: Path) -> str:
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise InputError(f"cannot read {path}: {exc.strerror or exc}") from exc
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise InputError(f"{path} line {line}: not UTF-8 ({exc.reason}); save it as UTF-8") from exc


def _jsonl(text: str, name: str) -> list[tuple[str, object]]:
    values: list[tuple[str, object]] = []
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            values.append((f"{name} line {n}", json.loads(line)))
        except json.JSONDecodeError as exc:
            raise InputError(
                f"{name} line {n}: not valid JSON ({exc.msg} at column {exc.colno}); "
                "JSONL needs one JSON value per line"
            ) from exc
    return values


def _values(path: Path, text: str) -> list[tuple[str, object]]:
    """(location, value) of every top-level entry of the file."""
    name = path.name
    if path.suffix.lower() in _JSONL_SUFFIXES:
        return _jsonl(text, name)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        if exc.msg == "Extra data":  # several JSON values: read it as JSONL
            return _jsonl(text, name)
        raise InputError(
            f"{name} line {exc.lineno} column {exc.colno}: not valid JSON ({exc.msg})"
        ) from exc
    if isinstance(data, list):
        return [(f"{name}[{i}]", v) for i, v in enumerate(data)]
    return [(name, data)]


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


def _message(value: object, where: str) -> dict[str, Any]:
    if not isinstance(value, Mapping):
        raise InputError(f"{where}: a chat message must be an object with 'role' and 'content'")
    try:
        _Message.model_validate(value)
    except ValidationError as exc:
        raise InputError(f"{where}: not an OpenAI chat message: {_problems(exc)}") from exc
    return dict(value)


def _chat_updates(
    messages: list[tuple[str, dict[str, Any]]], settings: Settings, count: Callable[[str], int]
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


def _conversation(value: object, where: str) -> list[tuple[str, dict[str, Any]]]:
    if not isinstance(value, list) or not value:
        raise InputError(f"{where}: 'messages' must be a non-empty list of chat messages")
    return [(f"{where}[{j}]", _message(m, f"{where}[{j}]")) for j, m in enumerate(value)]


def _locomo_updates(sample: Mapping[str, Any], where: str) -> list[Update]:
    conv = sample.get("conversation")
    sample_id = sample.get("sample_id")
    if isinstance(sample_id, str):
        where = f"{where} ({sample_id})"
    if not isinstance(conv, Mapping):
        raise InputError(f"{where}: 'conversation' must be an object with session_N lists")
    sessions = sorted(
        (int(m.group(1)), key) for key in conv if (m := _SESSION.match(str(key))) is not None
    )
    if not sessions:
        raise InputError(f"{where}: the conversation has no session_1, session_2, ... lists")
    speakers = [conv.get("speaker_a"), conv.get("speaker_b")]
    updates = []
    for n, key in sessions:
        here = f"{where} {key}"
        raw = conv[key]
        if not isinstance(raw, list):
            raise InputError(f"{here}: must be a list of turns {{speaker, dia_id, text}}")
        turns = []
        for j, item in enumerate(raw):
            try:
                turns.append(_Turn.model_validate(item))
            except ValidationError as exc:
                raise InputError(f"{here}[{j}]: not a LoCoMo turn: {_problems(exc)}") from exc
        if not any(t.text.strip() or t.blip_caption for t in turns):
            continue  # an empty session: nothing was said
        names = [s for s in speakers if isinstance(s, str) and s] or list(
            dict.fromkeys(t.speaker for t in turns)
        )
        date = conv.get(f"{key}_date_time")
        header = f"Session {n} of the conversation between {' and '.join(names)}"
        header += f" ({date})." if isinstance(date, str) and date.strip() else "."
        messages: list[dict[str, Any]] = [{"role": "user", "content": header}]
        locs = [here]
        for j, t in enumerate(turns):
            text = t.text.strip()
            if t.blip_caption:
                text = f"{text} [shares a photo: {t.blip_caption}]".strip()
            messages.append({"role": "user", "content": f"{t.speaker}: {text}"})
            locs.append(f"{here}[{j}]" + (f" ({t.dia_id})" if t.dia_id else ""))
        updates.append(Update(here, messages, locs))
    return updates


def plan_values(
    values: Sequence[tuple[str, object]],
    settings: Settings,
    *,
    samples: Sequence[str] = (),
    count: Callable[[str], int] | None = None,
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
        if isinstance(value, Mapping) and "conversation" in value:
            flush()
            sid = value.get("sample_id")
            seen.append(str(sid))
            if not samples or sid in samples:
                updates.extend(_locomo_updates(value, where))
        elif isinstance(value, Mapping) and "role" in value:
            pending.append((where, _message(value, where)))
        elif isinstance(value, Mapping) and "messages" in value:
            flush()
            conversation = _conversation(value["messages"], f"{where}.messages")
            updates.extend(_chat_updates(conversation, settings, counter))
        elif isinstance(value, list):
            flush()
            updates.extend(_chat_updates(_conversation(value, where), settings, counter))
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
            raise InputError(u.locate(str(exc))) from exc
    return updates


def plan_file(path: Path, settings: Settings, *, samples: Sequence[str] = ()) -> list[Update]:
    """Read and check ``path`` (see the module docstring); the update_memory calls to make."""
    values = _values(path, _read(path))
    if not values:
        raise InputError(f"{path.name} is empty: give chat messages or a LoCoMo conversation")
    updates = plan_values(values, settings, samples=samples)
    if not updates:
        raise InputError(f"{path.name} holds no conversation turns to remember")
    return updates


def ingest(
    mem: Memory,
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
            result = mem.update_memory(u.messages, user_id=user_id)
        except InputError as exc:
            raise InputError(u.locate(str(exc))) from exc
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
