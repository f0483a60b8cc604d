"""Explicit deep-recall triggers: the user phrases that ask the assistant to remember.

Deep recall is explicit (docs/design.md): :func:`wants_deep_recall` tells a host when the
user's own turn asks for it ("你仔细想想", "帮我回忆一下", "try to remember"). It lived in
:mod:`recall.tool`, which re-exports it.
"""

from __future__ import annotations

import re

__all__ = ["wants_deep_recall"]


# Explicit triggers (see docs/design.md: deep recall runs only when asked). A rule is a
# pattern and what else the text must show. _CUE: a pointer to the shared past (我们, 上次,
# "I told you", "last week"), since "recall the function" or "想一想未来" use the same verbs
# for other things. _UNLESS_GENERAL: fires unless the text reads as a general-knowledge or
# how-to question and has no cue ("do you remember how to write a for loop"). _ASKED: a
# question about something said or decided together ("what did we end up deciding?"),
# unless it reads as general knowledge. Labelled phrasings: tests/data/triggers.tsv.
_ALWAYS, _CUE, _UNLESS_GENERAL, _ASKED = "always", "cue", "unless_general", "asked"

_RAW_RULES: list[tuple[str, str]] = [
    # Chinese: asking the assistant to remember, to think back, to search the record.
    (
        r"(?:帮我|(?<![我他她]))(?:回想|回忆(?:一下|下|回忆|吧)"
        r"|(?:帮我|你(?:能|能不能|可以|再)?|请|再|好好|仔细|努力|深度|深入)回忆)",
        _ALWAYS,
    ),
    (r"记不记得|有没有印象|还有印象|有印象吗|你的记忆", _ALWAYS),
    (r"你(?:是不是|难道)?(?:不记得|记不得|忘了|忘记)了?(?:吗|么|？|\?|，|,)", _ALWAYS),
    (r"你[^，,。？?！!让使]{0,6}想(?:得)?起", _ALWAYS),
    (
        r"(?:查|翻|找|搜|看|从|在)[^，,。？?！!]{0,4}(?:我们|咱们)(?:之前|以前|上次|过去|的)*"
        r"(?:聊天|对话|谈话|历史(?:对话|记录|消息))",
        _ALWAYS,
    ),
    # 记得 followed by a chore is a reminder ("你记得多喝水"), not a question about the past.
    (
        r"(?:你|(?<!我)还)(?:还|是不是|能不能|能)?记得"
        r"(?!帮|给|提醒|要|把|带|去|吃|喝|买|多(?!少)|少|早|按时)",
        _UNLESS_GENERAL,
    ),
    (r"仔细想想|好好想想", _UNLESS_GENERAL),
    (r"(?:你|再|帮我)想想|想一想|回顾|翻翻|翻一下|翻看|翻出|往前翻|来着|(?:聊|说|讲)到哪", _CUE),
    (
        r"我[^，,。？?！!]{0,8}(?:跟你|和你|对你|给你|向你)[^，,。？?！!]{0,4}(?:说|提|讲|聊|讨论)"
        r"|我[^，,。？?！!]{0,4}告诉过你"
        r"|(?:我们|咱们)[^，,。？?！!]{0,8}(?:说过|提过|讲过|聊过|讨论过|说好|约好|定过|定好|商量)"
        r"|(?:我们|咱们)(?:当时|之前|以前|上次|那次|那天)[^，,。？?！!]{0,4}(?:说|提|讲|聊|讨论|定|约)",
        _ASKED,
    ),
    # English.
    (
        r"\btry\s+(?:\w+\s+){0,2}?(?:(?:to|and)\s+(?:remember|recall)|remembering|recalling)\b",
        _ALWAYS,
    ),
    (r"\b(?:cast\s+your\s+mind\s+back|jog\s+your\s+memory|rack\s+your\s+brains?)\b", _ALWAYS),
    (r"\b(?:search|check)\s+your\s+memory\b|\bany\s+memory\s+of\b", _ALWAYS),
    (
        r"\b(?:look|go|scroll|dig|search|check|browse|read)\s+(?:back\s+)?"
        r"(?:through|over|at|into|in)?\s*(?:all\s+)?(?:our|your)\s+"
        r"(?:(?:past|previous|old|older|earlier|prior|chat|conversation)\s+)*"
        r"(?:history|chats?|conversations?|messages|discussions?|memory|logs?)\b",
        _ALWAYS,
    ),
    (
        r"\bwhat\s+(?:did|do|have|had)\s+(?:we|i)\s+(?:\w+\s+){0,2}?"
        r"(?:say|decide|discuss|agree|talk|tell|mention|settle|choose|pick|plan)",
        _ALWAYS,
    ),
    (r"\bwhat\s+(?:were|was)\s+(?:we|i)\s+(?:talking|saying|discussing)\b", _ALWAYS),
    (r"\b(?:did|have)\s+i\s+(?:ever\s+)?(?:tell|told|mention|mentioned|say|said)\b", _ALWAYS),
    (
        r"\bi\s+(?:\w+\s+){0,2}?(?:told|tell|gave|showed|sent)\s+(?:you|u)\b"
        r"|\bi\s+(?:\w+\s+)?(?:mentioned|said|brought\s+up)\b"
        r"(?=[^?!]*\b(?:earlier|before|last|ago|yesterday|once|to\s+you)\b)"
        r"|\bwe\s+(?:\w+\s+){0,2}?(?:decided|deciding|discussed|discussing|agreed|talked"
        r"|talking|settled|planned|chose|picked|went\s+over)\b",
        _ASKED,
    ),
    (
        r"\b(?:(?:don'?t|didn'?t)\s+)?(?:you|u|ya)\s+"
        r"(?:still\s+|should\s+|must\s+|probably\s+)?(?:remember|recall)\b(?!\s+to\b)",
        _UNLESS_GENERAL,
    ),
    (r"^\W*(?:please\s+)?remember\s+(?:when|what|who|where|how|our|the\s+time)\b", _CUE),
    (r"\b(?:remember|recall)\b(?!\s+to\b)[^.!?]*\?|^\W*(?:please\s+)?recall\s+\w", _CUE),
    (r"^\W*(?:you\s+)?remember\s*\?", _ALWAYS),
    (
        r"\bthink\s+(?:back|harder|really\s+hard)\b"
        r"|\bremind\s+me\s+(?:what|when|where|who|which|how)\b"
        r"|\b(?:refresh\s+my\s+memory|pull\s+up|go\s+back\s+(?:and|through|over|to))\b",
        _CUE,
    ),
]
_RULES = tuple((re.compile(pattern, re.IGNORECASE), need) for pattern, need in _RAW_RULES)
# The past the user shares with the assistant; 我 after 帮/让/给 is the requester, not the past.
_CUE_RE = re.compile(
    r"(?<![帮让给])我|咱|上次|上回|之前|以前|那次|那天|当时|曾经|说过|提过|聊过|讲过|告诉过|跟你"
    r"|\b(?:i|i'm|i've|i'd|my|mine|we|we're|we've|we'd|us|our|ours|earlier|previously"
    r"|ago|yesterday|together|told\s+you|mentioned|talked|discussed)\b"
    r"|\blast\s+(?:time|week|month|year|night|\w+day)\b",
    re.IGNORECASE,
)
# General knowledge, how-to and "can you remember things at all" questions.
_GENERAL_RE = re.compile(
    r"怎么|怎样|如何|为什么|办法|问题|这道题|公式|定理|定义|语法|首都|什么意思|代码|合理|对不对|是否"
    r"|\bhow\s+(?:to|do|does|did|is|are|a|an)\b|\bhow\b[^?.!]*\bwork(?:s|ed)?\b"
    r"|\b(?:formula|syntax|definition|equation|theorem|lyrics|capital\s+of|meaning\s+of"
    r"|rules\s+of)\b|\bwhat\s+(?:is|are)\b(?!\s+(?:my|our|your|his|her|their|the\s+name))"
    r"|\bwho\s+(?:invented|wrote|discovered)\b|\b(?:between|across)\s+(?:sessions|chats)\b"
    r"|\bin\s+(?:python|java(?:script)?|typescript|rust|golang|c\+\+|c#|sql|bash|excel)\b"
    r"|\b(?:well|in\s+general|at\s+all)\W*$|\bhow\s+(?:far|much|long|many|well)\b|\bthings\b"
    r"|\bother\s+users\b|\b(?:remember|recall)\s+(?:a|an)\s|记得住|记住|记忆力|你觉得|你认为",
    re.IGNORECASE,
)
_QUESTION_RE = re.compile(
    r"[？?]|吗|什么|哪|几|谁|多少|啥|^\W*(?:what|which|who|where|when|how)\b", re.IGNORECASE
)
# The speaker doing the remembering ("let me think back", "I'll try to remember", "我想回忆"),
# or the request negated ("don't try to remember", "不用回忆").
_SELF_RE = re.compile(
    r"\b(?:i|i'll|i\s+will|i'm|i\s+am|let\s+me|help\s+me|i\s+need\s+to|i\s+want\s+to|we'll)\s+$"
    r"|(?<![帮让给])我(?:想|要|在|正在|会|也|就)?$"
    r"|\b(?:don'?t|do\s+not|no\s+need\s+to|never)\s+$|(?:不用|不要|别|不必|没必要)$",
    re.IGNORECASE,
)
# Quoted words are mentioned, not said: 「“还记得吗”用英语怎么说」.
_QUOTED_RE = re.compile(r'"[^"\n]{1,80}"|“[^”\n]{1,80}”|「[^」\n]{1,80}」|『[^』\n]{1,80}』')


def _fires(need: str, body: str, cue: bool) -> bool:
    if need == _ALWAYS or (need == _CUE and cue):
        return True
    general = _GENERAL_RE.search(body) is not None
    if need == _UNLESS_GENERAL:
        return cue or not general
    return need == _ASKED and not general and _QUESTION_RE.search(body) is not None


def wants_deep_recall(text: str) -> bool:
    """True when ``text`` holds an explicit request to remember (zh or en).

    Rules, no model call: "帮我回忆一下", "你还记得我…吗", "try to remember", "do you
    remember what I said", "look back through our history" fire; general-knowledge uses of
    the same words ("do you remember how to…", "recall the function", "记得带伞") do not.
    """
    if not isinstance(text, str):
        return False
    body = _QUOTED_RE.sub(" ", text)
    cue = _CUE_RE.search(body) is not None
    for pattern, need in _RULES:
        for match in pattern.finditer(body):
            if not _SELF_RE.search(body, 0, match.start()) and _fires(need, body, cue):
                return True
    return False
