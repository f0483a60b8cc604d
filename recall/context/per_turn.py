"""Per-turn summaries: a recorded reply's summary goes to the memory, in the background.

A :class:`~recall.context.session.Session` made with ``per_turn_summaries=True`` keeps the
conversation since its states last went to the memory (:class:`TurnStates`). When the
model's reply is recorded (``session.record_reply``), the turn's one-line summary, which
the model wrote beside its answer (``{"answer", "summary"}``, see
:mod:`recall.lifecycle.answer`), goes to ``update_memory(summary, background=True)``:
journaled and stored by the memory's worker, so the turn never waits for it. Once the
states reach ``summarize_threshold_tokens`` (80,000) they go instead, to be summarized as
one short-term summary, and start again empty. So a short chat leaves its summaries in
memory, and a long one is summarized as the memory design asks (see docs/design.md).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, Protocol

from ..lifecycle.answer import AnswerWithSummary
from ..settings import Settings

if TYPE_CHECKING:
    from ..lifecycle.pipeline import UpdateResult

__all__ = ["RecordedTurn", "Sent", "SummarySink", "TurnStates"]

#: What a recorded turn sent to the memory: its summary, the states, or nothing.
Sent = Literal["summary", "states"] | None


class SummarySink(Protocol):
    """Where a bound session sends its summaries: a :class:`recall.Memory`."""

    @property
    def settings(self) -> Settings: ...

    def update_memory(
        self, states: str | Sequence[Any], *, user_id: str, background: bool = False
    ) -> UpdateResult: ...

    def should_summarize(self, messages: Sequence[Any]) -> bool: ...

    def flush(self, timeout: float | None = None) -> bool: ...


@dataclass(frozen=True)
class RecordedTurn:
    """A recorded reply: the answer and summary read, what went to the memory, and the
    memory's answer (queued: ``memory.flush()`` waits for it)."""

    reply: AnswerWithSummary
    sent: Sent
    update: UpdateResult | None


class TurnStates:
    """The conversation since its states last went to the memory, and its tokens.

    The messages are the session's own dicts (a tool call joining the last assistant
    message is seen here too); the tokens are the session's counts, so deciding whether to
    ask ``should_summarize`` costs nothing until they reach the threshold.
    """

    def __init__(self, threshold_tokens: int) -> None:
        self.threshold_tokens = threshold_tokens
        self.messages: list[Mapping[str, Any]] = []
        self.tokens = 0

    def add(self, message: Mapping[str, Any], tokens: int) -> None:
        """A message joined the conversation, costing ``tokens``."""
        self.messages.append(message)
        self.tokens += tokens

    def grew(self, tokens: int) -> None:
        """The last message was counted again (a tool call joined it): ``tokens`` more."""
        self.tokens += tokens

    def send(self, sink: SummarySink, user_id: str, summary: str) -> tuple[Sent, UpdateResult]:
        """Send the states when they reach the threshold, else the turn's ``summary``;
        in the background either way."""
        if self.tokens >= self.threshold_tokens and sink.should_summarize(self.messages):
            states = [dict(m) for m in self.messages]
            self.messages, self.tokens = [], 0
            return "states", sink.update_memory(states, user_id=user_id, background=True)
        return "summary", sink.update_memory(summary, user_id=user_id, background=True)
