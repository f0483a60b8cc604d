"""A conversation as OpenAI-format messages, each with its token count computed once.

History is budgeted in tokens, not messages, and tool calls are first-class history
(:mod:`recall.context.tool_calls`: input cut at 500 characters, results at 1,000, visibly).
Usage is shown as a level (normal, warning 60%, urgent 80%, critical 92%), rounds left and a
text bar; where these defaults come from: see docs/design.md. When the history reaches
``compact_threshold_tokens`` (or the critical level) the older messages are compacted
(:mod:`recall.context.compaction`); a session bound to a memory sends the summary through
``update_memory``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any, Protocol

from ..errors import InputError
from ..lifecycle.summarize import Summarizer, make_summarizer
from ..models import require_user_id
from ..settings import Settings
from ..text import Count, message_tokens
from .budget import Usage, progress_bar, rounds_left, usage_level
from .compaction import Compaction, compact_history
from .inputs import as_settings, check_text, token_counter
from .restore import RestoredItem, render_restored
from .tool_calls import ToolCalls

if TYPE_CHECKING:
    from ..lifecycle.pipeline import UpdateResult


class SummarySink(Protocol):
    """Where a bound session sends its compaction summaries: a :class:`recall.Memory`."""

    @property
    def settings(self) -> Settings: ...

    def update_memory(self, states: str, *, user_id: str) -> UpdateResult: ...


# as_settings is re-exported: it lived here before moving to recall.context.inputs.
__all__ = ["Session", "SummarySink", "Usage", "as_settings"]


class Session:
    """The conversation so far; bound to a memory (``memory`` + ``user_id``) or not.

    Messages are plain OpenAI chat dicts; treat what :attr:`messages` returns as read-only.
    With ``auto_compact`` (the default) adding a message past the threshold compacts.
    """

    def __init__(
        self,
        memory: SummarySink | None = None,
        user_id: str | None = None,
        *,
        settings: Settings | Mapping[str, Any] | None = None,
        summarizer: Summarizer | None = None,
        auto_compact: bool = True,
    ) -> None:
        if memory is not None and user_id is None:
            raise InputError("a Session bound to a memory needs user_id=... to store summaries")
        if user_id is not None:
            user_id = require_user_id(user_id)
        self.memory = memory
        self.user_id = user_id
        self.settings = as_settings(settings, memory.settings if memory is not None else None)
        self.auto_compact = auto_compact
        self._summarizer = summarizer
        self.count: Count = token_counter(self.settings)
        self._messages: list[dict[str, Any]] = []
        self._tokens: list[int] = []
        self._total = 0
        self._calls = ToolCalls()
        self.summary: str | None = None
        self.summary_message: dict[str, Any] | None = None
        self.summary_tokens = 0
        self.restored: tuple[RestoredItem, ...] = ()
        self.restored_message: dict[str, Any] | None = None
        self.restored_tokens = 0
        self.compactions: list[Compaction] = []

    @classmethod
    def from_messages(cls, messages: Iterable[Mapping[str, Any]], **kwargs: Any) -> Session:
        """A session holding ``messages`` (OpenAI format), added one by one."""
        session = cls(**{"auto_compact": False, **kwargs})
        for message in messages:
            session.add_message(message)
        session.auto_compact = kwargs.get("auto_compact", True)
        return session

    # --- reading ------------------------------------------------------------------------
    @property
    def messages(self) -> list[dict[str, Any]]:
        """The history messages, oldest first (without the compaction summary)."""
        return list(self._messages)

    @property
    def message_tokens(self) -> list[int]:
        """Each message's token count, computed once when it was added."""
        return list(self._tokens)

    @property
    def pending_calls(self) -> tuple[str, ...]:
        """Tool calls still waiting for their result."""
        return self._calls.pending

    @property
    def tokens(self) -> int:
        """History tokens: the messages plus the compaction summary."""
        return self._total + self.summary_tokens

    def __len__(self) -> int:
        return len(self._messages)

    def usage(self) -> Usage:
        """Tokens used of ``history_budget_tokens``, level, estimated rounds left, bar."""
        s = self.settings
        used, budget = self.tokens, s.context.history_budget_tokens
        ratio = used / budget
        rounds = sum(1 for m in self._messages if m["role"] == "user")
        # The default assumes 1.75% of the budget per round (see docs/design.md); our own
        # average is better once known.
        per_round = self._total / rounds if rounds else s.context.round_share_estimate * budget
        level = usage_level(
            ratio,
            warning=s.context.warning_ratio,
            urgent=s.context.urgent_ratio,
            critical=s.context.critical_ratio,
        )
        left = rounds_left(used, budget, critical=s.context.critical_ratio, per_round=per_round)
        return Usage(used, budget, ratio, level, left, progress_bar(ratio))

    def needs_compaction(self) -> bool:
        """True at ``compact_threshold_tokens`` or at the critical level, once the messages
        have grown halfway from the target back to the threshold since the last compaction.

        The second condition stops thrashing: a summary plus the kept messages can be over
        the threshold on their own, and compacting again after every message would only
        summarize the summary."""
        s = self.settings
        full = (
            self.tokens >= s.context.compact_threshold_tokens
            or self.tokens >= s.context.critical_ratio * s.context.history_budget_tokens
        )
        grown = (
            self._total
            >= (s.context.compact_target_tokens + s.context.compact_threshold_tokens) / 2
        )
        return full and (self.summary is None or grown)

    # --- adding -------------------------------------------------------------------------
    def add_user(self, content: str) -> None:
        """Append the user's message."""
        self._calls.require_none_pending("a user message")
        self._append({"role": "user", "content": check_text(content, "user content")})

    def add_assistant(self, content: str) -> None:
        """Append the assistant's reply."""
        self._calls.require_none_pending("an assistant message")
        self._append({"role": "assistant", "content": check_text(content, "assistant content")})

    def add_tool_use(self, name: str, input: Any, tool_use_id: str) -> None:
        """Record a tool call (input cut at ``tool_input_chars``, visibly).

        Calls made together (parallel tool calls) join the same assistant message.
        """
        call = self._calls.call(name, input, tool_use_id, self.settings.context.tool_input_chars)
        last = self._messages[-1] if self._messages else None
        if last is not None and last["role"] == "assistant":
            # The last message is the assistant's, so no result follows it yet: the call
            # joins it (parallel calls, or text then a call); its tokens are counted again.
            last["tool_calls"] = [*(last.get("tool_calls") or []), call]
            self._total -= self._tokens[-1]
            self._tokens[-1] = self._cost(last)
            self._total += self._tokens[-1]
        else:
            self._calls.require_none_pending("a new tool call")
            self._append({"role": "assistant", "content": None, "tool_calls": [call]}, check=False)
        self._calls.open(call)

    def add_tool_result(self, tool_use_id: str, content: str) -> None:
        """Record a tool's result (cut at ``tool_result_chars``; deep_recall to its budget)."""
        self._append(self._calls.result(tool_use_id, content, self.settings, self.count))

    def add_message(self, message: Mapping[str, Any]) -> None:
        """Append an OpenAI-format message (user, assistant with tool calls, or tool)."""
        if not isinstance(message, Mapping):
            raise InputError(f"a message must be a dict, got {type(message).__name__}")
        role = message.get("role")
        if role == "user":
            self.add_user(message.get("content"))  # type: ignore[arg-type]
        elif role == "assistant":
            if message.get("content") is not None or not message.get("tool_calls"):
                self.add_assistant(message.get("content"))  # type: ignore[arg-type]
            for call in message.get("tool_calls") or ():
                fn = call.get("function") if isinstance(call, Mapping) else None
                if not isinstance(fn, Mapping):
                    raise InputError("a tool call needs 'id' and 'function' (OpenAI format)")
                self.add_tool_use(fn.get("name"), fn.get("arguments", ""), call.get("id"))  # type: ignore[arg-type]
        elif role == "tool":
            self.add_tool_result(message.get("tool_call_id"), message.get("content"))  # type: ignore[arg-type]
        else:
            raise InputError(
                f"role {role!r} does not belong in a session: use user, assistant or tool "
                "(the system prompt is the builder's soul)"
            )

    # --- compaction ---------------------------------------------------------------------
    @property
    def summarizer(self) -> Summarizer:
        """The summarizer compaction uses (the lifecycle's, made on first use)."""
        if self._summarizer is None:
            self._summarizer = make_summarizer(self.settings)
        return self._summarizer

    def compact(self) -> Compaction | None:
        """Summarize the older messages, keep the newest; None when nothing is older."""
        store = None
        if self.memory is not None and self.user_id is not None:
            memory, user_id = self.memory, self.user_id
            store = lambda states: memory.update_memory(states, user_id=user_id)  # noqa: E731
        result = compact_history(
            self._messages,
            self._tokens,
            settings=self.settings,
            summarizer=self.summarizer,
            store=store,
            previous_summary=self.summary,
            count=self.count,
        )
        if result is None:
            return None
        del self._messages[: result.keep_from]
        del self._tokens[: result.keep_from]
        self._total = sum(self._tokens)
        self.summary = result.summary
        self.summary_message = None
        self.summary_tokens = 0
        if result.summary:
            text = f"<conversation_summary>\n{result.summary}\n</conversation_summary>"
            self.summary_message = {"role": "system", "content": text}
            self.summary_tokens = self._cost(self.summary_message)
        self.restored = result.restored
        self.restored_message = None
        self.restored_tokens = 0
        if result.restored:
            self.restored_message = {"role": "system", "content": render_restored(result.restored)}
            self.restored_tokens = self._cost(self.restored_message)
        self.compactions.append(result)
        return result

    # --- internals ----------------------------------------------------------------------
    def _cost(self, message: Mapping[str, Any]) -> int:
        return message_tokens(message, self.count, self.settings.context.message_overhead_tokens)

    def _append(self, message: dict[str, Any], *, check: bool = True) -> None:
        tokens = self._cost(message)
        self._messages.append(message)
        self._tokens.append(tokens)
        self._total += tokens
        # Not while a call waits for its result: compaction would keep the pair anyway,
        # but summarizing half a tool exchange helps nobody.
        if check and self.auto_compact and not self._calls.pending and self.needs_compaction():
            self.compact()
