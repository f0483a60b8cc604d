"""How full the model's window is: the usage level, its warning, and the warnings' cooldown.

Usage is measured against ``context_window_tokens``, the model's whole window, and what
counts as used is everything a session sends (its history, the compaction summary and the
restored items): the system prompt and the user's next turn come on top, and the builder
fits those. Each level has a message and a suggested action: 60% warning (wrap up or
summarize), 80% urgent (compaction soon), 92% critical (compacting now). The same level's
warning is not repeated within ``warning_cooldown_s`` (5 minutes), so that a host showing
every warning does not nag on every turn; critical always fires, since it changes the
conversation. Where these numbers come from: see docs/design.md.

Every message follows the conversation's language (:func:`conversation_language`): in a
Chinese conversation the levels say what the product documents say ("🟡 记忆使用量较高",
"🟠 记忆空间紧张,建议手动整理", "🔴 记忆空间已满,正在整理..."), and a warning of a
compaction that has already run carries the completion message ("✅ 记忆整理完成,对话可以继续").
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Final, Literal

from ..settings import ContextSettings
from .budget import Level, Usage, progress_bar, rounds_left, usage_level
from .language import Lang, conversation_language

__all__ = [
    "Action",
    "COMPLETED",
    "Lang",
    "UsageWarning",
    "UsageWarnings",
    "conversation_language",
    "measure_usage",
    "reported_tokens",
    "usage_warning",
]

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
# The product documents' own texts (the token-budget session's three-level warnings).
_ZH: Final[dict[Level | Literal["manual"], str]] = {
    "warning": "🟡 记忆使用量较高 ({p}%)",
    "urgent": "🟠 记忆空间紧张,建议手动整理 ({p}%)",
    "critical": "🔴 记忆空间已满,正在整理... ({p}%)",
    "manual": "🔴 记忆空间已满,请立即整理 ({p}%)",
}
#: Shown once a compaction has run: the conversation goes on.
COMPLETED: Final[dict[Lang, str]] = {
    "en": "✅ memory compacted: the conversation can continue",
    "zh": "✅ 记忆整理完成,对话可以继续",
}


@dataclass(frozen=True)
class UsageWarning:
    """One usage warning: its level, a message for the user, the suggested action for the
    host, and the rounds (user turn + reply) estimated before the critical level."""

    level: Level
    message: str
    action: Action
    rounds_left: int
    #: The completion message when the compaction this warning announces has already run
    #: (the critical level compacts before the host asks for the warning), else None.
    completed: str | None = None


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


def reported_tokens(usage: object) -> int | None:
    """The tokens a model API says one call used (its input, cached parts included, plus its
    output), from the usage object or dict of its response; None when it says nothing.

    Read: OpenAI chat (``prompt_tokens`` + ``completion_tokens``; cached tokens are part of
    ``prompt_tokens``), the Responses API and Anthropic (``input_tokens`` +
    ``output_tokens``, plus Anthropic's ``cache_read_input_tokens`` and
    ``cache_creation_input_tokens``, which its ``input_tokens`` leaves out), Gemini
    (``promptTokenCount`` + ``candidatesTokenCount``).
    """
    fields = _fields(usage)
    inputs = (
        ("prompt_tokens",),
        ("input_tokens", "cache_read_input_tokens", "cache_creation_input_tokens"),
        ("promptTokenCount",),
    )
    outputs = ("completion_tokens", "output_tokens", "candidatesTokenCount")
    for names in inputs:
        if isinstance(fields.get(names[0]), int):
            used = sum(v for n in names if isinstance(v := fields.get(n), int) and v > 0)
            out = next((v for n in outputs if isinstance(v := fields.get(n), int)), 0)
            return used + max(0, out)
    return None


def _fields(usage: object) -> dict[str, Any]:
    """A usage as a dict: a mapping, a pydantic model (the SDKs' objects) or attributes."""
    if isinstance(usage, Mapping):
        return dict(usage)
    dump = getattr(usage, "model_dump", None)
    if callable(dump):
        out = dump()
        return out if isinstance(out, dict) else {}
    return dict(vars(usage)) if hasattr(usage, "__dict__") else {}


def usage_warning(
    usage: Usage, *, auto_compact: bool = True, lang: Lang = "en"
) -> UsageWarning | None:
    """The warning for ``usage``'s level (None at normal), with no cooldown applied, in
    ``lang``.

    ``auto_compact`` says whether the session compacts by itself at the critical level;
    without it the critical warning asks the host to compact now.
    """
    if usage.level == "normal":
        return None
    advice, action = _ADVICE[usage.level]
    manual = usage.level == "critical" and not auto_compact
    if manual:
        advice, action = _NO_AUTO
    percent = round(usage.ratio * 100)
    if lang == "zh":
        message = _ZH["manual" if manual else usage.level].format(p=percent)
    else:
        message = f"context {percent}% full: {advice}"
    return UsageWarning(usage.level, message, action, usage.rounds_left)


class UsageWarnings:
    """Which of a session's warnings to show: each level at most once per ``cooldown_s``
    (critical always), and the warning of a compaction the critical level forced, kept
    until it is shown (by then the session has compacted and is no longer critical)."""

    def __init__(self, cooldown_s: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.cooldown_s = cooldown_s
        self._clock = clock
        self._shown: dict[Level, float] = {}
        self._forced: UsageWarning | None = None

    def compacting(
        self, usage: Usage, messages: Sequence[Mapping[str, Any]] = ()
    ) -> tuple[UsageWarning | None, UsageWarning | None]:
        """The session is about to compact at ``usage`` (``messages``: the conversation,
        for its language): the warning before ("compacting now") and after (the same with
        its completion message, which is also the next one :meth:`next` shows); (None,
        None) below the critical level."""
        if usage.level != "critical":
            return None, None
        lang = conversation_language(messages)
        before = usage_warning(usage, lang=lang)
        self._forced = None if before is None else replace(before, completed=COMPLETED[lang])
        return before, self._forced

    def next(
        self,
        usage: Usage,
        *,
        auto_compact: bool = True,
        messages: Sequence[Mapping[str, Any]] = (),
    ) -> UsageWarning | None:
        """The warning to show now for ``usage``, in the language of ``messages`` (the
        conversation); None at normal or within the cooldown."""
        now = self._clock()
        warning = self._forced
        if warning is None and usage.level != "normal":  # the language only when warning
            lang = conversation_language(messages)
            warning = usage_warning(usage, auto_compact=auto_compact, lang=lang)
        self._forced = None
        if warning is None:
            return None
        shown = self._shown.get(warning.level)
        if warning.level != "critical" and shown is not None and now - shown < self.cooldown_s:
            return None
        self._shown[warning.level] = now
        return warning
