"""Pure budgeting functions of the context builder: levels, cuts and fits, all in tokens.

Every function takes the token counter as an argument, so the same code runs with the exact
tiktoken count in production and is trivially testable. None of them touches a session.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from ..text import Count

__all__ = [
    "Level",
    "Usage",
    "cut_to_tokens",
    "fit_history",
    "fit_items",
    "fit_paragraphs",
    "fit_recall_json",
    "fit_tail",
    "newest_start",
    "progress_bar",
    "rounds_left",
    "split_blocks",
    "truncate_chars",
    "usage_level",
]

Level = Literal["normal", "warning", "urgent", "critical"]

_BAR_WIDTH = 20  # cells of the text bar (see docs/design.md)
_PARAGRAPHS = re.compile(r"\n\s*\n")


@dataclass(frozen=True)
class Usage:
    """How full the history is: tokens used of the budget, the level, rounds left, a bar."""

    used: int
    budget: int
    ratio: float
    level: Level
    rounds_left: int
    bar: str

    def __str__(self) -> str:
        return (
            f"{self.bar} {self.level} · {self.used:,}/{self.budget:,} tokens · "
            f"~{self.rounds_left} rounds left"
        )


def usage_level(ratio: float, *, warning: float, urgent: float, critical: float) -> Level:
    """The usage level for ``ratio`` = used / budget (thresholds: see docs/design.md)."""
    if ratio >= critical:
        return "critical"
    if ratio >= urgent:
        return "urgent"
    if ratio >= warning:
        return "warning"
    return "normal"


def rounds_left(used: int, budget: int, *, critical: float, per_round: float) -> int:
    """Rounds (user turn + reply) before ``used`` reaches ``critical`` · ``budget``."""
    limit = critical * budget
    if used >= limit or per_round <= 0:
        return 0
    return math.floor((limit - used) / per_round)


def progress_bar(ratio: float, width: int = _BAR_WIDTH) -> str:
    """``[████░░…] 45%``: a text bar for hosts that show one (full at 100% and above)."""
    filled = round(min(max(ratio, 0.0), 1.0) * width)
    return f"[{'█' * filled}{'░' * (width - filled)}] {round(ratio * 100)}%"


def truncate_chars(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters with a visible ``…[truncated N chars]`` tail."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]}…[truncated {len(text) - limit} chars]"


def cut_to_tokens(text: str, budget: int, count: Count) -> str:
    """The longest prefix of ``text`` that, with its truncation marker, fits ``budget``.

    Returns ``text`` unchanged when it fits and ``""`` when not even the marker fits.
    """
    if count(text) <= budget:
        return text
    lo, hi = 0, len(text)
    # Binary search on characters: token counts are monotone enough in the prefix length
    # that the final check below is all the safety needed.
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if count(truncate_chars(text, mid)) <= budget:
            lo = mid
        else:
            hi = mid - 1
    out = truncate_chars(text, lo)
    return out if lo > 0 and count(out) <= budget else ""


def newest_start(
    tokens: Sequence[int], starts: Sequence[bool], budget: int, *, keep_last: bool = True
) -> int:
    """Index of the oldest message kept when keeping the newest within ``budget`` tokens.

    ``starts[i]`` says a kept suffix may begin at message ``i`` (false for a tool result,
    which must stay with the call before it). With ``keep_last`` the last group is kept
    even over budget; without it, ``len(tokens)`` means nothing fits.
    """
    n = len(tokens)
    best = n
    last_group = n
    used = 0
    for i in range(n - 1, -1, -1):
        used += tokens[i]
        if not starts[i]:
            continue
        if last_group == n:
            last_group = i
        if used > budget:
            break
        best = i
    if best == n and keep_last:
        return last_group if last_group < n else 0
    return best


def fit_history(
    tokens: Sequence[int], starts: Sequence[bool], summary_tokens: int, budget: int
) -> tuple[int, int]:
    """(index of the oldest message kept, summary tokens kept) for a history ``budget``.

    The compaction summary goes with the history when both fit; when not even the last
    exchange fits beside it, the summary gives way to the newest messages.
    """
    n = len(tokens)
    if sum(tokens) + summary_tokens <= budget:
        return 0, summary_tokens
    start = n
    if summary_tokens <= budget:
        start = newest_start(tokens, starts, budget - summary_tokens, keep_last=False)
    if start == n:  # not even the last exchange fits with the summary
        return newest_start(tokens, starts, budget, keep_last=False), 0
    return start, summary_tokens


def split_blocks(text: str) -> list[tuple[bool, str]]:
    """Paragraphs of ``text``, each flagged True when it is a markdown heading line."""
    out: list[tuple[bool, str]] = []
    for para in _PARAGRAPHS.split(text.strip()):
        body: list[str] = []
        for line in para.split("\n"):
            if line.lstrip().startswith("#"):
                if body:
                    out.append((False, "\n".join(body)))
                    body = []
                out.append((True, line))
            else:
                body.append(line)
        if body and "\n".join(body).strip():
            out.append((False, "\n".join(body)))
    return out


def fit_paragraphs(text: str, budget: int, count: Count) -> tuple[str, int]:
    """``text`` within ``budget``: every heading kept, the oldest paragraphs dropped first.

    The memory cut (see docs/design.md): documents grow at the bottom, so the first
    paragraphs are the oldest. Returns the text and how many paragraphs were dropped.
    Headings go only when they alone are over budget, and then the newest paragraph, cut
    visibly, is kept.
    """
    blocks = split_blocks(text)
    paras = [b for head, b in blocks if not head]
    if budget <= 0:
        return "", len(paras)
    if count(text) <= budget:
        return text, 0
    costs = [count(b) + 1 for _, b in blocks]  # +1: the blank line joining blocks
    keep = [True] * len(blocks)
    total = sum(costs)
    order = [i for i, (head, _) in enumerate(blocks) if not head]
    order += [i for i, (head, _) in enumerate(blocks) if head]  # headings only as last resort
    dropped = 0
    for i in order:
        if total <= budget:  # the estimate fits: check the exact count of the joined text
            out = "\n\n".join(b for k, (_, b) in enumerate(blocks) if keep[k])
            if count(out) <= budget:
                return out, dropped
        keep[i] = False
        total -= costs[i]
        dropped += 0 if blocks[i][0] else 1
    # Not even the headings fit: the newest paragraph, cut, beats an empty section.
    return (cut_to_tokens(paras[-1], budget, count) if paras else ""), max(0, len(paras) - 1)


def fit_items(items: Sequence[str], budget: int, count: Count, sep: str = "\n") -> tuple[str, int]:
    """The leading ``items`` joined by ``sep`` within ``budget``; and how many were left out.

    Items are in priority order (best recall hit first, the host's own tool order). When
    the first item alone is too long it is cut visibly rather than dropped.
    """
    chosen: list[str] = []
    used = 0
    sep_cost = count(sep)
    for item in items:
        cost = count(item) + (sep_cost if chosen else 0)
        if used + cost > budget:
            break
        chosen.append(item)
        used += cost
    if not chosen and items and budget > 0:
        head = cut_to_tokens(items[0], budget, count)
        chosen = [head] if head else []
    text = sep.join(chosen)
    while chosen and count(text) > budget:  # joins can merge tokens differently
        chosen.pop()
        text = sep.join(chosen)
    return text, len(items) - len(chosen)


def fit_tail(items: Sequence[str], budget: int, count: Count, sep: str = "\n") -> tuple[str, int]:
    """The newest (last) ``items`` joined by ``sep`` within ``budget``; and how many went.

    For chronological logs: the oldest entries are dropped first.
    """
    costs = [count(item) + count(sep) for item in items]
    total = sum(costs)
    start = 0
    while start < len(items):
        if total <= budget:  # the estimate fits: check the exact joined count
            text = sep.join(items[start:])
            if count(text) <= budget:
                return text, start
        total -= costs[start]
        start += 1
    newest = cut_to_tokens(items[-1], budget, count) if items and budget > 0 else ""
    return newest, len(items) - (1 if newest else 0)


def fit_recall_json(content: str, budget: int, count: Count) -> str:
    """A deep_recall tool message's JSON within ``budget``: the worst results go first.

    The results are best first, so dropping from the end keeps valid JSON and the hits
    that matter; a note says how many were left out. Non-JSON content is cut visibly.
    """
    if count(content) <= budget:
        return content
    try:
        data = json.loads(content)
    except ValueError:
        return cut_to_tokens(content, budget, count)
    # "hits"; "results" in a history kept from before the tool answered "hits".
    key = "results" if isinstance(data, dict) and "hits" not in data else "hits"
    results = data.get(key) if isinstance(data, dict) else None
    if not isinstance(results, list):
        return cut_to_tokens(content, budget, count)
    kept = list(results)
    while kept:
        kept.pop()
        slim = {**data, key: kept, "omitted": len(results) - len(kept)}
        text = json.dumps(slim, ensure_ascii=False)
        if count(text) <= budget:
            return text
    return cut_to_tokens(content, budget, count)
