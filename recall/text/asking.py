"""The part of a query that asks: the time words that matter are in the question itself.

"今天天气真好，适合出去散步。……那个工作地是广东深圳的人，兴趣爱好是什么？" chats about today
before it asks; "I went running yesterday. What shoes did I buy last month?" asks about last
month. A query of several sentences of which some, not all, end with a question mark is read
for time words in those sentences only (:func:`recall.inputs.time_window`); a single
sentence, or one with no question mark, is read whole.

A Latin sentence ends at ``.``, ``!`` or ``?`` before a space and a capital letter ("at 3
p.m. with Sam" and "last week vs. this week" are one sentence); a Chinese one at ``。``,
``！`` or ``？``. The split is one linear pass (queries may be 10,000 characters long).
"""

from __future__ import annotations

import re

__all__ = ["asking_part"]

_END = re.compile(r"(?<=[。！？])|(?<=[.!?])\s+(?=[\"'“‘(]?[A-Z])|\n+")
_ASKS = re.compile(r"[?？][\"'”’)）]?\s*$")


def asking_part(query: str) -> str:
    """The sentences of ``query`` that end with a question mark, when only some of them do;
    else ``query`` itself."""
    sentences = [s.strip() for s in _END.split(query) if s and s.strip()]
    if len(sentences) < 2:
        return query
    asking = [s for s in sentences if _ASKS.search(s)]
    if not asking or len(asking) == len(sentences):
        return query
    return " ".join(asking)
