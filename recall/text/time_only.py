"""Whether a query names only a time: "what did we talk about last week?", "上周我们聊了什么".

Such a question has no topic for the keyword or vector legs to match, so the time it names
is the whole question: deep_recall applies it as a hard window (:func:`recall.inputs.
time_window`) instead of the soft prior a question with a topic gets ("what did I say about
the marathon last week?"). The test: once the time phrase and the words of asking about a
conversation are taken out, no content word is left.
"""

from __future__ import annotations

import re

from .tokenize import tokenize
from .when import Window

__all__ = ["names_only_time"]

# Words of asking what was said or done, en and zh (after tokenizing: jieba words).
_ASKING_WORDS = """what whats what's did do does we i you me my our us talk talked talking discuss
    discussed chat chatted chatting say said tell told mention mentioned about of the a an
    anything something stuff things thing happen happened up to was were is are have had
    remind recap summarize summary back then during over any there that this which when
    go on going topics topic conversation conversations interesting new important
    我们 我 你 咱们 聊 聊天 聊过 聊了 说 说过 说了 讲 讲过 提到 提过 跟 和 了 什么 些 过 的 吗
    呢 事 事情 做 做了 发生 都 有 哪些 内容 话题 告诉 回顾 总结 一下 那 时候 期间"""
_ASKING = frozenset(_ASKING_WORDS.split())


def names_only_time(query: str, window: Window) -> bool:
    """True when ``query`` asks about nothing but the time ``window`` names."""
    rest = query
    for phrase in window.phrase.split("; "):
        rest = rest.replace(phrase, " ")
    rest = re.sub(r"[^\w\s]", " ", rest)
    return not [t for t in tokenize(rest) if t.lower() not in _ASKING and not t.isdigit()]
