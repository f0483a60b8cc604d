"""Keyword tokens: jieba (search mode) for CJK runs, words for the rest, lower-cased."""

from __future__ import annotations

import logging
import re
import threading
from collections.abc import Callable
from functools import lru_cache

__all__ = ["BASE_TOKENIZER", "CJK_CHARS", "has_cjk", "pos_tags", "token_tuple", "tokenize"]

# CJK unified ideographs (+ extension A, compatibility), kana and hangul: scripts written
# without spaces, which need a segmenter rather than a word regex.
CJK_CHARS = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u3040-\u30ff\uac00-\ud7af"
_CJK_RUN = re.compile(f"[{CJK_CHARS}]+")
_WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)?", re.UNICODE)
_HAS_CJK = re.compile(f"[{CJK_CHARS}]")

#: The base tokenizer's name in an index spec (jieba search mode for CJK, words elsewhere).
BASE_TOKENIZER = "jieba-search+words"

_jieba_lock = threading.Lock()
_jieba_cut: Callable[[str], list[str]] | None = None


def _jieba() -> Callable[[str], list[str]]:
    # jieba builds its prefix dictionary on first use (~1 s) and logs about it; load it once,
    # quietly, under a lock so that two threads do not both build it.
    global _jieba_cut
    if _jieba_cut is None:
        with _jieba_lock:
            if _jieba_cut is None:
                import jieba

                jieba.setLogLevel(logging.WARNING)
                jieba.initialize()
                _jieba_cut = jieba.lcut_for_search
    return _jieba_cut


def pos_tags(text: str) -> list[tuple[str, str]]:
    """``text``'s words as jieba's tagger cuts them, each with its part-of-speech tag
    ("ns" a place, "nr" a person, "eng" a word in Latin letters, ...); jieba loaded once,
    quietly, as for :func:`tokenize`."""
    _jieba()
    import jieba.posseg  # its tables load with the module, under the import lock

    return [(p.word, p.flag) for p in jieba.posseg.lcut(text)]


def has_cjk(text: str) -> bool:
    """True when ``text`` holds any CJK character."""
    return _HAS_CJK.search(text) is not None


@lru_cache(maxsize=65_536)
def token_tuple(text: str) -> tuple[str, ...]:
    """:func:`tokenize` as a cached tuple (the analyzers and BM25 share the cache)."""
    return tuple(_tokenize(text))


def _tokenize(text: str) -> list[str]:
    text = text.lower()
    if not has_cjk(text):
        return _WORD.findall(text)
    out: list[str] = []
    pos = 0
    cut = _jieba()
    for m in _CJK_RUN.finditer(text):
        out.extend(_WORD.findall(text[pos : m.start()]))
        # Search mode also emits the shorter words inside long compounds, so that a query
        # for "北京" finds a record that says "北京大学".
        out.extend(w for w in cut(m.group()) if w.strip())
        pos = m.end()
    out.extend(_WORD.findall(text[pos:]))
    return out


def tokenize(text: str) -> list[str]:
    """Lower-cased keyword tokens: jieba (search mode) for CJK runs, words for the rest."""
    return list(token_tuple(text))
