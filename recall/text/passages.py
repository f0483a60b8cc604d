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
        else:
            passages.extend(_pack_sentences(para, max_tokens, count))
    return passages


def _pack_sentences(para: str, max_tokens: int, count: Callable[[str], int]) -> list[str]:
    """The passages of a paragraph too long to keep whole, packed sentence by sentence;
    sentences over the budget are cut by :func:`_cut_long`."""
    passages: list[str] = []
    buf = ""
    for sentence in split_sentences(para):
        sent, buf = _cut_long(sentence, buf, max_tokens, count, passages)
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


def _cut_long(
    sent: str, buf: str, max_tokens: int, count: Callable[[str], int], passages: list[str]
) -> tuple[str, str]:
    """Cut the longest fitting prefixes off ``sent`` while it is over the budget, appending
    them to ``passages`` (after flushing ``buf``, so order is kept): (rest of sent, buf)."""
    while count(sent) > max_tokens:
        lo = _longest_fitting_prefix(sent, max_tokens, count)
        if buf:
            passages.append(buf)
            buf = ""
        passages.append(sent[:lo])
        sent = sent[lo:].strip()
    return sent, buf


def _longest_fitting_prefix(sent: str, max_tokens: int, count: Callable[[str], int]) -> int:
    """Length of the longest prefix of ``sent`` within ``max_tokens`` (at least 1).

    A binary search on the prefix length: token counts are not linear in characters.
    """
    lo, hi = 1, len(sent)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if count(sent[:mid]) <= max_tokens:
            lo = mid
        else:
            hi = mid - 1
    return lo
