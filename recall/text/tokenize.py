"""Text handling for the keyword leg and for passages: tokenize (jieba for CJK) and chunk."""

from __future__ import annotations

import logging
import re
import threading
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

__all__ = ["Analyzer", "has_cjk", "split_passages", "split_sentences", "tokenize"]

# CJK unified ideographs (+ extension A, compatibility), kana and hangul: scripts written
# without spaces, which need a segmenter rather than a word regex.
_CJK = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u3040-\u30ff\uac00-\ud7af"
_CJK_RUN = re.compile(f"[{_CJK}]+")
_WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)?", re.UNICODE)
_HAS_CJK = re.compile(f"[{_CJK}]")
_SENTENCE_END = re.compile(r"(?<=[.!?。！？；;])\s+|(?<=[。！？；])")

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


def has_cjk(text: str) -> bool:
    """True when ``text`` holds any CJK character."""
    return _HAS_CJK.search(text) is not None


@lru_cache(maxsize=65_536)
def _tokenize_cached(text: str) -> tuple[str, ...]:
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
    return list(_tokenize_cached(text))


@lru_cache(maxsize=1)
def _stopwords() -> frozenset[str]:
    # bm25s ships the lists: NLTK's English (179 words, question words included: they carry
    # nothing for retrieval) and a Chinese list of 841 function words.
    from bm25s.stopwords import STOPWORDS_CHINESE, STOPWORDS_EN_PLUS

    return frozenset(STOPWORDS_EN_PLUS) | frozenset(STOPWORDS_CHINESE)


_stemmer_lock = threading.Lock()
_stem_words: Callable[[list[str]], list[str]] | None = None


def _stemmer() -> Callable[[list[str]], list[str]]:
    global _stem_words
    if _stem_words is None:
        with _stemmer_lock:
            if _stem_words is None:
                import Stemmer  # PyStemmer: Snowball in C, with its own word cache

                _stem_words = Stemmer.Stemmer("english").stemWords
    return _stem_words


@dataclass(frozen=True)
class Analyzer:
    """How text becomes keyword tokens: :func:`tokenize`, then optional filters.

    ``stopwords`` drops English and Chinese function words; ``stem`` reduces Latin-script
    words with the Snowball English stemmer ("researched" and "research" meet). Both apply
    alike to documents and queries, and both are part of an index spec's fingerprint.
    """

    stem: bool = False
    stopwords: bool = False

    @property
    def name(self) -> str:
        """The tokenizer name recorded in an index spec."""
        return "+".join(
            [BASE_TOKENIZER] + ["stop"] * self.stopwords + ["en-stem"] * self.stem
        )

    def tokens(self, text: str) -> list[str]:
        """Keyword tokens of ``text`` under this analyzer."""
        if not (self.stem or self.stopwords):
            return list(_tokenize_cached(text))
        return list(_analyzed(text, self.stem, self.stopwords))


@lru_cache(maxsize=65_536)
def _analyzed(text: str, stem: bool, stopwords: bool) -> tuple[str, ...]:
    toks = list(_tokenize_cached(text))
    if stopwords:
        stop = _stopwords()
        toks = [t for t in toks if t not in stop]
    if stem:
        # CJK words and digits pass through Snowball unchanged; only cased scripts change.
        toks = _stemmer()(toks)
    return tuple(toks)


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
