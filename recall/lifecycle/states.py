"""Conversation states as update_memory receives them: validated, then flattened into turns.

``states`` is either a summary string or a list of chat messages in the OpenAI format, tool
calls included. Everything is checked before anything is written, and every rejection is an
:class:`~recall.errors.InputError` that says which message is wrong and how.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any, NamedTuple

from ..errors import InputError, MessageError
from ..jsonlimits import shown
from ..models import as_utc, require_text
from ..text import parse_bound

__all__ = [
    "MessageError",
    "ROLES",
    "Turn",
    "chat_messages",
    "check_text",
    "check_time",
    "journaled",
    "newest_said",
    "render_turns",
    "to_turns",
]

#: Roles of the OpenAI chat format ("function" is the legacy tool role).
ROLES = frozenset({"system", "developer", "user", "assistant", "tool", "function"})
# Content parts that carry no text are kept as a short marker so the summary says they were
# there without inventing their content.
_MARKERS = {"image_url": "[image]", "input_audio": "[audio]", "file": "[file]"}


class Turn(NamedTuple):
    """One message flattened to text: ``role``, ``text`` and the tool ``name`` if any."""

    role: str
    text: str
    name: str | None = None
    #: When it was said: the message's own ``timestamp`` (or ``created_at``), if it has one.
    at: datetime | None = None


def _said_at(message: Mapping[str, Any]) -> datetime | None:
    """A message's own time (``timestamp``, else ``created_at``): ISO 8601, epoch seconds
    or a datetime; None when it has none."""
    value = message.get("timestamp", message.get("created_at"))
    if value is None:
        return None
    try:
        return parse_bound(value, "timestamp")
    except ValueError as exc:
        raise InputError(str(exc)) from None


def check_time(value: object) -> datetime:
    """``value`` as an aware UTC datetime: when a conversation happened."""
    if not isinstance(value, datetime):
        raise InputError(f"at must be a datetime, got {type(value).__name__}")
    return as_utc(value)


def check_text(text: str, *, what: str, max_chars: int) -> str:
    """``text`` if it is storable: not blank, no NUL, valid UTF-8, at most ``max_chars``."""
    if isinstance(text, str) and len(text) > max_chars:
        raise InputError(
            f"{what} has {len(text):,} characters, more than the {max_chars:,} allowed; "
            "summarize it first or split it into several update_memory calls"
        )
    return require_text(text, what)


def _content(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    if isinstance(value, Sequence):
        out: list[str] = []
        for j, part in enumerate(value):
            if not isinstance(part, Mapping):
                raise InputError(f"content part {j} must be an object with a 'type'")
            kind = part.get("type")
            if kind in ("text", "refusal") or "text" in part:
                text = part.get("text", part.get("refusal"))
                if not isinstance(text, str):
                    raise InputError(f"content part {j} has no string 'text'")
                out.append(text)
            elif kind in _MARKERS:
                out.append(_MARKERS[kind])
            else:
                raise InputError(f"content part {j} has unknown type {shown(kind)}")
        return "\n".join(out)
    raise InputError("'content' must be a string, a list of parts or null")


def _tool_calls(value: object, names: dict[str, str]) -> list[str]:
    if value is None:
        return []
    if not isinstance(value, Sequence) or isinstance(value, str):
        raise InputError("'tool_calls' must be a list")
    out = []
    for j, call in enumerate(value):
        fn = call.get("function") if isinstance(call, Mapping) else None
        name = fn.get("name") if isinstance(fn, Mapping) else None
        if not isinstance(name, str) or not name:
            raise InputError(f"tool call {j} needs function.name (OpenAI format)")
        args = fn.get("arguments", "") if isinstance(fn, Mapping) else ""
        if not isinstance(args, str):
            args = json.dumps(args, ensure_ascii=False)
        if isinstance(call, Mapping) and isinstance(call.get("id"), str):
            names[call["id"]] = name  # lets the tool's reply be labelled with the tool name
        out.append(f"called {name}({args})")
    return out


def _as_mapping(message: object) -> Mapping[str, Any] | None:
    if isinstance(message, Mapping):
        return message
    # Messages straight from the openai SDK are pydantic models.
    dump = getattr(message, "model_dump", None)
    if callable(dump):
        data = dump(exclude_none=True)
        return data if isinstance(data, Mapping) else None
    return None


def _turn(raw: object, names: dict[str, str]) -> Turn:
    """One message as a turn; ``names`` maps tool_call ids to tool names as they appear."""
    message = _as_mapping(raw)
    if message is None:
        raise InputError("must be an object with 'role' and 'content'")
    role = message.get("role")
    if role not in ROLES:
        raise InputError(f"unknown role {shown(role)}; use one of {sorted(ROLES)}")
    parts = [_content(message.get("content"))]
    parts += _tool_calls(message.get("tool_calls"), names)
    name = message.get("name")
    if name is not None and not isinstance(name, str):
        raise InputError("'name' must be a string")
    if role in ("tool", "function") and name is None:
        call_id = message.get("tool_call_id")
        name = names.get(call_id, call_id) if isinstance(call_id, str) else None
    text = "\n".join(p for p in parts if p.strip())
    require_text(text, "the text")
    if "\x00" in text:
        raise InputError("contains a NUL character; strip it first")
    return Turn(str(role), text, name, _said_at(message))


def to_turns(messages: object, *, max_chars: int) -> list[Turn]:
    """Validate OpenAI-format ``messages`` and flatten each into a :class:`Turn`."""
    if isinstance(messages, str | bytes) or not isinstance(messages, Sequence):
        raise InputError(f"messages must be a list of chat messages, got {type(messages).__name__}")
    if not messages:
        raise InputError("messages is empty: there is nothing to remember")
    turns: list[Turn] = []
    names: dict[str, str] = {}
    total = 0
    for i, raw in enumerate(messages):
        try:
            turn = _turn(raw, names)
        except InputError as exc:
            raise MessageError(i, str(exc)) from exc
        total += len(turn.text)
        if total > max_chars:
            raise InputError(
                f"the messages hold more than {max_chars:,} characters; call update_memory "
                "when should_summarize() first says so, or split the states"
            )
        turns.append(turn)
    if not any(t.text.strip() for t in turns):
        raise InputError("every message is empty: there is nothing to remember")
    return turns


def journaled(turns: Sequence[Turn]) -> list[dict[str, Any]]:
    """Turns as the journal keeps them: role, content, name, and when said (UTC ISO 8601,
    so the newest of a call's timestamps is the greatest string)."""
    out: list[dict[str, Any]] = []
    for t in turns:
        message: dict[str, Any] = {"role": t.role, "content": t.text, "name": t.name}
        if t.at is not None:
            message["at"] = as_utc(t.at).isoformat()
        out.append(message)
    return out


def newest_said(messages: Sequence[Mapping[str, Any]]) -> datetime | None:
    """The newest of journaled messages' own timestamps (None: they carry none)."""
    said = [str(m["at"]) for m in messages if m.get("at")]
    return datetime.fromisoformat(max(said)) if said else None


def chat_messages(messages: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Journaled messages as chat messages for a summarizer: no empty fields, no ``at``."""
    return [{k: v for k, v in m.items() if v is not None and k != "at"} for m in messages]


def render_turns(turns: Sequence[Turn]) -> str:
    """Turns as a plain transcript, one ``Role: text`` block per message."""
    return "\n\n".join(_label(t) + t.text for t in turns if t.text.strip())


def _label(turn: Turn) -> str:
    if turn.role in ("tool", "function"):
        return f"Tool result ({turn.name}): " if turn.name else "Tool result: "
    role = turn.role.capitalize()
    return f"{role} ({turn.name}): " if turn.name else f"{role}: "
