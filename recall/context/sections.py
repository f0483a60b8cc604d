"""The context builder's pure pieces: a build's inputs checked, the system message, the report.

:class:`SystemSections` is the system message while it is built: the soul, each section's
source and fitted text, the cuts made. It counts no tokens: the builder does, with its
cached counter, and :func:`fit_section` is given the counter to use.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Final

from ..errors import InputError
from ..models import Hit
from ..text import Count
from .budget import fit_items, fit_paragraphs, fit_tail
from .conversation import Conversation
from .report import ContextReport, Cut, compaction_info, system_text
from .session import Session

__all__ = [
    "SACRIFICE",
    "SECTIONS",
    "SystemSections",
    "check_build",
    "context_report",
    "drop_repeated",
    "fit_section",
    "repeated_cut",
]

#: The system message's sections after the soul, in message order.
SECTIONS: Final = ("memory", "daily_log", "awareness", "recall")
#: When the system sections together are over budget, these give way first (soul never).
SACRIFICE: Final = ("recall", "daily_log", "awareness", "memory")


def check_build(
    session: object, soul: object, user_input: object, recall_hits: Sequence[Hit] | None
) -> list[Hit]:
    """The recall hits as a list, once the inputs of a build are known to be usable."""
    if not isinstance(session, Session):
        raise InputError(f"session must be a recall.Session, got {type(session).__name__}")
    if session.pending_calls:
        raise InputError(
            f"tool call(s) {list(session.pending_calls)} have no result yet; add each "
            "result with session.add_tool_result(...) before building the context"
        )
    if not isinstance(soul, str):
        raise InputError(f"soul must be a string, got {type(soul).__name__}")
    if user_input is None:
        last = session.messages[-1]["role"] if len(session) else None
        if last not in ("user", "tool"):
            raise InputError(
                "user_input=None continues the current turn, so the session must end "
                "with the user's message or tool results; pass the user's turn instead"
            )
    elif not isinstance(user_input, str) or not user_input.strip():
        raise InputError("user_input must be a non-empty string: the user's current turn")
    hits = list(recall_hits or ())
    if any(not isinstance(h, Hit) for h in hits):
        raise InputError("recall_hits must be recall.Hit objects, as deep_recall returns")
    return hits


def drop_repeated(hits: Sequence[Hit], memory_text: str) -> tuple[list[Hit], int]:
    """The hits whose text the memory section does not already hold, and how many did.

    get_relevant_memories and deep_recall both draw on the short-term summaries: the same
    summary twice costs budget and tells the model nothing new. (If the memory section is
    later cut for the system budget, such a hit may be gone from both: memory is the last
    section to give way, so this is rare and reported.)
    """
    seen = " ".join(memory_text.split())
    if not seen or not hits:
        return list(hits), 0
    keep = [h for h in hits if " ".join(h.text.split()) not in seen]
    return keep, len(hits) - len(keep)


def repeated_cut(previous: Cut | None, repeated: int, before: int, after: int) -> Cut:
    """The recall section's cut once ``repeated`` hits already in ``<memory>`` were left
    out; ``before`` counts every hit's line, ``previous`` is its cut for the budget."""
    why = f"{repeated} hit(s) already in <memory> left out"
    if previous is not None:
        why = f"{why}; {previous.reason}"
    return Cut("recall", why, before, after)


def fit_section(name: str, text: str, budget: int, count: Count) -> tuple[str, int]:
    """Section ``name``'s ``text`` within ``budget``, and how many paragraphs, lines or
    items went: the memory loses its oldest paragraphs (headings kept), the daily log its
    oldest lines; awareness and recall are items in priority order and lose the last."""
    if name == "memory":
        fitted, dropped = fit_paragraphs(text, budget, count)
    elif name == "daily_log":
        fitted, dropped = fit_tail([ln for ln in text.split("\n") if ln.strip()], budget, count)
    else:
        fitted, dropped = fit_items(text.split("\n"), budget, count)
    return fitted, 0 if fitted == text else dropped


@dataclass
class SystemSections:
    """The system message while it is built: the soul, then the sections that fit.

    ``limit`` is what the message's text may hold (the system budget, or less where the
    window beside the user's turn is smaller); ``wraps`` each section's tags and join.
    """

    soul: str
    soul_tokens: int
    limit: int
    wraps: dict[str, int]
    sources: dict[str, str] = field(default_factory=dict)  # each section's text before cuts
    content: dict[str, tuple[str, int]] = field(default_factory=dict)  # fitted text, tokens
    cuts: dict[str, Cut] = field(default_factory=dict)

    def text(self) -> str:
        """The system message as it stands: the soul, then each section in its tags."""
        return system_text(self.soul, self.content)

    def keep(self, name: str, fitted: str, tokens: int) -> int:
        """Section ``name`` now holds ``fitted``; its tokens, 0 when it went empty (an
        empty section would still cost its tags, so it is left out)."""
        if fitted.strip():
            self.content[name] = (fitted, tokens)
            return tokens
        self.content.pop(name, None)
        return 0

    def tokens(self) -> dict[str, int]:
        """Tokens of each section in the message, tags included (0 when left out)."""
        return {
            k: (self.content[k][1] + self.wraps[k] if k in self.content else 0) for k in SECTIONS
        }


def context_report(
    session: Session,
    system: SystemSections,
    system_tokens: int,
    conversation: Conversation,
    user_tokens: int,
    window: int,
) -> ContextReport:
    """The report of one build: tokens per section, the cuts in the order made, usage."""
    sections = {
        "soul": system.soul_tokens,
        **system.tokens(),
        "system": system_tokens,
        "summary": conversation.summary_tokens,
        "restored": conversation.restored_tokens,
        "history": conversation.history_tokens,
        "user": user_tokens,
    }
    usage = session.usage()
    return ContextReport(
        total_tokens=system_tokens
        + conversation.summary_tokens
        + conversation.restored_tokens
        + conversation.history_tokens
        + user_tokens,
        budget_tokens=window,
        sections=sections,
        cuts=(*system.cuts.values(), *conversation.cuts.values()),
        level=usage.level,
        usage=usage,
        history_messages=len(conversation.history),
        compaction=compaction_info(session.compactions),
    )
