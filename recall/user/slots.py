"""Which attribute of the user a statement sets, and whether a newer one replaces an older.

A *slot* is one attribute of the user that holds a current value: where they live
(``home``), who they work for (``work``), their job title (``role``), their partner, their
car or way of getting around (``transport``), their diet, their pets, the tools they use,
their preferences and their plans. The cues are words and short patterns, English and
Chinese, meant to catch indirect phrasings as well as direct ones ("signed the lease on a
place in Ghent" and "搬到成都了" are both ``home``; "handed in my badge" and "下个月去字节上班"
are both ``work``). A sentence about someone else (a sister's flat, a friend's job) sets no
slot of the user's.

:func:`supersedes` is the rule every tier applies (the article's reconstruction, the
memory block, the order of deep_recall's hits): a newer statement replaces an older one
when they set a common slot, the newer one is not a question, and either the slot holds one
value at a time (home, work, role, partner, transport, diet) or the newer one says that
something changed ("switched", "no longer", "sold", "现在", "不再", "换成", …): a second pet
or a new tool adds to the older ones unless it replaces them.

:func:`asks_past` tells a question about history ("where did I work before Globex?",
"我以前住哪") from one about the present: only the latter prefers the newest statement.
Everything here is pure and cheap (precompiled regular expressions, no model).
"""

from __future__ import annotations

import re
from typing import Final

from ..text.tokenize import tokenize
from .slot_cues import QUERY, STATEMENT

__all__ = [
    "SINGLE_VALUED",
    "SLOTS",
    "asks_past",
    "asks_present",
    "is_question",
    "query_slots",
    "replaces",
    "slots_of",
    "supersedes",
]

_I = re.IGNORECASE


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


#: Slots that hold one value at a time: any newer statement replaces the older one.
SINGLE_VALUED: Final = frozenset({"home", "work", "role", "partner", "diet"})
# Slots where a change cue alone replaces the older value ("sold the Civic", "switched to
# VS Code"); in the others (a pet, a preference, a plan) the two must also share a word.
_CUE_ENOUGH: Final = frozenset({"transport", "tools", "plans"})

_CHANGE = re.compile(
    r"\b(?:now|no longer|anymore|any more|instead|switch\w*|chang\w*|mov(?:ed|ing)|new|sold|"
    r"quit|stopped|gave up|given up|left|broke up|replac\w*|these days|finally|from now on|bought|"
    r"start\w*|traded|swapped|rehom\w*|passed away|ditched|dropped|over to|went back|back to|"
    r"lately|losing|lost|over|cancel\w*|officially|migrat\w*|gave up|divorce)\b|"
    r"现在|不再|不.{0,4}了|换|改|搬|卖了|买了|提车|辞|分手|戒|以后|开始|从此|新|已经不|转|迁移|置换|"
    r"清掉|送给|结束|离婚|成了|断了|不能",
    _I,
)
_PAST = re.compile(
    r"\bbefore\b|\bused to\b|\bprevious\w*|\bformer\w*|\bold\b|\bearlier\b|\boriginally\b|"
    r"\bback when\b|\bprior\b|\bfirst (?:job|car|flat|apartment|pet|place)\b|\bwhat was\b|"
    r"\bwhere was\b|\bwas i\b|\bwere we\b|\bdid i (?:use to|live|work|drive|have|own)\b|"
    r"\bhistory\b|\bago\b|"
    r"以前|之前|原来|原本|本来|过去|曾经|从前|那时|以往|旧|之前的|前一个|上一个",
    _I,
)
_PRESENT = re.compile(
    r"\b(?:now|current(?:ly)?|these days|at the moment|any ?more|nowadays|lately|today|"
    r"at present|right now)\b|现在|目前|如今|最近|这些天|眼下|当前|这阵子",
    _I,
)
_NAME = re.compile(r"(?<=[\w,;:] )[A-Z][\w&-]+")
_NOT_A_NAME = frozenset({"I", "I'm", "The", "My", "We"})
_STOP = _words(
    """the and but for with from that this have has had was were are is been being not now
    any more new now our your their they them then than into onto just also still really
    very much some lot lots over after before since about anymore instead user know 用户 我
    现在 以后 已经 了 的 也 还 都 很 就 在 是 我们 一个 answer answers explanation explanations
    reply replies response responses prefer prefers like likes love loves 回答 喜欢 更喜欢 更 用
    请 希望 一点 就行 named called name 叫"""
)
_QUESTION = re.compile(
    r"[?？]\s*[\"'”’)]?\s*$|吗[。！!…]*\s*$|^(?:do|does|did|should|can|could|would|is|are|what|where|which|who|how|why)\b",
    _I,
)
_WISH = re.compile(
    r"\b(?:want(?:s|ed)? to|would like|hop(?:e|es|ing) to|dream\w*|thinking (?:about|of)|"
    r"consider\w*|might|maybe|someday|one day|wish\w*|if (?:i|we)|whether)\b|"
    r"想|希望|梦想|考虑|也许|可能|如果|要不要|是否",
    _I,
)
# What a preference is about: two preferences are one fact when they share a topic (short
# answers and detailed ones; coffee and green tea), not merely a word ("code" in "answer with
# code" and "comment code in Chinese").
_PREF_TOPICS: Final = tuple(
    re.compile(p, _I)
    for p in (
        r"\bbullet|\bconcise\b|\bdetailed\b|\bbrief\b|\bshort(?:er)?\b|\blong(?:er)?\b|"
        r"\bstep[- ]by[- ]step\b|\bverbose\b|简短|详细|推导|直接给|长一点|短一点|啰嗦",
        r"\bcoffees?\b|\bteas?\b|\blattes?\b|\bmatcha\b|\bespressos?\b|\bdecaf\b|咖啡|茶|拿铁|美式",
        r"\benglish\b|\bchinese\b|\bspanish\b|\bfrench\b|\bgerman\b|中文|英文|日语",
        r"\bmusic\b|\bjazz\b|\brock\b|\bpodcasts?\b|\bpiano\b|\bclassical\b|\blo-fi\b|\bplaylist\b|"
        r"音乐|播客|歌单",
        r"\bmornings?\b|\bevenings?\b|\bnights?\b|早上|晚上|夜里",
    )
)
_PARTNER = re.compile(
    r"\b(?:partner|wife|husband|girlfriend|boyfriend|fianc[ée]e?|spouse)\b|"
    r"女朋友|男朋友|老婆|老公|对象|妻子|丈夫|爱人",
    _I,
)
_WE = re.compile(r"\b(?:we|we're|we've|our|us|and i|and me)\b|我们|我和|和我|咱们", _I)
# A value added beside the others, and a pet that is gone.
_ALSO = re.compile(
    r"\b(?:also|as well|in addition|on top of|besides|another|second)\b|\btoo(?=\s*[.!,;]|$)|"
    r"另外|还养|又养|又买|也开始|再养",
    _I,
)
_LOSS = re.compile(
    r"\b(?:los(?:t|ing|e)|passed away|died|put down|rehom\w*|gave away|gone)\b|送给|送人|走了|去世|"
    r"清掉|没了|丢了",
    _I,
)
_ME = re.compile(r"\b(?:i|i'm|i've|we|we're|we've|me|us)\b|我", _I)
_OBJECT_OF = re.compile(
    r"\b(?:of|by|with|to|for|from|about|at)\s+(?:my|our|the|a|an)?\s*$|[被跟和给让为替帮]\s*$", _I
)
# Someone other than the user (or the user's partner) the sentence is about.
_OTHERS = re.compile(
    r"\b(?:sister|brother|mom|mum|mother|dad|father|parents?|son|daughter|kids?|friend|"
    r"colleague|coworker|co-worker|boss|manager's|neighbou?r|roommate|flatmate|cousin|aunt|"
    r"uncle|grandma|grandpa|grandmother|grandfather|niece|nephew)s?\b|"
    r"姐姐|妹妹|哥哥|弟弟|妈妈|爸爸|母亲|父亲|爸妈|父母|儿子|女儿|孩子|(?<![女男])朋友|同事|老板|邻居|室友|表姐|表哥|堂|舅|姑|姨|叔|爷爷|奶奶",
    _I,
)


def _compile(table: dict[str, tuple[str, str]]) -> dict[str, re.Pattern[str]]:
    return {slot: re.compile(f"(?:{en})|(?:{zh})", _I) for slot, (en, zh) in table.items()}


_STATEMENT_RE: Final = _compile(STATEMENT)
_QUERY_RE: Final = _compile(QUERY)
#: Every slot name, in a fixed order.
SLOTS: Final = tuple(STATEMENT)


def is_question(text: str) -> bool:
    """True when ``text`` asks rather than states."""
    return bool(_QUESTION.search(text.strip()))


def slots_of(sentence: str) -> frozenset[str]:
    """The slots of the user ``sentence`` states a value for (none for a question, and
    none when it is about someone else, a partner excepted)."""
    if is_question(sentence):
        return frozenset()
    found = frozenset(
        s
        for s, pat in _STATEMENT_RE.items()
        if (m := pat.search(sentence)) and not _someone_else(sentence, m.start())
    )
    if found and _PARTNER.search(sentence) and not _WE.search(sentence):
        return found & {"partner"}  # "my husband is a doctor" is not the user's job
    if found & SINGLE_VALUED and _WISH.search(sentence):
        return found - SINGLE_VALUED  # "thinking about moving to Lisbon" moves nobody yet
    return found


def _someone_else(sentence: str, at: int) -> bool:
    """True when the cue at ``at`` is said of someone else: a sister, a friend, a boss named
    just before it ("my sister lives in", "我妈妈住在"), with no "I"/"we" in between and not
    as the object of a preposition ("because of my son's", "被同事安利了")."""
    last = None
    for last in _OTHERS.finditer(sentence, 0, at):  # noqa: B007 - the last one is wanted
        pass
    if last is None:
        return False
    between = sentence[last.end() : at]
    if len(between) > 24 or _ME.search(between):
        return False
    return not _OBJECT_OF.search(sentence[: last.start()])


def query_slots(query: str) -> frozenset[str]:
    """The slots a question asks about."""
    return frozenset(s for s, pat in _QUERY_RE.items() if pat.search(query))


def replaces(sentence: str, slots: frozenset[str]) -> bool:
    """True when ``sentence``, setting ``slots``, replaces an older value rather than adding
    one: a single-valued slot, or a change said ("sold", "switched", "现在改…") without
    "also"."""
    if slots & SINGLE_VALUED:
        return True
    return bool(_CHANGE.search(sentence)) and not _ALSO.search(sentence)


def asks_present(query: str) -> bool:
    """True when ``query`` asks what holds now ("now", "currently", "these days", "现在")."""
    return bool(_PRESENT.search(query)) and not asks_past(query)


def asks_past(query: str) -> bool:
    """True when ``query`` asks about an earlier value ("before", "used to", "以前")."""
    return bool(_PAST.search(query))


def supersedes(
    newer: str,
    older: str,
    *,
    newer_slots: frozenset[str] | None = None,
    older_slots: frozenset[str] | None = None,
) -> bool:
    """True when the statement ``newer`` replaces what ``older`` said (see module docs).
    Callers that already read either sentence's slots pass them, not to read them again."""
    mine = slots_of(newer) if newer_slots is None else newer_slots
    common = mine & (slots_of(older) if older_slots is None else older_slots)
    if not common:
        return False
    if common & SINGLE_VALUED:
        # "First week at Northwind" restates "works at Northwind", it replaces nothing.
        return bool(_CHANGE.search(newer)) or not (_names(newer) & _names(older))
    if not _CHANGE.search(newer) or _ALSO.search(newer):
        return False  # "I also started learning Rust" adds a tool, it replaces none
    if common & _CUE_ENOUGH or ("pet" in common and _LOSS.search(newer)):
        return True
    if "preference" in common and _topics(newer) & _topics(older):
        return True
    return bool(common - {"preference"}) and bool(_content(newer) & _content(older))


def _names(text: str) -> frozenset[str]:
    # Capitalized words past a sentence's first: the values people name (Northwind, Ghent).
    return frozenset(m.group(0) for m in _NAME.finditer(text)) - _NOT_A_NAME


def _topics(text: str) -> frozenset[int]:
    return frozenset(i for i, pat in enumerate(_PREF_TOPICS) if pat.search(text))


def _content(text: str) -> frozenset[str]:
    return frozenset(t for t in tokenize(text) if len(t) > 1 and t not in _STOP)
