"""Summarizers: conversation states in, one summary string out, within a token budget.

Two implementations behind one :class:`Summarizer` protocol:

- :class:`ExtractiveSummarizer` (offline default): picks the sentences that add the most
  content not yet covered (greedy, lazily re-scored), with extra weight on numbers, names,
  file paths and tool results, then writes them back in conversation order.
- :class:`LLMSummarizer`: asks an OpenAI-compatible model (prompts in ``recall/prompts``)
  and falls back to the extractive one, with a logged reason, when the model fails.

``structured=True`` asks for the 8-section summary (docs/design.md; the headings in
:data:`SECTIONS`, always all present), which the context builder uses when it compacts.
A summarizer is also a plain callable: ``summarizer(states, budget_tokens=600)``.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Mapping, Sequence
from string import Template
from typing import Any, Protocol, runtime_checkable

from pydantic import BaseModel, Field

from ..errors import InputError, LLMError
from ..jsonlimits import shown
from ..llm import LLMClient, load_prompt
from ..settings import Settings
from ..text import count_tokens
from .extractive import Unit, cost_of, count_with_labels, key_terms, render_units, select, units_of
from .states import check_text, render_turns, to_turns
from .summary_sections import SECTIONS, StructuredSummaryOut, allocate, route

__all__ = [
    "ExtractiveSummarizer",
    "LLMSummarizer",
    "SECTIONS",
    "States",
    "Summarizer",
    "SummaryOut",
    "make_summarizer",
]

log = logging.getLogger(__name__)

States = str | Sequence[Mapping[str, Any]]


@runtime_checkable
class Summarizer(Protocol):
    """Turns conversation states (a text or chat messages) into a summary string."""

    def summarize(self, states: States, *, budget_tokens: int, structured: bool = False) -> str:
        """A summary of ``states`` of at most ``budget_tokens`` tokens."""
        ...


def _budget(budget_tokens: int) -> int:
    if not isinstance(budget_tokens, int) or budget_tokens < 16:
        raise InputError(f"budget_tokens must be an integer >= 16, got {shown(budget_tokens)}")
    return budget_tokens


class ExtractiveSummarizer:
    """Offline, deterministic extractive summaries (the embedded default)."""

    def __init__(
        self,
        *,
        count: Callable[[str], int] = count_tokens,
        max_chars: int = 2_000_000,
    ) -> None:
        self.count = count
        self.max_chars = max_chars

    def summarize(self, states: States, *, budget_tokens: int, structured: bool = False) -> str:
        """A summary of ``states`` within ``budget_tokens`` (see the module docstring)."""
        budget = _budget(budget_tokens)
        units = self._units(states)
        if structured:
            return self._structured(units, budget)
        if count_with_labels(units, self.count) <= budget:
            return render_units(units)
        return render_units(select(units, budget, self.count))

    #: A summarizer is also a plain callable: ``summarizer(states, budget_tokens=600)``.
    __call__ = summarize

    def _units(self, states: States) -> list[Unit]:
        if isinstance(states, str):
            text = check_text(states, what="the states text", max_chars=self.max_chars)
            if not text.strip():
                raise InputError("the states text is empty: there is nothing to summarize")
            return units_of([("", "", para) for para in re.split(r"\n\s*\n", text)])
        turns = to_turns(states, max_chars=self.max_chars)
        # The host's system prompt is the same in every call: remembering it is noise.
        talk = [t for t in turns if t.role not in ("system", "developer") and t.text.strip()]
        return units_of([(_label(t.role, t.name), t.role, t.text) for t in talk or turns])

    def _structured(self, units: list[Unit], budget: int) -> str:
        heads = [f"## {name}" for name in SECTIONS]
        # Headings are never cut; "- (none)" placeholders and blank lines cost a little too.
        fixed = self.count("\n\n".join(f"{h}\n- (none)" for h in heads))
        room = budget - fixed - 8  # a few tokens of slack for the joins
        if room < 8:
            raise InputError(
                f"budget_tokens={budget} is too small for the 8 section headings; "
                f"give at least {fixed + 64}"
            )
        picks = route(units)
        terms = key_terms(units, limit=24)
        demand = [cost_of(p, self.count) for p in picks]
        demand[1] = self.count(", ".join(terms))
        demand[4] = 0  # Problem Solving is filled last with whatever is left
        shares = allocate(room, demand)
        bodies = [""] * len(SECTIONS)
        used: set[int] = set()
        spent = 0
        # Problem Solving (4) goes last: it takes whatever the others leave.
        for k in (0, 5, 3, 2, 6, 7, 1, 4):
            share = room - spent if k == 4 else shares[k]
            if k == 1:  # technical concepts: the heaviest distinct terms, as one line
                bodies[k] = self._term_line(terms, share)
            else:
                pool = [u for u in picks[k] if u.pos not in used]
                chosen = select(pool, share, self.count, bullets=True)
                used.update(u.pos for u in chosen)
                bodies[k] = render_units(chosen, bullets=True)
            spent += self.count(bodies[k]) if bodies[k] else 0
        return "\n\n".join(f"{h}\n{b or '- (none)'}" for h, b in zip(heads, bodies, strict=True))

    def _term_line(self, terms: list[str], budget: int) -> str:
        line = ""
        for term in terms:
            longer = f"{line}, {term}" if line else term
            if self.count(longer) > budget:
                break
            line = longer
        return line


def _label(role: str, name: str | None) -> str:
    if role in ("tool", "function"):
        return f"Tool result ({name})" if name else "Tool result"
    # A named speaker (OpenAI's optional "name") beats the bare role: in a group chat or an
    # ingested transcript, who said it is part of the fact.
    return f"{role.capitalize()} ({name})" if name else role.capitalize()


class SummaryOut(BaseModel):
    """The LLM's reply for a plain summary."""

    summary: str = Field(min_length=1)


class LLMSummarizer:
    """Summaries by an OpenAI-compatible model; the extractive summarizer on failure."""

    def __init__(self, client: LLMClient, fallback: ExtractiveSummarizer) -> None:
        self.client = client
        self.fallback = fallback

    def summarize(self, states: States, *, budget_tokens: int, structured: bool = False) -> str:
        """The model's summary of ``states``; offline on any LLM failure (logged)."""
        budget = _budget(budget_tokens)
        if isinstance(states, str):
            transcript = check_text(
                states, what="the states text", max_chars=self.fallback.max_chars
            )
        else:  # validated before any network call
            transcript = render_turns(to_turns(states, max_chars=self.fallback.max_chars))
        if not transcript.strip():
            raise InputError("the states are empty: there is nothing to summarize")
        name = "summarize_structured" if structured else "summarize"
        system = Template(load_prompt(name)).substitute(budget_tokens=budget)
        try:
            if structured:
                reply = self.client.structured(system, transcript, StructuredSummaryOut)
                return self._fit_sections(reply, budget)
            text = self.client.structured(system, transcript, SummaryOut).summary.strip()
        except LLMError as exc:
            log.warning("recall: LLM summary failed, using the offline summarizer: %s", exc)
            return self.fallback.summarize(states, budget_tokens=budget, structured=structured)
        if self.fallback.count(text) > budget:
            # Over budget: keep the model's most informative sentences rather than cut mid-way.
            log.info("recall: LLM summary over %d tokens; trimmed extractively", budget)
            return self.fallback.summarize(text, budget_tokens=budget)
        return text

    #: A summarizer is also a plain callable: ``summarizer(states, budget_tokens=600)``.
    __call__ = summarize

    def _fit_sections(self, reply: StructuredSummaryOut, budget: int) -> str:
        text = reply.render()
        count = self.fallback.count
        if count(text) <= budget:
            return text
        log.info("recall: LLM structured summary over %d tokens; trimmed per section", budget)
        fields = reply.model_dump()
        room = budget - count(StructuredSummaryOut(**dict.fromkeys(fields, "")).render()) - 8
        total = sum(count(v) for v in fields.values()) or 1
        trimmed = {}
        for key, value in fields.items():
            share = int(room * count(value) / total)
            units = units_of([("", "", value)])
            trimmed[key] = render_units(select(units, share, count, bullets=True), bullets=True)
        return StructuredSummaryOut(**trimmed).render()


def make_summarizer(settings: Settings, client: LLMClient | None = None) -> Summarizer:
    """The LLM summarizer when a model is configured, else the extractive one."""
    offline = ExtractiveSummarizer(
        count=lambda t: count_tokens(t, settings.text.encoding),
        max_chars=settings.lifecycle.max_states_chars,
    )
    client = client or LLMClient.from_settings(settings)
    return offline if client is None else LLMSummarizer(client, offline)
