"""The facade's memory tiers: update_memory, the short-term summaries, the long-term article.

Each method validates its input and delegates to
:class:`~recall.lifecycle.pipeline.Lifecycle` (built on first use by the core).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import date, datetime, tzinfo
from typing import TYPE_CHECKING, Any

from .. import inputs
from ..lifecycle import corrections
from ..models import require_user_id
from ..store.keyed import answer_at_commit
from .core import MemoryCore

if TYPE_CHECKING:
    from ..lifecycle.article import Article, LongTerm
    from ..lifecycle.pipeline import UpdateResult
    from ..models import Record

__all__ = ["TierMethods"]


class TierMethods(MemoryCore):
    """The lifecycle's half of :class:`recall.Memory`."""

    def update_memory(
        self,
        states: str | Sequence[Any],
        *,
        user_id: str,
        background: bool = False,
        at: datetime | None = None,
    ) -> UpdateResult:
        """Store conversation ``states`` (a summary, or chat messages to summarize) as a
        short-term summary; more than ``short_term_capacity`` promote the oldest into the
        long-term article. ``background=True`` journals the states and returns at once.
        ``at`` is when the conversation happened (default now), for importing a history."""
        return self._lifecycle().update_memory(
            states, user_id=user_id, background=background, at=at
        )

    def should_summarize(self, messages: Sequence[Any]) -> bool:
        """True once ``messages`` reach ``settings.lifecycle.summarize_threshold_tokens``."""
        return self._lifecycle().should_summarize(messages)

    def long_term(self, user_id: str, version: int | None = None) -> LongTerm:
        """The user's long-term article (Bedrock/Evolutionary/Dynamic), newest or ``version``."""
        return self._lifecycle().long_term(user_id, version)

    def short_term(self, user_id: str) -> list[Record]:
        """The user's current short-term summaries, oldest first."""
        return self._lifecycle().short_term(user_id)

    def daily_log(
        self,
        user_id: str,
        *,
        day: date | None = None,
        tz: tzinfo | None = None,
        budget_tokens: int | None = None,
    ) -> str:
        """The day's log from what the memory stored for the user: one line per exchange
        (``HH:MM asked → reply``), note and summary of that day, oldest first, the newest
        kept within ``budget_tokens`` (default ``daily_log_budget_tokens``; pass
        ``builder.section_room("daily_log")`` to give it to a builder as it is). ``day``
        defaults to today and times read in ``tz``, by default the machine's own zone."""
        from ..context.daily_log import daily_log, record_entries

        zone = tz or datetime.now().astimezone().tzinfo
        day = day or datetime.now(zone).date()
        mine = [
            r.model_copy(update={"created_at": when})
            for r in self.records(require_user_id(user_id))
            if (when := r.created_at.astimezone(zone)).date() == day
        ]
        entries = record_entries(mine, settings=self.settings)
        return daily_log(entries, budget_tokens=budget_tokens, settings=self.settings, day=day)

    def get_relevant_memories(
        self, user_input: str, *, user_id: str, max_tokens: int | None = None
    ) -> str:
        """The memory block to stitch into a prompt, within ``max_tokens`` (default
        ``settings.context.memory_budget_tokens``).

        The Bedrock chapter whole, then Evolutionary and Dynamic, then the short-term
        summaries and notes most relevant to ``user_input`` (0.6·similarity + 0.4·recency),
        as ``## ``
        sections cut by paragraphs (:mod:`recall.context.memory_block`). No deep search:
        that stays explicit (:meth:`deep_recall`).
        """
        from ..context.memory_block import relevant_memories

        uid = inputs.memory_request(user_input, user_id, max_tokens)
        profile, asked = None, None
        if self.settings.retrieval.current_facts:
            kinds = inputs.depth_kinds(None, self.settings)
            profile, asked = self._retriever.profile(uid, kinds, self.embedder(), user_input)
        return relevant_memories(
            user_input,
            self.long_term(uid),
            # Notes added by hand are ranked with the summaries: both are recent memory.
            self.records(uid, kinds=["note", "short_term"]),
            self.embedder,
            settings=self.settings,
            budget=max_tokens,
            profile=profile,
            asked=asked,
        )

    # --- corrections: each a new article version, the old ones kept ----------------------
    def forget_fact(self, user_id: str, fact: str) -> LongTerm:
        """Remove every sentence of the user's article that contains ``fact`` (case and
        spacing ignored), as a new version. The summaries and turns it came from keep it:
        :meth:`~recall.memory.forget.ForgetMethods.forget` removes it from every tier."""
        return self._revised(user_id, lambda a: corrections.forget_fact(a, fact))

    def edit_fact(self, user_id: str, old: str, new: str) -> LongTerm:
        """Replace ``old`` (exact text) with ``new`` throughout the article, as a new version."""
        return self._revised(user_id, lambda a: corrections.edit_fact(a, old, new))

    def rollback(self, user_id: str, version: int) -> LongTerm:
        """Write the chapters of ``version`` as a new version (undo it by rolling back again)."""
        uid = require_user_id(user_id)
        return self._revised(uid, lambda _: corrections.rollback_to(self._store, uid, version))

    def _revised(self, user_id: str, change: Callable[[Article], Article]) -> LongTerm:
        """:meth:`_revise` as a write of its own: a keyed write's answer (the new version)
        commits with it (:mod:`recall.store.keyed`)."""
        uid = require_user_id(user_id)
        with answer_at_commit(lambda _db: self.long_term(uid)):
            return self._revise(uid, change)

    def _revise(self, user_id: str, change: Callable[[Article], Article]) -> LongTerm:
        from ..lifecycle.corrections import revise

        life = self._lifecycle()
        uid = require_user_id(user_id)
        try:
            return revise(
                self._store,
                uid,
                change,
                passage_tokens=self.spec.passage_tokens,
                count=life.count,
                attempts=self.settings.lifecycle.promote_attempts,
            )
        finally:
            self._indexed(uid)  # the new Dynamic passages are indexed before we return

    def flush(self, timeout: float | None = None) -> bool:
        """Wait for background update_memory jobs (also resumes a crashed run's jobs)."""
        return self._lifecycle().flush(timeout)
