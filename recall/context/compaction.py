"""Compaction by tokens and the summary quality gate (see docs/design.md).

``compact_history`` keeps the newest messages up to ``compact_target_tokens`` (newest first,
a tool call never split from its result, the last message always kept), summarizes the
older ones with the 8-section structured summary and scores it. Below
``quality_threshold`` it retries with a larger budget, then tries a hybrid (summary plus
the original messages holding the key facts it lost), then falls back to plain truncation
keeping the newest ``truncate_keep_ratio`` of the history. Then the items the dropped part
worked on are restored (:mod:`recall.context.restore`). The scoring functions are pure.
"""

from __future__ import annotations

import math
import re
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from ..errors import InputError
from ..lifecycle.extractive import key_facts
from ..lifecycle.summarize import SECTIONS, Summarizer
from ..settings import Settings
from ..text import Count, has_cjk, tokenize
from .budget import fit_items, newest_start, truncate_chars
from .restore import RestoredItem, restore_items

__all__ = [
    "Compaction",
    "KeyItems",
    "Quality",
    "compact_history",
    "key_items",
    "score_summary",
    "summary_states",
]

CompactionPath = Literal["summary", "retry", "hybrid", "truncate"]

_ERROR = re.compile(r"\b\w*(?:Error|Exception|Traceback)\b|错误|报错|异常|失败")
_PATHLIKE = re.compile(r"[/\\]|\.[A-Za-z][A-Za-z0-9]{0,7}$")


@dataclass(frozen=True)
class Quality:
    """A summary's score (0..1) and its parts; ``missing`` lists key facts it lost."""

    coverage: float
    key_info: float
    compression: float
    score: float
    missing: tuple[str, ...] = ()


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


@dataclass
class KeyItems:
    """The key information of an original conversation, by category."""

    files: set[str] = field(default_factory=set)
    errors: set[str] = field(default_factory=set)
    numbers: set[str] = field(default_factory=set)
    names: set[str] = field(default_factory=set)
    instructions: list[str] = field(default_factory=list)


def _message_text(message: Mapping[str, Any]) -> str:
    parts = [message.get("content") or ""]
    for call in message.get("tool_calls") or ():
        fn = call.get("function") or {}
        parts.append(f"{fn.get('name', '')}({fn.get('arguments', '')})")
    return "\n".join(p for p in parts if isinstance(p, str) and p)


def key_items(messages: Sequence[Mapping[str, Any]]) -> KeyItems:
    """File paths, error names, numbers, names and user instructions in ``messages``."""
    out = KeyItems()
    for message in messages:
        text = _message_text(message)
        for fact in key_facts(text):
            if _PATHLIKE.search(fact) and not fact.replace(".", "").isdigit():
                out.files.add(fact)
            elif any(c.isdigit() for c in fact):
                out.numbers.add(fact)
            else:
                out.names.add(fact)
        out.errors.update(m.group().lower() for m in _ERROR.finditer(text))
        if message.get("role") == "user" and text.strip():
            out.instructions.append(text)
    return out


def _content_words(text: str) -> set[str]:
    return {t for t in tokenize(text) if len(t) > 2 or has_cjk(t)}


def score_summary(
    summary: str, keys: KeyItems, original_tokens: int, count: Count, settings: Settings
) -> Quality:
    """The quality gate: section coverage, key information kept, compression ratio."""
    low = summary.lower()
    words = set(tokenize(summary))
    coverage = sum(1 for s in SECTIONS if s.lower() in low) / len(SECTIONS)
    missing: list[str] = []
    rates: list[float] = []
    checks: tuple[tuple[Callable[[str], bool], set[str]], ...] = (
        (lambda x: x in low, keys.files | keys.errors),
        (lambda x: x in words, keys.numbers | keys.names),
    )
    for found, items in checks:
        if items:
            lost = sorted(x for x in items if not found(x))
            missing += lost
            rates.append(1 - len(lost) / len(items))
    if keys.instructions:
        # An instruction counts as kept when most of its content words survive.
        kept = 0
        for text in keys.instructions:
            want = _content_words(text)
            if not want or len(want & words) >= 0.5 * len(want):
                kept += 1
            else:
                missing.append(truncate_chars(text, 80))
        rates.append(kept / len(keys.instructions))
    key_info = sum(rates) / len(rates) if rates else 1.0
    ratio = count(summary) / max(1, original_tokens)
    compression = (
        1.0
        if ratio <= settings.context.quality_max_ratio
        else settings.context.quality_max_ratio / ratio
    )
    w = settings.context.quality_weights
    score = (w[0] * coverage + w[1] * key_info + w[2] * compression) / (sum(w) or 1.0)
    return Quality(coverage, key_info, compression, round(score, 4), tuple(missing))


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
    lost = [m.lower() for m in missing]
    scored = []
    for pos, message in enumerate(older):
        text = _message_text(message)
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
    restored = restore_items(messages[:keep_from], s, count)
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
