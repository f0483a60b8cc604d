"""The budgeted context builder: memory, recall hits and history in, messages for the LLM out.

:meth:`ContextBuilder.build` takes the context's parts in order, one step each. The main
system message: the soul (never cut; over its budget is a
:class:`~recall.errors.ConfigError`), the daily log (oldest lines first), the awareness list
(cached ``awareness_cache_s``) and the deep_recall hits (best first, with source and date).
Right after it, a system message of its own: the memory, ``<memory>…</memory>`` (a text cut
by :func:`~recall.context.system_sections.fit_memory`: the Bedrock never while it alone fits, or
facts ranked by :mod:`recall.context.facts`). Both count within the system budget and are
fitted to it and to what the window leaves beside the user's turn. Then the compaction
summary and restored items, the history (newest first within its budget, tool calls kept
with their results) and the user's turn. The whole never exceeds ``context_window_tokens``;
every cut is reported with its reason. Where the budgets come from: see docs/design.md.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ..errors import ConfigError, InputError
from ..index.embed import Embedder
from ..models import Hit
from ..settings import Settings
from ..text import Count, message_tokens
from .awareness import AwarenessProvider, CachedAwareness
from .built import (
    AwarenessItem,
    BuiltContext,
    ContextReport,
    Cut,
    optional_text,
    recall_lines,
    render_awareness,
)
from .conversation import Conversation, fit_conversation
from .facts import embedder_of, format_memory_for_injection
from .inputs import as_settings, token_counter
from .session import Session
from .system_sections import (
    SACRIFICE,
    SECTIONS,
    SystemSections,
    check_build,
    context_report,
    drop_repeated,
    fit_section,
    repeated_cut,
    section_reason,
)

# drop_repeated is re-exported: it lived here before moving to recall.context.system_sections.
__all__ = ["BuiltContext", "ContextBuilder", "ContextReport", "Cut", "drop_repeated"]

Awareness = (
    str | Sequence[AwarenessItem] | Callable[[], str | Sequence[AwarenessItem]] | AwarenessProvider
)

_CACHE_SIZE = 64


class ContextBuilder:
    """Builds budgeted contexts; reusable across turns (it caches section fits)."""

    def __init__(
        self,
        settings: Settings | Mapping[str, Any] | None = None,
        *,
        clock: Callable[[], float] = time.monotonic,
        embedder: Embedder | None = None,
    ) -> None:
        s = self.settings = as_settings(settings)
        self.embedder = embedder  #: ranks facts by meaning too; unset: a bound memory's
        if s.context.soul_budget_tokens > s.context.system_budget_tokens:
            raise ConfigError(
                f"soul_budget_tokens={s.context.soul_budget_tokens:,} is over system_budget_tokens="
                f"{s.context.system_budget_tokens:,}: the soul must fit the system message"
            )
        self._clock = clock
        self.count: Count = token_counter(s)
        self._awareness: CachedAwareness | None = None
        self._fits: dict[tuple[str, str, int], tuple[str, int, int, int, str]] = {}
        self._counts: dict[str, int] = {}

    # --- public ---------------------------------------------------------------------------
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
        ``memory`` is a text (``get_relevant_memories``; cut by paragraphs, the Bedrock last)
        or a list of facts, ranked for this conversation by
        :func:`recall.format_memory_for_injection`; either becomes its own system message.
        """
        hits = check_build(session, soul, user_input, recall_hits)
        turn, turn_t = self._user_turn(user_input)
        system = self._soul(soul, turn_t)
        memory_text = self._memory_text(memory, session, user_input)
        self._section(system, "memory", memory_text)
        self._section(system, "daily_log", optional_text(daily_log, "daily_log"))
        self._section(system, "awareness", self.awareness_text(awareness))
        self._recall(system, hits, memory_text)
        system_t = self._fit_system(system)
        window = self.settings.context.context_window_tokens
        if not session.gauge.reported:  # the level counts what goes beside the history
            session.gauge.outside_tokens = system_t
        conversation = self._conversation(session, window - system_t - turn_t)
        messages = [*system.messages(), *conversation.messages(), *([turn] if turn else [])]
        report = context_report(session, system, system_t, conversation, turn_t, window)
        return BuiltContext(messages, report)

    def section_room(self, name: str) -> int:
        """Tokens a section's text may hold: its budget less its tags and join. A memory
        block fitted to this (``get_relevant_memories(max_tokens=...)``) is never re-cut."""
        budget = int(getattr(self.settings.context, f"{name}_budget_tokens"))
        return max(0, budget - self._wrap(name))

    def awareness_text(self, awareness: Awareness | None) -> str:
        """The awareness list as text; a callable or a provider is asked at most once per
        cache period (a :class:`~recall.context.awareness.CachedAwareness` keeps its own)."""
        if awareness is None:
            return ""
        if isinstance(awareness, CachedAwareness):
            return awareness.text()
        if not callable(awareness) and not isinstance(awareness, AwarenessProvider):
            return render_awareness(awareness)
        if self._awareness is None or self._awareness.provider is not awareness:
            self._awareness = CachedAwareness(
                awareness, ttl_s=self.settings.context.awareness_cache_s, clock=self._clock
            )
        return self._awareness.text()

    # --- the steps of build, in order -----------------------------------------------------
    def _user_turn(self, user_input: str | None) -> tuple[dict[str, Any] | None, int]:
        """The user's turn as a message and its tokens; none when the turn continues."""
        if user_input is None:
            return None, 0
        turn = {"role": "user", "content": user_input}
        return turn, message_tokens(turn, self.count, self.settings.context.message_overhead_tokens)

    def _soul(self, soul: str, turn_t: int) -> SystemSections:
        """The system message begun with the soul, which is never cut: over its budget is a
        ConfigError, too long beside the user's turn for the window an InputError."""
        c = self.settings.context
        soul_t = self.count(soul)
        if soul_t > c.soul_budget_tokens or soul_t > c.system_budget_tokens:
            raise ConfigError(
                f"the soul has {soul_t:,} tokens, over soul_budget_tokens="
                f"{c.soul_budget_tokens:,} (system_budget_tokens={c.system_budget_tokens:,}); "
                "the soul is never cut: shorten it or raise RECALL_SOUL_BUDGET_TOKENS"
            )
        window = c.context_window_tokens
        limit = min(c.system_budget_tokens, window - turn_t - c.message_overhead_tokens)
        if soul_t > limit:
            raise InputError(
                f"user_input has {turn_t:,} tokens; with the soul ({soul_t:,}) it does not fit "
                f"the {window:,}-token window: shorten it or summarize it first"
            )
        return SystemSections(soul, soul_t, limit, {k: self._wrap(k) for k in SECTIONS})

    def _memory_text(
        self, memory: str | Sequence[Any] | None, session: Session, user_input: str | None
    ) -> str:
        """A memory text as is; a list of facts ranked for this conversation."""
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
            embedder=self.embedder or embedder_of(session.memory),
        )

    def _section(self, system: SystemSections, name: str, text: str) -> None:
        """Section ``name`` from ``text``, fitted to its own budget (an empty text: none)."""
        if not text.strip():
            return
        fitted, n, dropped, before, note = self._fit(name, text, self.section_room(name))
        system.sources[name] = text
        n = system.keep(name, fitted, n)
        if fitted != text:
            reason = section_reason(name, dropped, note, "its budget")
            system.cuts[name] = Cut(name, reason, before, n)

    def _recall(self, system: SystemSections, hits: list[Hit], memory_text: str) -> None:
        """The recall section: the hits best first, less those the memory already holds."""
        kept, repeated = drop_repeated(hits, memory_text)
        self._section(system, "recall", recall_lines(kept))
        if repeated:
            before = self.count(recall_lines(hits))
            after = system.content.get("recall", ("", 0))[1]
            previous = system.cuts.get("recall")
            system.cuts["recall"] = repeated_cut(previous, repeated, before, after)

    def _fit_system(self, system: SystemSections) -> int:
        """The system messages fitted to the limit; their tokens. Over it, the sections give
        way lowest priority first, each refitted to what is left; should the joins alone
        still be over, whole sections go. The soul stays."""
        for name in SACRIFICE:
            over = self._system_cost(system) - system.limit
            if over <= 0:
                break
            if name in system.content:
                self._shrink(system, name, over)
        for name in SACRIFICE:
            if self._system_cost(system) <= system.limit:
                break
            if name in system.content:
                before = system.content.pop(name)[1]
                system.cuts[name] = Cut(name, "dropped: over the system budget", before, 0)
        return self._system_cost(system) + self._overhead

    def _system_cost(self, system: SystemSections) -> int:
        """The system messages' tokens less the main one's overhead (the limit's measure):
        the memory's own message costs its overhead within the system budget."""
        memory = system.memory_text()
        extra = self._count_cached(memory) + self._overhead if memory else 0
        return self._count_cached(system.text()) + extra

    def _shrink(self, system: SystemSections, name: str, excess: int) -> None:
        """Section ``name`` refitted ``excess`` tokens smaller, for the system budget."""
        n = system.content[name][1]
        fitted, new_n, dropped, _, note = self._fit(name, system.sources[name], max(0, n - excess))
        new_n = system.keep(name, fitted, new_n)
        before = system.cuts[name].tokens_before if name in system.cuts else n
        reason = section_reason(name, dropped, note, "the system budget")
        system.cuts[name] = Cut(name, reason, before, new_n)

    def _conversation(self, session: Session, room: int) -> Conversation:
        """The compaction summary, restored items and history that fit ``room`` tokens."""
        c = self.settings.context
        # Unset: what the system sections and turn leave (the levels decide compaction).
        budget = room if c.history_budget_tokens is None else min(c.history_budget_tokens, room)
        tokens = self._tokens_of(session)
        return fit_conversation(
            session, tokens, budget, room, self.count, c.message_overhead_tokens
        )

    # --- caches and counts ----------------------------------------------------------------
    @property
    def _overhead(self) -> int:
        return self.settings.context.message_overhead_tokens

    def _wrap(self, name: str) -> int:
        # Tags, and the join in the main message or the memory's message of its own.
        return self.count(f"<{name}>\n\n</{name}>") + (self._overhead if name == "memory" else 2)

    def _fit(self, kind: str, text: str, budget: int) -> tuple[str, int, int, int, str]:
        """(fitted text, its tokens, items dropped, tokens before, note), cached: sections
        repeat across turns, and counting a long memory every turn would dominate a build."""
        key = (kind, text, budget)
        hit = self._fits.get(key)
        if hit is not None:
            return hit
        fitted, dropped, note = fit_section(kind, text, budget, self.count)
        out = (fitted, self.count(fitted), dropped, self.count(text), note)
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

    def _tokens_of(self, session: Session) -> list[int]:
        """Each message's tokens, as the session counted them if it counts as we do."""
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
