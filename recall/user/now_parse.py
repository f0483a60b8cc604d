"""One sentence of the user's as :mod:`.now` reads it: its words, the names it holds, the
names the speaker gives as their own, and whether it asserts anything (cached by text)."""

from __future__ import annotations

import re
from functools import lru_cache
from typing import NamedTuple

from ..text.analyzer import Analyzer
from ..text.stance import is_assertion, names_in, self_named

__all__ = ["Parsed", "parse"]

_WORDS = re.compile(r"[A-Za-z][A-Za-z'’-]*|[0-9][0-9:.]*")


class Parsed(NamedTuple):
    tokens: frozenset[str]
    names: frozenset[str]  # as written
    name_tokens: frozenset[str]
    display: tuple[tuple[str, str], ...]  # a name's tokens -> the name
    words: tuple[tuple[str, str], ...]  # a one-token word -> the word
    mine: frozenset[str]  # names the speaker gives as their own
    asserted: bool


@lru_cache(maxsize=65_536)
def parse(text: str, analyzer: Analyzer) -> Parsed:
    """What one sentence holds (cached: a rebuild after a write parses only what is new)."""
    names = names_in(text)
    display = tuple((t, name) for name in sorted(names) for t in analyzer.tokens(name))
    words = tuple(
        (wt[0], word) for word in _WORDS.findall(text) if len(wt := analyzer.tokens(word)) == 1
    )
    return Parsed(
        tokens=frozenset(analyzer.tokens(text)),
        names=frozenset(names),
        name_tokens=frozenset(t for t, _ in display),
        display=display,
        words=words,
        mine=frozenset(self_named(text)),
        asserted=is_assertion(text),
    )
