"""How full the model's window is: the usage level, its warning, and the warnings' cooldown.

Usage is measured against ``context_window_tokens``, the model's whole window, and what
counts as used is everything a session sends (its history, the compaction summary and the
restored items): the system prompt and the user's next turn come on top, and the builder
fits those. Each level has a message and a suggested action: 60% warning (wrap up or
summarize), 80% urgent (compaction soon), 92% critical (compacting now). The same level's
warning is not repeated within ``warning_cooldown_s`` (5 minutes), so that a host showing
every warning does not nag on every turn; critical always fires, since it changes the
conversation. Where these numbers come from: see docs/design.md.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final, Literal

from ..settings import ContextSettings
from .budget import Level, Usage, progress_bar, rounds_left, usage_level

__all__ = ["Action", "UsageWarning", "UsageWarnings", "measure_usage", "usage_warning"]

#: What a host may do about a warning: tell the user to wrap up, summarize (or call
#: ``session.compact()``) before it is forced, nothing (the session compacts by itself), or
#: compact now (a session without ``auto_compact``).
Action = Literal["wrap_up", "summarize", "auto_compact", "compact"]

_ADVICE: Final[dict[Level, tuple[str, Action]]] = {
    "warning": ("consider wrapping up or summarizing", "wrap_up"),
    "urgent": ("compaction soon", "summarize"),
    "critical": ("compacting now", "auto_compact"),
}
_NO_AUTO: Final[tuple[str, Action]] = ("compact now", "compact")


@dataclass(frozen=True)
class UsageWarning:
    """One usage warning: its level, a message for the user, the suggested action for the
    host, and the rounds (user turn + reply) estimated before the critical level."""

    level: Level
    message: str
    action: Action
    rounds_left: int


def measure_usage(
    used: int, *, history_tokens: int, rounds: int, settings: ContextSettings
) -> Usage:
    """``used`` tokens of the model's window: the ratio, level, rounds left and a bar.

    ``history_tokens`` over ``rounds`` user turns is the cost of a round; before the first
    round the estimate is ``round_share_estimate`` (1.75%) of the window.
    """
    window = settings.context_window_tokens
    ratio = used / window
    per_round = history_tokens / rounds if rounds else settings.round_share_estimate * window
    level = usage_level(
        ratio,
        warning=settings.warning_ratio,
        urgent=settings.urgent_ratio,
        critical=settings.critical_ratio,
    )
    left = rounds_left(used, window, critical=settings.critical_ratio, per_round=per_round)
    return Usage(used, window, ratio, level, left, progress_bar(ratio))


def usage_warning(usage: Usage, *, auto_compact: bool = True) -> UsageWarning | None:
    """The warning for ``usage``'s level (None at normal), with no cooldown applied.

    ``auto_compact`` says whether the session compacts by itself at the critical level;
    without it the critical warning asks the host to compact now.
    """
    if usage.level == "normal":
        return None
    advice, action = _ADVICE[usage.level]
    if usage.level == "critical" and not auto_compact:
        advice, action = _NO_AUTO
    percent = round(usage.ratio * 100)
    return UsageWarning(
        usage.level, f"context {percent}% full: {advice}", action, usage.rounds_left
    )


class UsageWarnings:
    """Which of a session's warnings to show: each level at most once per ``cooldown_s``
    (critical always), and the warning of a compaction the critical level forced, kept
    until it is shown (by then the session has compacted and is no longer critical)."""

    def __init__(self, cooldown_s: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.cooldown_s = cooldown_s
        self._clock = clock
        self._shown: dict[Level, float] = {}
        self._forced: UsageWarning | None = None

    def compacting(self, usage: Usage) -> None:
        """The session is compacting at ``usage`` because the critical level was reached."""
        self._forced = usage_warning(usage)

    def next(self, usage: Usage, *, auto_compact: bool = True) -> UsageWarning | None:
        """The warning to show now for ``usage``; None at normal or within the cooldown."""
        now = self._clock()
        warning = self._forced or usage_warning(usage, auto_compact=auto_compact)
        self._forced = None
        if warning is None:
            return None
        shown = self._shown.get(warning.level)
        if warning.level != "critical" and shown is not None and now - shown < self.cooldown_s:
            return None
        self._shown[warning.level] = now
        return warning
