"""The conversation part of a context: the compaction summary, restored items and history.

:func:`fit_conversation` fits them to the room the system message and the user's turn
leave in the window. The history keeps its newest messages within its budget, a tool call
never split from its result; the summary goes with it when both fit and gives way to the
newest messages when not; the restored items take what is left, best first. Pure: the
caller gives the messages' token counts and the counter.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..text import Count, message_tokens
from .budget import fit_history
from .built import Cut
from .restore import RestoredItem, render_restored
from .session import Session

__all__ = ["Conversation", "fit_conversation", "fit_restored"]


@dataclass(frozen=True)
class Conversation:
    """What follows the system message: the summary, the restored items, the history."""

    summary: Mapping[str, Any] | None
    summary_tokens: int
    restored: Mapping[str, Any] | None
    restored_tokens: int
    history: list[dict[str, Any]]
    history_tokens: int
    cuts: dict[str, Cut] = field(default_factory=dict)

    def messages(self) -> list[dict[str, Any]]:
        """The messages in context order, each a copy."""
        head = [dict(m) for m in (self.summary, self.restored) if m is not None]
        return head + [dict(m) for m in self.history]


def fit_conversation(
    session: Session,
    tokens: Sequence[int],
    budget: int,
    room: int,
    count: Count,
    overhead: int,
) -> Conversation:
    """``session``'s summary, restored items and history within ``room`` tokens, the
    history and summary within ``budget``; ``tokens`` are its messages' counts."""
    messages = session.messages
    cuts: dict[str, Cut] = {}
    summary_t = session.summary_tokens if session.summary_message is not None else 0
    starts = [m["role"] != "tool" for m in messages]
    start, summary_t = fit_history(tokens, starts, summary_t, budget)
    history, hist_t = messages[start:], sum(tokens[start:])
    if start:
        cuts["history"] = Cut(
            "history",
            f"dropped the {start} oldest messages over the history budget; "
            "call session.compact() to summarize them instead",
            session.tokens,
            hist_t + summary_t,
        )
    if session.summary_message is not None and not summary_t:
        cuts["summary"] = Cut("summary", "no room left in the window", session.summary_tokens, 0)
    restored, restored_t = session.restored_message, session.restored_tokens
    left = room - hist_t - summary_t
    if restored is not None and restored_t > left:
        restored, restored_t = fit_restored(session.restored, left, count, overhead)
        reason = "over the window: dropped lowest-scored items"
        if restored is None:
            reason = "no room left in the window"
        cuts["restored"] = Cut("restored", reason, session.restored_tokens, restored_t)
    summary = session.summary_message if summary_t else None
    return Conversation(summary, summary_t, restored, restored_t, history, hist_t, cuts)


def fit_restored(
    items: Sequence[RestoredItem], room: int, count: Count, overhead: int
) -> tuple[dict[str, Any] | None, int]:
    """The restored-items message of the best ``items`` that fit ``room`` tokens, and its
    tokens; none when not even the best one fits. Rare, so counted here, not cached."""
    kept = list(items)
    while kept:
        kept.pop()
        message = {"role": "system", "content": render_restored(kept)}
        n = message_tokens(message, count, overhead)
        if kept and n <= room:
            return message, n
    return None, 0
