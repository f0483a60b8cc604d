"""Whether a sentence asserts something of the speaker as it is, and the names it holds.

A statement can name a value without making it the user's: a question ("is Rust worth
learning?"), a wish, plan or hypothetical ("thinking of moving next year", "if I ever quit
I'd join them"), or a sentence about someone else ("my brother just moved"). None of these
may introduce a value of the user's (:mod:`recall.user.now`). The markers are the closed
classes of grammar (interrogatives, modal and conditional words, kin and colleague nouns),
English and Chinese, not words of any topic: they say how something is said, never what.
"""

from __future__ import annotations

import re

from .passages import split_sentences

__all__ = ["NOT_NAMES", "asserted_sentences", "is_assertion", "names_in", "self_named"]

_I = re.IGNORECASE
_QUESTION = re.compile(
    r"[?？]\s*[\"'”’)]?\s*$|[吗呢嘛][。！!…]*\s*$|"
    r"^(?:do|does|did|should|can|could|would|will|is|are|am|what|where|which|who|how|why)\b",
    _I,
)
# Modality: wishes, plans, conditions, conjecture. Not "will": "I'll take the bike" reports.
_IRREALIS = re.compile(
    r"\b(?:if|unless|would|wouldn't|could|might|maybe|perhaps|someday|one day|wish\w*|"
    r"hop(?:e|es|ing)|dream\w*|want(?:s|ed)? to|wanna|would like|'d like|'d love|"
    r"thinking (?:about|of)|consider\w*|plan(?:s|ning)? to|planning|tempted|fancy|"
    r"daydream\w*|imagine|suppose|whether|rumou?r\w*|apparently|in case)\b|"
    r"如果|要是|假如|万一|想要|想去|想换|想买|想学|打算|计划|考虑|也许|或许|可能|希望|梦想|"
    r"说不定|要不要|是否|的话|哪天|有朝一日|明年|将来|以后再",
    _I,
)
# The sentence is about someone else: a relative, a colleague, the team or company.
_OTHER_SUBJECT = re.compile(
    r"^(?:(?:so|and|but|also|oh|well|anyway|btw|apparently)[, ]+)*"
    r"(?:my|our|his|her|their)\s+(?:\w+\s+)?"
    r"(?:sister|brother|mum|mom|mother|dad|father|parents?|son|daughter|kids?|friend|"
    r"colleague|coworker|co-worker|boss|manager|neighbou?r|roommate|flatmate|cousin|aunt|"
    r"uncle|gran\w*|niece|nephew|team|company|department|office|landlord|ex|in-laws?|"
    r"classmates?|teammates?|mates?|buddy|pal)s?\b|"
    r"^(?:he|she|they|we)\b(?!\s+(?:and i\b))|"
    r"^(?:我们|咱们|他们|她们|他|她)|"
    r"^(?:我的?)?(?:姐姐|妹妹|哥哥|弟弟|姐|哥|妈妈|爸爸|妈|爸|母亲|父亲|爸妈|父母|儿子|女儿|"
    r"朋友|同事|老板|领导|邻居|室友|表姐|表哥|表妹|表弟|堂哥|堂姐|舅舅|姑姑|阿姨|叔叔|"
    r"爷爷|奶奶|外公|外婆|同学|团队|公司|部门|组里|前任)",
    _I,
)
# Negated experience: "I didn't get the job", "没拿到", "没去成".
_NEGATED = re.compile(
    r"\b(?:didn't|did not|never|wasn't|weren't|won't|not)\s+(?:\w+\s+){0,2}?"
    r"(?:get|got|go|went|take|took|move|buy|bought|join|accept\w*|happen\w*|work\w*)\b|"
    r"没(?:拿到|去成|成|选上|录取|买|搬|去|换)|并没有|没有去|不会去",
    _I,
)


def is_assertion(sentence: str) -> bool:
    """True when ``sentence`` reports something as it is, of the speaker (see module)."""
    s = sentence.strip()
    if not s:
        return False
    return not (
        _QUESTION.search(s) or _IRREALIS.search(s) or _OTHER_SUBJECT.search(s) or _NEGATED.search(s)
    )


# Clause breaks inside a sentence: commas and semicolons, English and Chinese.
_CLAUSE = re.compile(r"[,，;；]\s*")


def asserted_sentences(text: str) -> list[str]:
    """The sentences of ``text`` that assert something (:func:`is_assertion`), or that end
    in a question after a clause that does: "骑行越来越上瘾了，买了一辆公路车，有什么推荐？"
    and "Closed on the house today, any tips for the first night?" report before they
    ask. A plan or a question in that first clause still asserts nothing."""
    out = []
    for s in split_sentences(text):
        clauses = [c for c in _CLAUSE.split(s) if c.strip()]
        asked_last = len(clauses) > 1 and _QUESTION.search(clauses[-1]) is not None
        if is_assertion(s) or (asked_last and any(is_assertion(c) for c in clauses[:-1])):
            out.append(s)
    return out


#: A capitalized word that is no name: sentence starts are filtered by position; these are
# the closed classes that are capitalized anywhere.
NOT_NAMES = frozenset(
    [
        "I",
        "I'm",
        "I've",
        "I'd",
        "I'll",
        "Monday",
        "Tuesday",
        "Wednesday",
        "Thursday",
        "Friday",
        "Saturday",
        "Sunday",
        "January",
        "February",
        "March",
        "April",
        "May",
        "June",
        "July",
        "August",
        "September",
        "October",
        "November",
        "December",
        "OK",
        "Ok",
        "AI",
        "The",
        "A",
        "An",
        "My",
        "Our",
        "Your",
        "His",
        "Her",
        "Their",
        "This",
        "That",
        "These",
        "Those",
        "What",
        "Where",
        "Which",
        "Who",
        "Why",
        "How",
        "User",
        "Assistant",
        "Mr",
        "Mrs",
        "Ms",
        "Dr",
    ]
)
_WORD = re.compile(r"[A-Za-z][A-Za-z'’-]*")


def names_in(text: str) -> set[str]:
    """Capitalized words of ``text`` that are not the first word of a sentence (candidate
    names: people, places, brands)."""
    out: set[str] = set()
    for sentence in split_sentences(text):
        for k, m in enumerate(_WORD.finditer(sentence)):
            w = m.group().rstrip("'’")
            if k == 0 or not w[:1].isupper() or w in NOT_NAMES:
                continue
            if w.endswith(("'s", "’s")):
                w = w[:-2]
            out.add(w)
    return out


_SELF = re.compile(
    r"\b(?:my name is|i'm called|call me|i am called)\s+([A-Z][a-z]+)|我叫([\u4e00-\u9fff]{2,3})"
)


def self_named(text: str) -> set[str]:
    """Names the speaker gives as their own ("my name is ...", "我叫...")."""
    return {a or b for a, b in _SELF.findall(text)}
