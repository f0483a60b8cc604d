"""The context builder's pure pieces: a build's inputs checked, the system messages, the report.

:class:`SystemSections` is the system part of the context while it is built: the soul, each
section's source and fitted text, the cuts made. It becomes two messages: the main system
message (the soul, then the daily log, awareness and recall sections) and the memory in a
system message of its own, ``<memory>…</memory>``, right after it (see docs/design.md).
It counts no tokens: the builder does, with its cached counter, and :func:`fit_section` is
given the counter to use. :func:`fit_memory` cuts a memory block by chapter: never the
Bedrock while it alone fits.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from ..errors import InputError
from ..models import Hit
from ..text import Count
from .budget import cut_to_tokens, fit_items, fit_paragraphs, fit_tail, split_blocks
from .built import ContextReport, Cut, compaction_info, cut_reason, system_text
from .conversation import Conversation
from .memory_block import CHAPTER_HEADINGS, SHORT_TERM_HEADING
from .session import Session

__all__ = [
    "SACRIFICE",
    "SECTIONS",
    "SystemSections",
    "check_build",
    "context_report",
    "drop_repeated",
    "fit_memory",
    "fit_section",
    "repeated_cut",
    "section_reason",
]

#: The system sections after the soul: the memory in a message of its own, the others in
#: the main system message in this order.
SECTIONS: Final = ("memory", "daily_log", "awareness", "recall")
#: When the system sections together are over budget, these give way first (soul never).
SACRIFICE: Final = ("recall", "daily_log", "awareness", "memory")
_BEDROCK: Final = CHAPTER_HEADINGS["Bedrock"]
#: A memory block's chapters in the order their paragraphs give way; the Bedrock comes last.
_GIVE_WAY: Final = (
    SHORT_TERM_HEADING,
    CHAPTER_HEADINGS["Dynamic"],
    CHAPTER_HEADINGS["Evolutionary"],
)
_CHAPTERS: Final = frozenset({_BEDROCK, *_GIVE_WAY})


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


def fit_section(name: str, text: str, budget: int, count: Count) -> tuple[str, int, str]:
    """Section ``name``'s ``text`` within ``budget``, how many paragraphs, lines or items
    went, and a note on the memory's chapters (:func:`fit_memory`; else ``""``): the memory
    loses paragraphs (headings kept), the daily log its oldest lines; awareness and recall
    are items in priority order and lose the last."""
    note = ""
    if name == "memory":
        fitted, dropped, note = fit_memory(text, budget, count)
    elif name == "daily_log":
        fitted, dropped = fit_tail([ln for ln in text.split("\n") if ln.strip()], budget, count)
    else:
        fitted, dropped = fit_items(text.split("\n"), budget, count)
    return fitted, 0 if fitted == text else dropped, "" if fitted == text else note


def fit_memory(text: str, budget: int, count: Count) -> tuple[str, int, str]:
    """A memory ``text`` within ``budget``: (text, paragraphs dropped, note on what went).

    A block in the chapters ``get_relevant_memories`` writes (``## Bedrock``, ``##
    Evolutionary``, ``## Dynamic``, ``## Short-term``) gives way by chapter: any text outside
    them (before the first, or under a heading that names none), then the short-term
    summaries, then Dynamic, then Evolutionary, then the other chapters' headings; the
    Bedrock is never cut while it alone fits the budget, and then only its beginning is kept,
    visibly cut (the note says so). Within a chapter
    the last paragraphs go first: the summaries are ranked best first and the chapters are
    written newest first (see docs/design.md). Any other text is cut by
    :func:`~recall.context.budget.fit_paragraphs` (oldest paragraphs first, headings kept).
    """
    blocks = split_blocks(text)
    chapter, where = "", []
    for head, block in blocks:
        if head:  # a heading that names no chapter ends the chapter before it
            chapter = block.strip() if block.strip() in _CHAPTERS else ""
        where.append(chapter)
    if not any(where):
        fitted, dropped = fit_paragraphs(text, budget, count)
        return fitted, dropped, ""
    paras = [i for i, (head, _) in enumerate(blocks) if not head]
    if count(text) <= budget:
        return text, 0, ""
    order = [i for i in paras if not where[i]]
    for name in _GIVE_WAY:
        order += reversed([i for i in paras if where[i] == name])
    order += reversed([i for i, (head, _) in enumerate(blocks) if head and where[i] != _BEDROCK])
    costs = [count(b) + 1 for _, b in blocks]  # +1: the blank line joining blocks
    keep = [True] * len(blocks)
    total = sum(costs)
    lost: Counter[str] = Counter()
    for i in [*order, -1]:
        if total <= budget or i < 0:  # the estimate fits (or all went): check exactly
            out = "\n\n".join(b for k, (_, b) in enumerate(blocks) if keep[k])
            if out and count(out) <= budget:
                return out, sum(lost.values()), _memory_note(lost, _BEDROCK in where, False)
        if i < 0:
            break
        keep[i] = False
        total -= costs[i]
        lost[where[i][3:] or "text outside the chapters"] += 0 if blocks[i][0] else 1
    # Not even the Bedrock alone fits: its beginning, cut visibly, beats no Bedrock at all.
    bedrock = "\n\n".join(b for k, (_, b) in enumerate(blocks) if where[k] == _BEDROCK)
    others = [i for i in order if not blocks[i][0]]  # without a Bedrock: the last to go
    last = bedrock or (blocks[others[-1]][1] if others else "")
    out = cut_to_tokens(last, budget, count) if budget > 0 else ""
    if bedrock and len(out.split("…[truncated ")[0]) <= len(_BEDROCK) + 2:
        out = ""  # a cut that keeps none of the Bedrock's own text is no Bedrock
    lost["Bedrock"] = sum(1 for i in paras if where[i] == _BEDROCK and blocks[i][1] not in out)
    return out, sum(lost.values()), _memory_note(lost, bool(bedrock), True)


def _memory_note(lost: Counter[str], bedrock: bool, cut: bool) -> str:
    parts = ", ".join(f"{n} {name}" for name, n in lost.items() if n and name != "Bedrock")
    if bedrock:
        state = "the Bedrock alone is over the room: cut" if cut else "the Bedrock kept whole"
        parts = f"{parts}; {state}" if parts else state
    return parts


def section_reason(name: str, dropped: int, note: str, what: str) -> str:
    """Why section ``name`` was cut, in words for the report (``note``: see fit_section)."""
    if not note:
        return cut_reason(name, dropped, what)
    return f"over {what}: dropped {dropped} paragraphs ({note})"


@dataclass
class SystemSections:
    """The system messages while they are built: the soul, then the sections that fit.

    ``limit`` is what the messages may hold less the main one's overhead (the system
    budget, or less where the window beside the user's turn is smaller); ``wraps`` each
    section's tags and join (the memory's: its tags and its own message's overhead).
    """

    soul: str
    soul_tokens: int
    limit: int
    wraps: dict[str, int]
    sources: dict[str, str] = field(default_factory=dict)  # each section's text before cuts
    content: dict[str, tuple[str, int]] = field(default_factory=dict)  # fitted text, tokens
    cuts: dict[str, Cut] = field(default_factory=dict)

    def text(self) -> str:
        """The main system message as it stands: the soul, then each section in its tags,
        all but the memory."""
        return system_text(self.soul, {k: v for k, v in self.content.items() if k != "memory"})

    def memory_text(self) -> str:
        """The memory message's content, ``<memory>…</memory>``; ``""`` without a memory."""
        memory = self.content.get("memory")
        return system_text("", {"memory": memory}) if memory else ""

    def messages(self) -> list[dict[str, Any]]:
        """The main system message, then the memory's own system message if there is one."""
        main = {"role": "system", "content": self.text()}
        memory = self.memory_text()
        return [main, {"role": "system", "content": memory}] if memory else [main]

    def keep(self, name: str, fitted: str, tokens: int) -> int:
        """Section ``name`` now holds ``fitted``; its tokens, 0 when it went empty (an
        empty section would still cost its tags, so it is left out)."""
        if fitted.strip():
            self.content[name] = (fitted, tokens)
            return tokens
        self.content.pop(name, None)
        return 0

    def tokens(self) -> dict[str, int]:
        """Tokens of each section, tags included (0 when left out)."""
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
    """The report of one build: tokens per section, the cuts in the order made, usage, and
    the session's usage warning (asking for it starts that level's cooldown)."""
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
        warning=session.warning(),
    )
