"""The summary quality gate: four pure checks and their weighted score (see docs/design.md).

A compaction summary is scored on section coverage (the 8 headings), key information kept
(files, errors, numbers, names, the user's instructions), context continuity (the last
request and the current work, :func:`context_continuity`) and compression (summary tokens
over the original's), each 0..1, weighted by ``quality_weights``; it passes at
``quality_threshold``. :mod:`recall.context.compaction` acts on the score.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..lifecycle.extractive import key_facts
from ..lifecycle.summarize import SECTIONS
from ..settings import Settings
from ..text import Count, has_cjk, tokenize
from .budget import truncate_chars

__all__ = [
    "KeyItems",
    "Quality",
    "context_continuity",
    "key_items",
    "message_text",
    "score_summary",
    "thread_markers",
]

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
    continuity: float = 1.0  # last, so that positional construction keeps working


@dataclass
class KeyItems:
    """The key information of an original conversation, by category."""

    files: set[str] = field(default_factory=set)
    errors: set[str] = field(default_factory=set)
    numbers: set[str] = field(default_factory=set)
    names: set[str] = field(default_factory=set)
    instructions: list[str] = field(default_factory=list)
    thread: tuple[frozenset[str], ...] = ()  # see thread_markers


def message_text(message: Mapping[str, Any]) -> str:
    """A message's text: its content and its tool calls as ``name(arguments)``."""
    parts = [message.get("content") or ""]
    for call in message.get("tool_calls") or ():
        fn = call.get("function") or {}
        parts.append(f"{fn.get('name', '')}({fn.get('arguments', '')})")
    return "\n".join(p for p in parts if isinstance(p, str) and p)


def key_items(messages: Sequence[Mapping[str, Any]]) -> KeyItems:
    """File paths, error names, numbers, names and user instructions in ``messages``, and
    the markers of where the conversation stands (:func:`thread_markers`)."""
    texts = [message_text(m) for m in messages]
    facts = [key_facts(t) for t in texts]
    out = KeyItems(thread=_thread(texts, [m.get("role") for m in messages], facts))
    for message, text, found in zip(messages, texts, facts, strict=True):
        for fact in found:
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


def thread_markers(messages: Sequence[Mapping[str, Any]]) -> tuple[frozenset[str], ...]:
    """What a summary of ``messages`` must hold to keep the thread: one set per end.

    The two ends are the last user request and the current work (the newest assistant
    message: its reply or the tool calls it made; a tool's output is data, which the
    restored items bring back, not the work). An end's markers are its key facts (numbers,
    names, paths) that no message before the last exchange holds: a summary that lost the
    end cannot have them from elsewhere. An end with no such fact falls back to all its key
    facts, then to its content words. Ends without text are left out.
    """
    texts = [message_text(m) for m in messages]
    return _thread(texts, [m.get("role") for m in messages], [key_facts(t) for t in texts])


def _thread(
    texts: Sequence[str], roles: Sequence[object], facts: Sequence[frozenset[str]]
) -> tuple[frozenset[str], ...]:
    ends = [
        max((i for i, r in enumerate(roles) if r == want and texts[i].strip()), default=-1)
        for want in ("user", "assistant")
    ]
    found = [i for i in ends if i >= 0]
    if not found:
        return ()
    older: set[str] = set().union(*facts[: min(found)])
    out = []
    for i in found:
        markers = (facts[i] - older) or facts[i] or _content_words(texts[i])
        if markers:
            out.append(frozenset(markers))
    return tuple(out)


def _holds(low: str, words: set[str], marker: str) -> bool:
    # A path or dotted name is matched as text; a word, a number or a name as a token, so
    # that "28" is not found inside "128".
    return marker in low if not marker.isalnum() else marker in words


def context_continuity(summary: str, thread: Sequence[Collection[str]]) -> float:
    """Whether ``summary`` keeps the thread where the conversation was cut (0..1).

    A summary can hold every file and error and still leave the model unable to go on: it
    must say what the user asked last and what was being done. ``thread`` holds each end's
    markers (:func:`thread_markers`); an end scores the share of its markers the summary
    holds, full once it holds half of them (paraphrase and cuts cost some); the score is
    the mean over the ends, 1.0 when there is none.
    """
    if not thread:
        return 1.0
    low = summary.lower()
    words = set(tokenize(summary))
    shares = []
    for markers in thread:
        held = sum(1 for m in markers if _holds(low, words, m))
        shares.append(min(1.0, held / math.ceil(len(markers) / 2)) if markers else 1.0)
    return sum(shares) / len(shares)


def score_summary(
    summary: str, keys: KeyItems, original_tokens: int, count: Count, settings: Settings
) -> Quality:
    """The quality gate: section coverage, key information kept, context continuity and
    compression ratio, each 0..1, weighted by ``quality_weights`` in that order."""
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
    continuity = context_continuity(summary, keys.thread)
    # Lost markers are missing facts too: the hybrid puts back the messages holding them.
    missing += sorted(
        {m for end in keys.thread for m in end if not _holds(low, words, m)} - set(missing)
    )
    parts = (coverage, key_info, continuity, compression)
    w = settings.context.quality_weights
    score = sum(wi * p for wi, p in zip(w, parts, strict=True)) / (sum(w) or 1.0)
    return Quality(
        coverage, key_info, compression, round(score, 4), tuple(missing), continuity=continuity
    )
