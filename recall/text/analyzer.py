"""Keyword analyzers: tokens, then optional stop-word removal and Snowball stemming."""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

from .tokenize import BASE_TOKENIZER, token_tuple

__all__ = ["Analyzer", "is_stopword"]


@lru_cache(maxsize=1)
def _stopwords() -> frozenset[str]:
    # bm25s ships the lists: NLTK's English (179 words, question words included: they carry
    # nothing for retrieval) and a Chinese list of 841 function words.
    from bm25s.stopwords import STOPWORDS_CHINESE, STOPWORDS_EN_PLUS

    return frozenset(STOPWORDS_EN_PLUS) | frozenset(STOPWORDS_CHINESE)


def is_stopword(word: str) -> bool:
    """Whether ``word`` (any case) is an English or Chinese function word the analyzer drops."""
    return word.casefold() in _stopwords()


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
        return "+".join([BASE_TOKENIZER] + ["stop"] * self.stopwords + ["en-stem"] * self.stem)

    def tokens(self, text: str) -> list[str]:
        """Keyword tokens of ``text`` under this analyzer."""
        if not (self.stem or self.stopwords):
            return list(token_tuple(text))
        return list(_analyzed(text, self.stem, self.stopwords))


@lru_cache(maxsize=65_536)
def _analyzed(text: str, stem: bool, stopwords: bool) -> tuple[str, ...]:
    toks = list(token_tuple(text))
    if stopwords:
        stop = _stopwords()
        toks = [t for t in toks if t not in stop]
    if stem:
        # CJK words and digits pass through Snowball unchanged; only cased scripts change.
        toks = _stemmer()(toks)
    return tuple(toks)
