"""Per-turn summaries: the model answers with ``{"answer", "summary"}`` JSON.

Asking the model for its answer and a one-line summary of the turn in the same call saves a
separate summarizing call. Models sometimes break the format, so the reader degrades
instead of failing: anything that is not such a JSON object becomes the answer, and its
first 100 characters the summary. :func:`ask_with_summary` asks an OpenAI-compatible model
for both (see docs/design.md).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any, Final

from pydantic import BaseModel, Field

from ..llm import LLMClient
from ..settings import LifecycleSettings

__all__ = [
    "ANSWER_INSTRUCTION",
    "AnswerWithSummary",
    "ask_with_summary",
    "parse_answer_with_summary",
    "with_instruction",
]

_FALLBACK_CHARS: int = LifecycleSettings.model_fields["answer_summary_chars"].default

#: Appended to the system prompt of a turn asked with :func:`ask_with_summary`. It spells
#: the format out, since an endpoint without json_schema support only has the prompt.
ANSWER_INSTRUCTION: Final = (
    "Reply with one JSON object and nothing else: "
    '{"answer": "<your full reply to the user>", '
    '"summary": "<one short sentence: what the user asked or told in this turn and what '
    'you answered, with names, numbers and decisions, for long-term memory>"}'
)


class _Reply(BaseModel):
    """The JSON schema the model is asked to follow."""

    answer: str = Field(description="The full reply to the user.")
    summary: str = Field(description="One sentence summarizing this turn, for memory.")


class AnswerWithSummary(BaseModel):
    """The model's answer, the turn's summary, and whether the JSON was read as such."""

    answer: str
    summary: str
    parsed: bool


def _json_object(text: str) -> object:
    body = text.strip()
    if body.startswith("```"):  # a fenced block: ```json ... ```
        body = body.split("\n", 1)[1] if "\n" in body else ""
        body = body.rsplit("```", 1)[0]
    try:
        return json.loads(body)
    except (ValueError, RecursionError):  # bad JSON, huge numbers, nesting a model made up
        return None


def parse_answer_with_summary(
    text: str, *, fallback_chars: int = _FALLBACK_CHARS
) -> AnswerWithSummary:
    """Read ``{"answer": ..., "summary": ...}``; on anything else, degrade (never raise).

    A valid object with an empty or missing summary keeps its answer and gets its first
    ``fallback_chars`` (``settings.lifecycle.answer_summary_chars``, 100) as the summary;
    bad JSON gives the whole text as the answer.
    """
    if not isinstance(text, str):
        text = "" if text is None else str(text)
    data = _json_object(text)
    if isinstance(data, dict) and isinstance(data.get("answer"), str):
        answer = data["answer"]
        summary = data.get("summary")
        if isinstance(summary, str) and summary.strip():
            return AnswerWithSummary(answer=answer, summary=summary.strip(), parsed=True)
        return AnswerWithSummary(answer=answer, summary=answer[:fallback_chars], parsed=False)
    return AnswerWithSummary(answer=text, summary=text[:fallback_chars], parsed=False)


def with_instruction(
    messages: Sequence[Mapping[str, Any]], instruction: str
) -> list[dict[str, Any]]:
    """``messages`` with ``instruction`` at the end of the first system message, or in a
    system message of its own in front: some chat templates refuse a system message
    anywhere but first."""
    out = [dict(m) for m in messages]
    if out and out[0].get("role") == "system" and isinstance(out[0].get("content"), str):
        out[0]["content"] = f"{out[0]['content']}\n\n{instruction}"
    else:
        out.insert(0, {"role": "system", "content": instruction})
    return out


def ask_with_summary(
    client: LLMClient,
    messages: Sequence[Mapping[str, Any]],
    *,
    fallback_chars: int = _FALLBACK_CHARS,
    instruction: str = ANSWER_INSTRUCTION,
) -> AnswerWithSummary:
    """Ask the model for this turn's answer and summary in one call.

    ``messages`` are the turn's context (``ContextBuilder.build(...).messages``). The
    reply is asked as a json_schema, in plain JSON mode where the endpoint rejects that
    (HTTP 400), else with no format (:meth:`recall.llm.LLMClient.complete_json`), and read
    by :func:`parse_answer_with_summary`: a reply that breaks the format still gives an
    answer, and its first ``fallback_chars`` the summary (``parsed`` is then False). A
    call that fails outright raises :class:`~recall.errors.LLMError`: there is no answer.
    """
    content = client.complete_json(with_instruction(messages, instruction), _Reply)
    return parse_answer_with_summary(content, fallback_chars=fallback_chars)
