"""Compaction by tokens, behind the summary quality gate (see docs/design.md).

``compact_history`` keeps the newest messages up to ``compact_target_tokens`` (newest first,
a tool call never split from its result, the last message always kept), summarizes the
older ones with the 8-section structured summary and scores it
(:mod:`recall.context.quality`: section coverage, key information, context continuity,
compression). Below ``quality_threshold`` it retries with a larger budget, then tries a
hybrid (summary plus the original messages holding the key facts it lost), then falls back
to plain truncation keeping the newest ``truncate_keep_ratio`` of the history. Then the
items the dropped part worked on are restored (:mod:`recall.context.restore`).
"""

from __future__ import annotations

import math
import re
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from ..errors import InputError
from ..lifecycle.summarize import SECTIONS, Summarizer
from ..settings import Settings
from ..text import Count
from .budget import fit_items, newest_start, truncate_chars
from .quality import (
    KeyItems,
    Quality,
    context_continuity,
    key_items,
    message_text,
    score_summary,
    thread_markers,
)
from .restore import RestoredItem, restore_items
from .workfiles import FileReader, WorkFiles

# The gate's names are re-exported: they lived here before moving to recall.context.quality.
__all__ = [
    "Compaction",
    "KeyItems",
    "Quality",
    "compact_history",
    "context_continuity",
    "key_items",
    "score_summary",
    "summary_states",
    "thread_markers",
]

CompactionPath = Literal["summary", "retry", "hybrid", "truncate"]


@dataclass(frozen=True)
class Compaction:
    """What one compaction did: the path taken, the scores, what was kept and restored."""

    path: CompactionPath
    score: float
    attempts: tuple[Quality, ...]
    summary: str | None
    keep_from: int
    kept_messages: int
    tokens_before: int
    tokens_after: int
    restored: tuple[RestoredItem, ...] = ()
    stored: bool = False
    seconds: float = 0.0


_BULLET = re.compile(r"^- (User|Assistant|Tool result(?: \([^)]*\))?): (.*)$")


def summary_states(summary: str) -> list[dict[str, Any]]:
    """A structured summary turned back into the messages its bullets quote.

    Summarizing a summary as one message would nest its bullets ("- Assistant: - User:
    ..."); giving the summarizer the quoted sentences again keeps chained summaries flat.
    """
    out: list[dict[str, Any]] = []
    section = ""
    for line in summary.splitlines():
        m = _BULLET.match(line.strip())
        if line.startswith("## "):
            section = line[3:].strip()
        elif section == SECTIONS[1]:
            continue  # the technical concepts are a term list the summarizer makes again
        elif m:
            label, text = m.groups()
            role = "user" if label == "User" else "assistant"
            prefix = f"{label}: " if label.startswith("Tool") else ""
            out.append({"role": role, "content": prefix + text})
        elif line.strip() and line.strip() != "- (none)" and out:
            # A non-bullet line (a hybrid's extra text): keep it with the bullet before.
            out[-1]["content"] += "\n" + line.strip()
    return out or [{"role": "assistant", "content": summary}]


def _hybrid(
    summary: str,
    older: Sequence[Mapping[str, Any]],
    missing: Sequence[str],
    budget: int,
    count: Count,
    chars: int,
) -> str:
    """The summary plus, verbatim, the original messages holding the most lost facts."""
    # A long lost message is listed cut ("…[truncated N chars]"): match its beginning.
    lost = [m.split("…[truncated ")[0].lower() for m in missing]
    scored = []
    for pos, message in enumerate(older):
        text = message_text(message)
        hits = sum(1 for m in lost if m in text.lower())
        if hits:
            scored.append((-hits, pos, f"- {message['role'].capitalize()}: {text}"))
    picks = [truncate_chars(line, chars) for _, _, line in sorted(scored)]
    block, _ = fit_items(picks, budget, count)
    return f"{summary}\n\n## Original key messages\n{block}" if block else summary


def compact_history(
    messages: Sequence[Mapping[str, Any]],
    tokens: Sequence[int],
    *,
    settings: Settings,
    summarizer: Summarizer,
    store: Callable[[Any], Any] | None,
    previous_summary: str | None,
    count: Count,
    files: WorkFiles | None = None,
    read_file: FileReader | None = None,
) -> Compaction | None:
    """Compact ``messages`` (see the module docstring); None when nothing is older."""
    started = time.perf_counter()
    s = settings
    starts = [m.get("role") != "tool" for m in messages]
    keep_from = newest_start(tokens, starts, s.context.compact_target_tokens)
    if keep_from == 0:
        return None
    # Chain: the last summary is part of what is summarized now, as the messages it quotes.
    prior = summary_states(previous_summary) if previous_summary else []
    states = [*prior, *messages[:keep_from]]
    original = sum(tokens[:keep_from]) + (count(previous_summary) if previous_summary else 0)
    keys = key_items(states)
    budget = s.context.compact_summary_tokens
    attempts: list[Quality] = []
    summary: str | None = None
    path: CompactionPath = "truncate"
    candidates: tuple[tuple[CompactionPath, int], ...] = (
        ("summary", budget),
        ("retry", 2 * budget),
    )
    best = ("", Quality(0, 0, 0, 0.0))
    for name, size in candidates:
        try:
            text = summarizer.summarize(states, budget_tokens=size, structured=True)
        except InputError:
            break  # nothing summarizable: truncation is the honest answer
        quality = score_summary(text, keys, original, count, s)
        attempts.append(quality)
        if not best[0] or quality.score > best[1].score:
            best = (text, quality)
        if quality.score >= s.context.quality_threshold:
            summary, path = text, name
            break
    if summary is None and best[0]:
        text = _hybrid(best[0], states, best[1].missing, budget, count, s.context.tool_result_chars)
        quality = score_summary(text, keys, original, count, s)
        attempts.append(quality)
        if quality.score >= s.context.quality_threshold:
            summary, path = text, "hybrid"
    stored_states: Any = summary
    if summary is None:
        share = math.ceil(s.context.truncate_keep_ratio * sum(tokens))
        keep_from = max(keep_from, newest_start(tokens, starts, share))
        # Nothing is lost: the dropped messages themselves go to the memory, which
        # summarizes them on its own.
        stored_states = [*prior, *messages[:keep_from]]
    if store is not None:
        store(stored_states)
    restored = restore_items(messages[:keep_from], s, count, files, read_file)
    after = sum(tokens[keep_from:]) + (count(summary) if summary else 0)
    return Compaction(
        path=path,
        score=attempts[-1].score if attempts else 0.0,
        attempts=tuple(attempts),
        summary=summary,
        keep_from=keep_from,
        kept_messages=len(messages) - keep_from,
        tokens_before=sum(tokens) + (count(previous_summary) if previous_summary else 0),
        tokens_after=after,
        restored=tuple(restored),
        stored=store is not None,
        seconds=time.perf_counter() - started,
    )
