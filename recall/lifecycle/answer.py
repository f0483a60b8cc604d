"""Per-turn summaries: the model answers with ``{"answer", "summary"}`` JSON.

Asking the model for its answer and a one-line summary of the turn in the same call saves a
separate summarizing call. Models sometimes break the format, so the reader degrades
instead of failing: anything that is not such a JSON object becomes the answer, and its
first 100 characters the summary.
"""

from __future__ import annotations

import json

from pydantic import BaseModel

from ..settings import LifecycleSettings

__all__ = ["AnswerWithSummary", "parse_answer_with_summary"]

_FALLBACK_CHARS: int = LifecycleSettings.model_fields["answer_summary_chars"].default


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
    except ValueError:
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
