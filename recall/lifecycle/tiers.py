"""The memory tiers the lifecycle owns, and the records it writes for them.

A user's memory is in tiers (see docs/design.md, "Memory tiers"):

- **recent**: ``short_term`` summaries (promoted by update_memory once there are more than
  ``short_term_capacity``), the ``dynamic`` passages of the long-term article, and ``note``
  records added by hand (the lifecycle never moves them);
- **archive**: the promoted summaries (``archive``, linked to the article version they fed)
  and the raw ``turn`` records of every update_memory call that received messages.

Nothing in a tier is deleted by the lifecycle: promotion turns a summary into an archived
one, and past ``segment_cap`` short-term summaries the oldest are archived unpromoted.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime, timedelta
from typing import Any

from ..models import Record
from ..store import Store, content_hash

__all__ = [
    "LIFECYCLE_KINDS",
    "TURN_ROLES",
    "archive_id",
    "capped_records",
    "conversation_digest",
    "stored_before",
    "summary_records",
    "turn_records",
]

#: Kinds the lifecycle writes and moves; any other kind is the application's own.
LIFECYCLE_KINDS = frozenset({"short_term", "dynamic", "archive", "turn", "fact"})
#: Roles whose messages are kept as raw turns: what was said, not tool plumbing.
TURN_ROLES = frozenset({"user", "assistant"})


def summary_records(
    user_id: str,
    job_id: str,
    at: datetime,
    text: str,
    payload: Mapping[str, Any],
    count: Callable[[str], int],
    keep_turns: bool,
) -> list[Record]:
    """What one update_memory call writes: its ``short_term`` summary ``st-{job_id}``,
    then (for messages, with ``keep_turns``) the messages as ``turn`` records."""
    source = "text" if "text" in payload else "messages"
    summary = Record(
        id=f"st-{job_id}",
        user_id=user_id,
        kind="short_term",
        text=text,
        created_at=at,
        tokens=count(text),
        metadata={"source": source, "job": job_id}
        | ({"digest": digest} if (digest := conversation_digest(payload)) else {}),
    )
    if "messages" in payload and keep_turns:
        return [summary, *turn_records(user_id, job_id, at, payload["messages"], count)]
    return [summary]


def conversation_digest(payload: Mapping[str, Any]) -> str | None:
    """The digest of one update_memory call's messages (role, name, text, when said), kept
    on its summary; None for a summary string."""
    if "messages" not in payload:
        return None
    said = [
        [m.get("role"), m.get("name"), m.get("content"), m.get("at")] for m in payload["messages"]
    ]
    return hashlib.sha256(json.dumps(said, ensure_ascii=False).encode()).hexdigest()


def stored_before(store: Store, user_id: str, payload: Mapping[str, Any]) -> str | None:
    """Why an update_memory call writes nothing: "" when every turn was private, the id of
    the summary (short-term or archived) of an earlier call of the user's with the same
    messages; None when it has something new to write."""
    if payload.get("messages") == []:
        return ""
    digest = conversation_digest(payload)
    if digest is None:
        return None
    for r in store.records(user_id, kinds=["short_term", "archive"]):
        if r.metadata.get("digest") == digest:
            return r.id
    return None


def turn_records(
    user_id: str,
    job_id: str,
    at: datetime,
    messages: Sequence[Mapping[str, Any]],
    count: Callable[[str], int],
) -> list[Record]:
    """The user and assistant messages of one update_memory call as ``turn`` records.

    One thread per call (``metadata.thread`` = the job id), so a hit brings its neighbours
    (:mod:`recall.index.neighbours`); each turn a microsecond after the one before, so the
    order of the conversation is the order of the records.
    """
    out = []
    for i, message in enumerate(messages):
        text = str(message.get("content") or "")
        if message.get("role") not in TURN_ROLES or not text.strip():
            continue
        meta: dict[str, Any] = {"role": message["role"], "job": job_id, "thread": job_id}
        if message.get("name"):
            meta["name"] = message["name"]
        out.append(
            Record(
                id=f"turn-{job_id}-{i:05d}",
                user_id=user_id,
                kind="turn",
                text=text,
                # The message's own time when it carried one (recall.lifecycle.states).
                created_at=_said(message) or at + timedelta(microseconds=i),
                tokens=count(text),
                metadata=meta,
            )
        )
    return out


def _said(message: Mapping[str, Any]) -> datetime | None:
    said = message.get("at")
    return datetime.fromisoformat(said) if isinstance(said, str) else None


def archive_id(record_id: str) -> str:
    """The id a record takes once archived: ``ar-`` + its id (its hash when that would be
    too long). A new id is one removal and one addition to every index."""
    return f"ar-{record_id}" if len(record_id) <= 250 else f"ar-{content_hash(record_id)}"


def capped_records(shorts: Sequence[Record], cap: int, at: datetime) -> list[Record]:
    """The short-term summaries beyond ``cap`` (oldest first) as unpromoted ``archive``
    records: a backlog that promotion cannot keep up with is kept, searchable in the
    archive tier, instead of growing the recent tier without bound."""
    excess = shorts[: max(0, len(shorts) - cap)]
    return [
        r.model_copy(
            update={
                "id": archive_id(r.id),
                "kind": "archive",
                "metadata": {**r.metadata, "summary_id": r.id, "capped_at": at.isoformat()},
            }
        )
        for r in excess
    ]
