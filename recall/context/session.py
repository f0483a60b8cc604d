"""A conversation as OpenAI-format messages, each with its token count computed once.

History is budgeted in tokens, not messages, and tool calls are first-class history
(:mod:`recall.context.tool_calls`: input cut at 500 characters, results at 1,000, visibly).
Usage is measured against the model's window (:mod:`recall.context.gauge`): a level
(normal, warning 60%, urgent 80%, critical 92%), rounds left and a text bar, and a warning
with a message and a suggested action, each level at most once per cooldown; a model API's
reported usage (:meth:`Session.record_usage`) replaces recall's own count of what is sent
beside the history. At the critical level (or a set ``compact_threshold_tokens``) the older
messages are compacted (:mod:`recall.context.compaction`); a session bound to a memory sends
the summary through ``update_memory``, and with ``per_turn_summaries`` each recorded reply's
summary too (:mod:`recall.context.per_turn`). Where the defaults come from: see
docs/design.md.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from ..errors import InputError
from ..lifecycle.answer import AnswerWithSummary, parse_answer_with_summary
from ..lifecycle.summarize import Summarizer, make_summarizer
from ..models import require_text, require_user_id
from ..settings import Settings
from ..text import Count, message_tokens
from .budget import Usage
from .compaction import Compaction, compact_history
from .gauge import Gauge
from .inputs import as_settings, token_counter
from .openai_messages import add_openai_message
from .per_turn import RecordedTurn, SummarySink, TurnStates
from .proposal import ProposalDecision, ProposalState
from .restore import RestoredItem, render_restored
from .tool_calls import ToolCalls
from .usage import UsageWarning
from .workfiles import FileReader, WorkFiles

# as_settings is re-exported: it lived here before moving to recall.context.inputs;
# SummarySink before moving to recall.context.per_turn.
__all__ = ["Session", "SummarySink", "Usage", "as_settings"]


class Session:
    """The conversation so far; bound to a memory (``memory`` + ``user_id``) or not.

    Messages are plain OpenAI chat dicts; treat what :attr:`messages` returns as read-only.
    With ``auto_compact`` (the default) adding a message past the threshold compacts. With
    ``per_turn_summaries`` (a bound session) :meth:`record_reply` sends each turn's summary
    to the memory. ``clock`` times the warnings' cooldown. ``on_compaction`` is called with
    the critical warning ("compacting now") before an automatic compaction runs, and with
    the same warning carrying its completion message after it ran. ``read_file`` (a path →
    its text now, or None; :func:`~recall.context.workfiles.disk_reader`) gives restored
    files their content as it is on disk, over what the conversation showed.
    """

    def __init__(
        self,
        memory: SummarySink | None = None,
        user_id: str | None = None,
        *,
        settings: Settings | Mapping[str, Any] | None = None,
        summarizer: Summarizer | None = None,
        auto_compact: bool = True,
        per_turn_summaries: bool = False,
        clock: Callable[[], float] = time.monotonic,
        on_compaction: Callable[[UsageWarning], object] | None = None,
        read_file: FileReader | None = None,
    ) -> None:
        if memory is not None and user_id is None:
            raise InputError("a Session bound to a memory needs user_id=... to store summaries")
        if per_turn_summaries and memory is None:
            raise InputError("per_turn_summaries needs a memory: Session(memory, user_id, ...)")
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
        self.gauge = Gauge(self.settings.context, clock)
        self.on_compaction = on_compaction
        self.files = WorkFiles()  # the files the calls worked on, by path (restore)
        self.read_file = read_file
        self.proposal = ProposalState()  # the model's pending offer to recall more deeply
        threshold = self.settings.lifecycle.summarize_threshold_tokens
        self._states = TurnStates(threshold) if per_turn_summaries else None

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

    @property
    def sent_tokens(self) -> int:
        """What the session sends the model: the history, the compaction summary and the
        restored items (the system prompt and the next user turn come on top)."""
        return self.tokens + self.restored_tokens

    def usage(self) -> Usage:
        """:attr:`sent_tokens` plus what is sent beside them (``gauge.outside_tokens``) of
        ``context_window_tokens``: the level, rounds left, a bar. A round costs the
        history's average per user turn; before the first, 1.75% of the window."""
        rounds = sum(1 for m in self._messages if m["role"] == "user")
        return self.gauge.usage(self.sent_tokens, self._total, rounds)

    def record_usage(self, usage: object) -> int | None:
        """Take the usage a model API reported for the call just answered (OpenAI's
        ``response.usage``, Anthropic's, the Responses API's or Gemini's, object or dict),
        after its reply joined the session: from then on the level counts what the API
        counted beside the history. Returns the tokens it reported, None if it gave none."""
        return self.gauge.report(usage, self.sent_tokens)

    def warning(self) -> UsageWarning | None:
        """The usage warning to show now, in the conversation's language: None at normal
        usage or within ``warning_cooldown_s`` of the same level; critical always."""
        usage, messages = self.usage(), self._messages
        return self.gauge.next(usage, auto_compact=self.auto_compact, messages=messages)

    def needs_compaction(self) -> bool:
        """True at the critical level of the window (or a set ``compact_threshold_tokens``
        of history), once the messages grew back halfway since the last compaction."""
        return self.gauge.due(
            history=self.tokens,
            sent=self.sent_tokens,
            messages=self._total,
            summarized=self.summary is not None,
        )

    # --- adding -------------------------------------------------------------------------
    def add_user(self, content: str) -> ProposalDecision:
        """Append the user's message; returns what it says to a pending recall proposal."""
        self._calls.require_none_pending("a user message")
        self._append({"role": "user", "content": require_text(content, "user content")})
        return self.proposal.on_user(content)

    def add_assistant(self, content: str) -> None:
        """Append the assistant's reply."""
        self._calls.require_none_pending("an assistant message")
        self._append({"role": "assistant", "content": require_text(content, "assistant content")})
        self.proposal.on_assistant(content)

    def add_tool_use(self, name: str, input: Any, tool_use_id: str) -> None:
        """Record a tool call (input cut at ``tool_input_chars``, visibly).

        Calls made together (parallel tool calls) join the same assistant message.
        """
        call = self._calls.call(name, input, tool_use_id, self.settings.context.tool_input_chars)
        self.files.call(tool_use_id, name, input)  # the full input: its path, its text
        last = self._messages[-1] if self._messages else None
        if last is not None and last["role"] == "assistant":
            # The last message is the assistant's, so no result follows it yet: the call
            # joins it (parallel calls, or text then a call); its tokens are counted again.
            last["tool_calls"] = [*(last.get("tool_calls") or []), call]
            before = self._tokens[-1]
            self._tokens[-1] = self._cost(last)
            self._total += self._tokens[-1] - before
            if self._states is not None:
                self._states.grew(self._tokens[-1] - before)
        else:
            self._calls.require_none_pending("a new tool call")
            self._append({"role": "assistant", "content": None, "tool_calls": [call]}, check=False)
        self._calls.open(call)

    def add_tool_result(self, tool_use_id: str, content: str) -> None:
        """Record a tool's result (cut at ``tool_result_chars``; deep_recall to its budget)."""
        message = self._calls.result(tool_use_id, content, self.settings, self.count)
        self.files.result(tool_use_id, content)  # the full result (a read: the file's text)
        self._append(message)

    def add_message(self, message: Mapping[str, Any]) -> None:
        """Append an OpenAI-format message (user, assistant with tool calls, or tool)."""
        add_openai_message(self, message)

    def record_reply(self, reply: str | AnswerWithSummary) -> RecordedTurn:
        """Record the model's reply: its answer joins the history; with
        ``per_turn_summaries`` the turn's summary goes to ``update_memory(...,
        background=True)``, or the states once they reach ``summarize_threshold_tokens``.

        ``reply`` is the model's ``{"answer", "summary"}`` JSON text (read by
        :func:`~recall.lifecycle.answer.parse_answer_with_summary`, which never fails) or
        what :func:`~recall.lifecycle.answer.ask_with_summary` returned."""
        if not isinstance(reply, AnswerWithSummary):
            chars = self.settings.lifecycle.answer_summary_chars
            reply = parse_answer_with_summary(require_text(reply, "reply"), fallback_chars=chars)
        self.add_assistant(reply.answer)
        if self._states is None or self.memory is None or self.user_id is None:
            return RecordedTurn(reply, None, None)
        if not reply.summary.strip():  # an empty answer: nothing worth remembering
            return RecordedTurn(reply, None, None)
        sent, update = self._states.send(self.memory, self.user_id, reply.summary)
        return RecordedTurn(reply, sent, update)

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
            files=self.files,
            read_file=self.read_file,
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
        if self._states is not None:
            self._states.add(message, tokens)
        # Not while a call waits for its result: compaction would keep the pair anyway,
        # but summarizing half a tool exchange helps nobody.
        if check and self.auto_compact and not self._calls.pending and self.needs_compaction():
            before, after = self.gauge.compacting(self.usage(), self._messages)
            if before is not None and self.on_compaction is not None:
                self.on_compaction(before)  # "compacting now", before it runs
            self.compact()
            if after is not None and self.on_compaction is not None:
                self.on_compaction(after)
