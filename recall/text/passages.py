"""Sentences and passages: how long text is cut for summaries and the Dynamic chapter."""

from __future__ import annotations

import re
from collections.abc import Callable

__all__ = ["split_passages", "split_sentences"]

_SENTENCE_END = re.compile(r"(?<=[.!?。！？；;])\s+|(?<=[。！？；])")


def split_sentences(text: str) -> list[str]:
    """Split on sentence ends (Latin and CJK punctuation), dropping empty pieces."""
    return [s.strip() for s in _SENTENCE_END.split(text) if s and s.strip()]


def split_passages(text: str, max_tokens: int, count: Callable[[str], int]) -> list[str]:
    """Cut ``text`` into passages of at most ``max_tokens``: by paragraph, then sentence.

    Paragraphs that fit are kept whole; longer ones are packed sentence by sentence; a single
    sentence longer than the budget is cut by characters as a last resort.
    """
    passages: list[str] = []
    for para in (p.strip() for p in re.split(r"\n\s*\n", text)):
        if not para:
            continue
        if count(para) <= max_tokens:
            passages.append(para)
            continue
        buf = ""
        for sent in split_sentences(para):
            while count(sent) > max_tokens:
                # Binary search the longest prefix that fits: counts are not linear in chars.
                lo, hi = 1, len(sent)
                while lo < hi:
                    mid = (lo + hi + 1) // 2
                    if count(sent[:mid]) <= max_tokens:
                        lo = mid
                    else:
                        hi = mid - 1
                if buf:
                    passages.append(buf)
                    buf = ""
                passages.append(sent[:lo])
                sent = sent[lo:].strip()
            if not sent:
                continue
            joined = f"{buf} {sent}" if buf else sent
            if count(joined) <= max_tokens:
                buf = joined
            else:
                if buf:
                    passages.append(buf)
                buf = sent
        if buf:
            passages.append(buf)
    return passages
