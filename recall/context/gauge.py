"""Where a session stands in the model's window, and when it must compact.

Everything is measured against ``context_window_tokens``, the way the coding-agent notes
measure it: what the session sends (history, compaction summary, restored items) plus what
is sent beside it (the system sections of the last build, or what the model API reported
beyond the history). Compaction runs at the critical level (92%), so at any window a long
conversation passes 60% (warning), 80% (urgent) and 92% (critical) in that order; a fixed
``compact_threshold_tokens`` (the token-budget document's 30,000) can make it compact
earlier. Where the numbers come from: docs/design.md.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ..settings import ContextSettings
from .budget import Usage
from .usage import UsageWarning, UsageWarnings, measure_usage, reported_tokens

__all__ = ["Gauge"]


class Gauge:
    """One session's usage: the tokens sent beside its history, its warnings' cooldown,
    and the compaction trigger."""

    def __init__(self, settings: ContextSettings, clock: Callable[[], float] = time.monotonic):
        self.settings = settings
        #: Tokens sent beside the history: the last build's system sections (set by the
        #: builder) or, once the host reported a call's usage, what the API counted beyond
        #: the session's own count (system prompt, tool schemas, a tokenizer's difference).
        self.outside_tokens = 0
        #: True once a model API's usage was reported: the builder no longer sets
        #: ``outside_tokens``.
        self.reported = False
        self.warnings = UsageWarnings(settings.warning_cooldown_s, clock)

    def usage(self, sent: int, history: int, rounds: int) -> Usage:
        """``sent`` (the session's tokens) plus what goes beside them, of the window."""
        return measure_usage(
            sent + self.outside_tokens,
            history_tokens=history,
            rounds=rounds,
            settings=self.settings,
        )

    def report(self, usage: object, sent: int) -> int | None:
        """Take a model API's reported usage of the call whose reply the session now holds
        (``sent``: the session's tokens now); returns the tokens the API counted, or None
        when the object says nothing (the session's own count stays)."""
        total = reported_tokens(usage)
        if total is None:
            return None
        self.outside_tokens = max(0, total - sent)
        self.reported = True
        return total

    def due(self, *, history: int, sent: int, messages: int, summarized: bool) -> bool:
        """Whether to compact: at the critical level of the window (or at a set
        ``compact_threshold_tokens`` of history), once the messages (``messages`` tokens)
        have grown halfway from the target back to the trigger since the last compaction.

        The second condition stops thrashing: a summary plus the kept messages can be over
        the trigger on their own, and compacting again after every message would only
        summarize the summary."""
        c = self.settings
        critical = c.critical_ratio * c.context_window_tokens - self.outside_tokens
        threshold = c.compact_threshold_tokens
        trigger = critical if threshold is None else min(threshold, critical)
        full = sent >= critical or (threshold is not None and history >= threshold)
        grown = messages >= (min(c.compact_target_tokens, trigger) + trigger) / 2
        return full and (not summarized or grown)

    def compacting(
        self, usage: Usage, messages: Sequence[Mapping[str, Any]]
    ) -> tuple[UsageWarning | None, UsageWarning | None]:
        """The warnings of a compaction about to run at ``usage``: before ("compacting
        now") and after (with its completion message); (None, None) below critical."""
        return self.warnings.compacting(usage, messages)

    def next(
        self, usage: Usage, *, auto_compact: bool, messages: Sequence[Mapping[str, Any]]
    ) -> UsageWarning | None:
        """The warning to show now (see :class:`~recall.context.usage.UsageWarnings`)."""
        return self.warnings.next(usage, auto_compact=auto_compact, messages=messages)
