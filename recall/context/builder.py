"""The budgeted context builder: memory, recall hits and history in, messages for the LLM out.

The system message holds the sections of seed 000, each within its budget: the soul (never
cut; over its budget is a :class:`~recall.errors.ConfigError`), the memory inside
``<memory>…</memory>`` as seed 004 injects it (paragraph-level cut keeping every ``##``
heading, oldest paragraphs first), the daily log (oldest lines first), the awareness list
(cached ``awareness_cache_s``) and the deep_recall hits (best first, with source and date).
Then come the compaction summary and restored items, the history (newest first within its
budget, tool calls kept with their results) and the user's turn. The whole never exceeds
``context_window_tokens``; every cut is reported with its reason.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ..errors import ConfigError, InputError
from ..models import Hit
from ..settings import Settings
from ..text import count_tokens
from .budget import fit_history, fit_items, fit_paragraphs, fit_tail, message_tokens
from .facts import format_memory_for_injection
from .report import (
    AwarenessItem,
    BuiltContext,
    ContextReport,
    Cut,
    compaction_info,
    cut_reason,
    optional_text,
    recall_lines,
    render_awareness,
    system_text,
)
from .restore import render_restored
from .session import Session, as_settings

__all__ = ["BuiltContext", "ContextBuilder", "ContextReport", "Cut", "drop_repeated"]

Awareness = str | Sequence[AwarenessItem] | Callable[[], str | Sequence[AwarenessItem]]

# When the system sections together are over budget, these give way first (soul never).
_SACRIFICE = ("recall", "daily_log", "awareness", "memory")
_CACHE_SIZE = 64


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


class ContextBuilder:
    """Builds budgeted contexts; reusable across turns (it caches section fits)."""

    def __init__(
        self,
        settings: Settings | Mapping[str, Any] | None = None,
        *,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        s = self.settings = as_settings(settings)
        if s.context.soul_budget_tokens > s.context.system_budget_tokens:
            raise ConfigError(
                f"soul_budget_tokens={s.context.soul_budget_tokens:,} is over system_budget_tokens="
                f"{s.context.system_budget_tokens:,}: the soul must fit the system message"
            )
        self._clock = clock
        encoding = self.settings.text.encoding
        self.count: Callable[[str], int] = lambda t: count_tokens(t, encoding)
        self._awareness: tuple[object, float, str] | None = None
        self._fits: dict[tuple[str, str, int], tuple[str, int, int, int]] = {}
        self._counts: dict[str, int] = {}

    # --- sections -----------------------------------------------------------------------
    def section_room(self, name: str) -> int:
        """Tokens a section's text may hold: its budget less its tags and join. A memory
        block fitted to this (``get_relevant_memories(max_tokens=...)``) is never re-cut."""
        budget = int(getattr(self.settings.context, f"{name}_budget_tokens"))
        return max(0, budget - self._wrap(name))

    def _wrap(self, name: str) -> int:
        return self.count(f"<{name}>\n\n</{name}>") + 2  # tags + the join

    def awareness_text(self, awareness: Awareness | None) -> str:
        """The awareness list as text; a callable is called at most once per cache period."""
        if awareness is None:
            return ""
        if not callable(awareness):
            return render_awareness(awareness)
        now = self._clock()
        cached = self._awareness
        if (
            cached
            and cached[0] is awareness
            and now - cached[1] < self.settings.context.awareness_cache_s
        ):
            return cached[2]
        text = render_awareness(awareness())
        self._awareness = (awareness, now, text)
        return text

    def _fit(self, kind: str, text: str, budget: int) -> tuple[str, int, int, int]:
        """(fitted text, its tokens, items dropped, tokens before), cached: sections repeat
        across turns, and counting a long memory again every turn would dominate a build."""
        key = (kind, text, budget)
        hit = self._fits.get(key)
        if hit is not None:
            return hit
        count = self.count
        if kind == "memory":
            fitted, dropped = fit_paragraphs(text, budget, count)
        elif kind == "daily_log":
            fitted, dropped = fit_tail([ln for ln in text.split("\n") if ln.strip()], budget, count)
        else:  # awareness and recall: items in priority order
            fitted, dropped = fit_items(text.split("\n"), budget, count)
        if fitted == text:
            dropped = 0
        out = (fitted, count(fitted), dropped, count(text))
        if len(self._fits) >= _CACHE_SIZE:
            self._fits.pop(next(iter(self._fits)))
        self._fits[key] = out
        return out

    def _count_cached(self, text: str) -> int:
        n = self._counts.get(text)
        if n is None:
            n = self.count(text)
            if len(self._counts) >= _CACHE_SIZE:
                self._counts.pop(next(iter(self._counts)))
            self._counts[text] = n
        return n

    def _memory_text(
        self, memory: str | Sequence[Any] | None, session: Session, user_input: str | None
    ) -> str:
        """A memory text as is; a list of facts ranked for this conversation (seed 004)."""
        if memory is None or isinstance(memory, str):
            return optional_text(memory, "memory")
        context = session.messages  # only its last user turns and replies are read
        if user_input:
            context.append({"role": "user", "content": user_input})
        return format_memory_for_injection(
            memory,
            max_tokens=self.settings.context.memory_budget_tokens,
            current_context=context,
            settings=self.settings,
            count=self.count,
        )

    # --- build --------------------------------------------------------------------------
    def build(
        self,
        *,
        session: Session,
        soul: str,
        user_input: str | None,
        memory: str | Sequence[Any] | None = None,
        recall_hits: Sequence[Hit] | None = None,
        daily_log: str | None = None,
        awareness: Awareness | None = None,
    ) -> BuiltContext:
        """The messages for this turn and the report; never over ``context_window_tokens``.

        ``user_input`` is the user's current turn, appended last. ``None`` continues a turn
        already in the session: after the model called a tool and the results were added
        (``session.add_tool_result``), build again with ``user_input=None``.
        ``memory`` is a text (``get_relevant_memories``; cut by paragraphs) or a list of
        facts, ranked for this conversation by :func:`recall.format_memory_for_injection`.
        """
        s, count = self.settings, self.count
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
        overhead, window = s.context.message_overhead_tokens, s.context.context_window_tokens
        soul_t = count(soul)
        if soul_t > s.context.soul_budget_tokens or soul_t > s.context.system_budget_tokens:
            raise ConfigError(
                f"the soul has {soul_t:,} tokens, over soul_budget_tokens="
                f"{s.context.soul_budget_tokens:,} "
                f"(system_budget_tokens={s.context.system_budget_tokens:,}); "
                "the soul is never cut: shorten it or raise RECALL_SOUL_BUDGET_TOKENS"
            )
        user_msg = None if user_input is None else {"role": "user", "content": user_input}
        user_t = message_tokens(user_msg, count, overhead) if user_msg is not None else 0
        sys_limit = min(s.context.system_budget_tokens, window - user_t - overhead)
        if soul_t > sys_limit:
            raise InputError(
                f"user_input has {user_t:,} tokens; with the soul ({soul_t:,}) it does not fit "
                f"the {window:,}-token window: shorten it or summarize it first"
            )

        memory_text = self._memory_text(memory, session, user_input)
        all_hits = hits
        hits, repeated = drop_repeated(hits, memory_text)
        sources = {
            "memory": (memory_text, s.context.memory_budget_tokens),
            "daily_log": (optional_text(daily_log, "daily_log"), s.context.daily_log_budget_tokens),
            "awareness": (self.awareness_text(awareness), s.context.awareness_budget_tokens),
            "recall": (recall_lines(hits), s.context.recall_budget_tokens),
        }
        cuts: dict[str, Cut] = {}
        content: dict[str, tuple[str, int]] = {}
        wrap = {k: self._wrap(k) for k in sources}
        for name, (text, budget) in sources.items():
            if not text.strip():
                continue
            fitted, n, dropped, before = self._fit(name, text, max(0, budget - wrap[name]))
            if fitted.strip():  # an empty section would still cost its tags
                content[name] = (fitted, n)
            else:
                n = 0
            if fitted != text:
                cuts[name] = Cut(name, cut_reason(name, dropped, "its budget"), before, n)

        if repeated:
            why = f"{repeated} hit(s) already in <memory> left out"
            if "recall" in cuts:
                why = f"{why}; {cuts['recall'].reason}"
            before = count(recall_lines(all_hits))
            cuts["recall"] = Cut("recall", why, before, content.get("recall", ("", 0))[1])
        sys_text = system_text(soul, content)
        sys_t = self._count_cached(sys_text) + overhead
        for name in _SACRIFICE:  # over the system budget or the window: lowest priority first
            if sys_t - overhead <= sys_limit:
                break
            if name not in content:
                continue
            fitted, n = content[name]
            excess = sys_t - overhead - sys_limit
            source_text = sources[name][0]
            new, new_n, dropped, _ = self._fit(name, source_text, max(0, n - excess))
            if new.strip():
                content[name] = (new, new_n)
            else:
                del content[name]
            before = cuts[name].tokens_before if name in cuts else n
            reason = cut_reason(name, dropped, "the system budget")
            cuts[name] = Cut(name, reason, before, new_n if new.strip() else 0)
            sys_text = system_text(soul, content)
            sys_t = self._count_cached(sys_text) + overhead
        if sys_t - overhead > sys_limit:  # the joins alone: drop whole sections
            for name in _SACRIFICE:
                if name in content and sys_t - overhead > sys_limit:
                    before = content.pop(name)[1]
                    cuts[name] = Cut(name, "dropped: over the system budget", before, 0)
                    sys_text = system_text(soul, content)
                    sys_t = self._count_cached(sys_text) + overhead

        messages: list[dict[str, Any]] = [{"role": "system", "content": sys_text}]
        room = window - sys_t - user_t
        history, hist_t, summary_t = self._history(
            session, min(s.context.history_budget_tokens, room)
        )
        kept_hist = len(history)
        dropped_hist = len(session) - kept_hist
        if dropped_hist:
            cuts["history"] = Cut(
                "history",
                f"dropped the {dropped_hist} oldest messages over the history budget; "
                "call session.compact() to summarize them instead",
                session.tokens,
                hist_t + summary_t,
            )
        if session.summary_message is not None and not summary_t:
            cuts["summary"] = Cut(
                "summary", "no room left in the window", session.summary_tokens, 0
            )
        restored_msg, restored_t = self._restored(session, room - hist_t - summary_t, cuts)
        if summary_t and session.summary_message is not None:
            messages.append(dict(session.summary_message))
        if restored_msg is not None:
            messages.append(restored_msg)
        messages.extend(dict(m) for m in history)
        if user_msg is not None:
            messages.append(user_msg)

        sections = {
            "soul": soul_t,
            **{k: (content[k][1] + wrap[k] if k in content else 0) for k in sources},
            "system": sys_t,
            "summary": summary_t,
            "restored": restored_t,
            "history": hist_t,
            "user": user_t,
        }
        usage = session.usage()
        report = ContextReport(
            total_tokens=sys_t + summary_t + restored_t + hist_t + user_t,
            budget_tokens=window,
            sections=sections,
            cuts=tuple(cuts.values()),
            level=usage.level,
            usage=usage,
            history_messages=kept_hist,
            compaction=compaction_info(session.compactions),
        )
        return BuiltContext(messages, report)

    # --- helpers ------------------------------------------------------------------------
    def _tokens_of(self, session: Session) -> list[int]:
        s, theirs = self.settings, session.settings
        if (theirs.text.encoding, theirs.context.message_overhead_tokens) == (
            s.text.encoding,
            s.context.message_overhead_tokens,
        ):
            return session.message_tokens
        # Counted under other settings: count again with ours, or the total would lie.
        return [
            message_tokens(m, self.count, s.context.message_overhead_tokens)
            for m in session.messages
        ]

    def _history(self, session: Session, budget: int) -> tuple[list[dict[str, Any]], int, int]:
        """(kept messages, their tokens, summary tokens): newest first, calls kept whole."""
        messages, tokens = session.messages, self._tokens_of(session)
        summary_t = session.summary_tokens if session.summary_message is not None else 0
        starts = [m["role"] != "tool" for m in messages]
        start, summary_t = fit_history(tokens, starts, summary_t, budget)
        return messages[start:], sum(tokens[start:]), summary_t

    def _restored(
        self, session: Session, room: int, cuts: dict[str, Cut]
    ) -> tuple[dict[str, Any] | None, int]:
        if session.restored_message is None:
            return None, 0
        if session.restored_tokens <= room:
            return dict(session.restored_message), session.restored_tokens
        # Not all fit: the best items that do (rare, so counted here rather than cached).
        overhead = self.settings.context.message_overhead_tokens
        items = list(session.restored)
        while items:
            items.pop()
            msg = {"role": "system", "content": render_restored(items)}
            n = message_tokens(msg, self.count, overhead)
            if items and n <= room:
                cuts["restored"] = Cut(
                    "restored", "over the window: dropped lowest-scored items",
                    session.restored_tokens, n,
                )  # fmt: skip
                return msg, n
        cuts["restored"] = Cut("restored", "no room left in the window", session.restored_tokens, 0)
        return None, 0
