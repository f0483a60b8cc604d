"""Facts that hold one value at a time, and a newer statement superseding an older one.

Read from article sentences in the AI's voice (:mod:`.voice`), zh and en:

- ``name``: "I know the user is Zhang Min", "the user's name is …", "用户叫张敏";
- ``role`` and ``employer``: "… is a platform engineer at Northwind", "用户是一名数据科学家",
  "去一家医疗 AI 公司做机器学习工程师", "在优品电商工作";
- ``city``: "lives in", "moved to", "is moving to", "is based in", "住在", "搬到";
- ``pref``: likes, dislikes, uses, switched, stopped (喜欢, 讨厌, 不喝…了, 换成 …), keyed by the
  content words of what it is about: two preferences are the same fact when those overlap
  ("prefers short answers" / "prefers detailed answers now"; "loves coffee" / "has stopped
  drinking coffee").

:func:`supersede` walks sentences newest first: a sentence all of whose facts a newer one
already stated is dropped; one that loses only some of them is replaced by short sentences
restating the rest ("I know the user's name is Zhang Min."). Nothing is lost for good:
the store keeps every earlier article version (``long_term(user, version=N)``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import NamedTuple

from ..text import has_cjk, tokenize
from .durable import JOBS, JOBS_ZH, SURNAMES
from .slots import slots_of, supersedes

__all__ = ["Fact", "facts_of", "restate", "supersede"]


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


_EN_SUBJ = r"(?P<s>(?i:the user)|they|They|[A-Z][a-z]+(?: [A-Z][a-z]+)?)"
_BE = r"(?:['’]s|['’]re| is| are)"  # joined to the subject: "they're", "the user is"
_NAME = r"[A-Z][a-z]+(?:[ -][A-Z][a-z]+){0,2}"
_ORG = r"[A-Z][\w&'.-]*(?: (?:[A-Z][\w&'.-]*|of|de|&))*"
_PLACE = r"[A-Z][\w'-]*(?: [A-Z][\w'-]*){0,2}"
_ROLE = rf"(?P<v>(?:[\w-]+ ){{0,3}}?(?:{JOBS}))s?\b(?: (?:at|for) (?P<org>{_ORG}))?"
_ADV = r"(?:(?:now|currently|still|also|just|recently|really|actually|mostly|no longer) )*"
_NOT_NAMES = _words(
    "American British English Chinese French German Spanish Italian Japanese Korean Indian "
    "Canadian Australian Mexican Brazilian Russian Dutch Swedish Polish Irish Scottish "
    "Monday Tuesday Wednesday Thursday Friday Saturday Sunday January February March April "
    "May June July August September October November December Vegan Vegetarian"
)
_EN = {
    "name": [
        rf"{_EN_SUBJ}(?:'s name is| is called| goes by| is named) (?P<v>{_NAME})",
        rf"{_EN_SUBJ}{_BE} (?P<v>{_NAME})(?=[,.;]|$| and\b| from\b)",
        rf"(?P<s>(?i:the user)) asked me to call them (?P<v>{_NAME})",
    ],
    "role": [
        rf"{_EN_SUBJ}{_BE} {_ADV}(?:a|an) {_ROLE}",
        rf"{_EN_SUBJ}{_BE} {_NAME}, (?:a|an) {_ROLE}",
        rf"{_EN_SUBJ} {_ADV}works? as (?:a |an )?{_ROLE}",
        rf"{_EN_SUBJ} (?:has |have |'ve )?{_ADV}(?:started|got|took|accepted|landed) (?:a |"
        rf"their |the )?new (?:job|role|position) as (?:a |an )?{_ROLE}",
        rf"{_EN_SUBJ} (?:was |were |got |has been |have been )?promoted to {_ROLE}",
    ],
    "employer": [
        rf"{_EN_SUBJ} {_ADV}works? (?:at|for) (?P<org>{_ORG})",
        rf"{_EN_SUBJ} (?:has |have |'ve )?{_ADV}joined (?P<org>{_ORG})",
    ],
    "city": [
        rf"{_EN_SUBJ} {_ADV}(?:lives?|(?:is|are|'re) living|ha(?:s|ve) lived) in (?P<v>{_PLACE})",
        rf"{_EN_SUBJ} (?:has |have |'ve )?{_ADV}(?:moved|relocated) to (?P<v>{_PLACE})",
        rf"{_EN_SUBJ}{_BE} {_ADV}(?:moving|relocating) to (?P<v>{_PLACE})",
        rf"{_EN_SUBJ}{_BE} {_ADV}based in (?P<v>{_PLACE})",
    ],
    "pref": [
        rf"{_EN_SUBJ} (?:(?:really|also|still|now|actually|much|kind of|totally|absolutely|"
        r"no longer|mostly|usually|just) )*(?:likes?|loves?|enjoys?|prefers?|hates?|"
        r"dislikes?|(?:does|do)(?:n't| not) (?:really )?like|can't stand|uses?|drinks?|eats?|"
        r"(?:(?:has|have|'ve) )?(?:switched|stopped|quit|given up|gave up)(?: drinking| eating|"
        r"| using)?|(?:is|are|'re) (?:into|(?:a (?:big |huge )?|not a )fan of|allergic to)) "
        r"(?P<obj>[^.;,!?]+)",
        # My standing promise about how I answer them follows their preference.
        r"^I(?:'ll| will) (?:always |now )?(?P<obj>[^.;!?]+?) (?:from now on|going forward)",
    ],
}
_ZH_SUBJ = r"(?P<s>用户)"
# Someone else the clause may be about: "用户老公是医生" is not the user's job.
_OTHERS = (
    r"老公|老婆|丈夫|妻子|先生|太太|妈妈|爸爸|母亲|父亲|儿子|女儿|孩子|哥哥|姐姐|弟弟|妹妹|"
    r"朋友|同事|老板|组长|经理|男朋友|女朋友|室友|邻居|公司"
)
# A few words between the subject and the verb: no 的, and nobody else's.
_GAP = rf"(?:(?!{_OTHERS})[^，。；的\s]){{0,8}}?"
_CLAUSE = rf"(?:{_ZH_SUBJ}|(?<=[，,])){_GAP}"
_ZH_SPAN = r"[^，。；、！？\n]"
_ZH = {
    "name": [
        rf"{_ZH_SUBJ}(?:(?:现在|已经|改)?叫|的名字(?:是|叫))(?P<v>[\u4e00-\u9fff·]{{2,4}}?)(?=[，。,；;、]|$|是)",
        rf"{_ZH_SUBJ}是(?P<v>[{SURNAMES}][\u4e00-\u9fff]{{1,2}})(?=[，。,]|$)",
    ],
    "role": [
        rf"{_CLAUSE}(?:现在|目前|也|还|已经)?(?:是|做|当|担任)(?:一名|一个|一位|个)?"
        rf"(?P<v>{_ZH_SPAN}{{0,8}}?(?:{JOBS_ZH}))",
        rf"{_CLAUSE}(?:去|到|在)(?P<org>{_ZH_SPAN}{{1,15}}?)(?:做|当|担任)(?P<v>{_ZH_SPAN}{{0,10}}?"
        rf"(?:{JOBS_ZH}))",
    ],
    "employer": [
        rf"{_CLAUSE}(?:现在|目前|也|还|已经)?在(?P<org>{_ZH_SPAN}{{1,15}}?)(?:工作|上班|任职)",
        rf"{_CLAUSE}(?:跳槽到了?|入职了?|加入了?)(?P<org>{_ZH_SPAN}{{1,15}})",
    ],
    "city": [
        rf"{_CLAUSE}(?:住在|搬到了?|搬去了?|搬家到|定居在?)(?P<v>[\u4e00-\u9fff]{{2,8}}?)(?=了|[，。；]|$)",
    ],
    "pref": [
        rf"{_CLAUSE}(?:很|最|特别|非常|更|比较|现在|最近|也|还|一直|平时|都|已经)*(?:喜欢|爱|偏好|"
        rf"讨厌|不喜欢|不再喜欢|受不了|不再?(?:喝|吃|用)|改(?:喝|吃|用)|换成|(?:平时|一直|习惯|常|"
        rf"一般|都)用)(?P<obj>{_ZH_SPAN}+)",
        rf"{_CLAUSE}从(?P<obj>{_ZH_SPAN}+?换成{_ZH_SPAN}+)",
        rf"^我以后(?:会|都|就)?(?P<obj>{_ZH_SPAN}+)",
    ],
}
_COMPILED = {
    lang: {slot: [re.compile(p) for p in pats] for slot, pats in table.items()}
    for lang, table in (("en", _EN), ("zh", _ZH))
}
_OTHERS_RE = re.compile(_OTHERS)
_TOPIC_STOP = _words(
    """a an the with and or of in on at for to from now anymore these those this that days
    really much more over than rather instead just mostly their my your it its when them they
    lot lots very so too not no longer first please some any before after every each all both
    kind sort stuff things thing last next week weekend today yesterday tomorrow morning
    evening night month year years way even also still 了 的 一点 一些 现在 最近 就行 很 都 喝
    吃 用 写 看 听 玩 做 还 也 最 更 比较 方便 很多 一杯 才能 换成"""
)
# Sentences that state an aim ("my goal is to become …") are not the current fact.
_ASPIRATION = re.compile(
    r"goal|dream|want to|hope to|plan to|would like|目标|梦想|希望|想|打算|将来"
)
# My advice to the user is not a fact about them.
_ADVICE = re.compile(r"^(?:I advised|I told|I asked|我建议|我告诉|我问)")
# The slot (recall.user.slots) each single-valued fact is a value of.
_SLOT = {"role": "role", "employer": "work", "city": "home", "pref": "preference"}
# What the user asked is no statement of theirs.
_ASKED = re.compile(r"\b(?:asked|wondered|wants to know)\b|问(?:我|了|过)|想知道")


class Fact(NamedTuple):
    """One single-valued fact a sentence states: whose, which slot, and its value; for a
    preference, ``topic`` holds the content words it is about."""

    subject: str
    slot: str
    value: str
    topic: frozenset[str] = frozenset()

    def same(self, other: Fact) -> bool:
        """True when ``other`` states the same fact (perhaps with another value)."""
        if self.subject != other.subject or self.slot != other.slot:
            return False
        return self.slot != "pref" or bool(self.topic & other.topic)


def _topic(text: str) -> frozenset[str]:
    words = set()
    for tok in tokenize(text):
        if tok in _TOPIC_STOP or len(tok) < 2:
            continue
        plural = len(tok) > 3 and tok.endswith("s") and not tok.endswith("ss")
        words.add(tok[:-1] if plural else tok)  # "answers" and "answer" are one topic
    return frozenset(words)


def _subject(raw: str | None) -> str:
    if raw is None or raw.lower() in ("the user", "they", "用户"):
        return "user"
    return raw


def facts_of(sentence: str) -> list[Fact]:
    """The single-valued facts ``sentence`` (in the article's voice) states."""
    if _ADVICE.match(sentence):
        return []
    lang = "zh" if has_cjk(sentence) else "en"
    aim = _ASPIRATION.search(sentence) is not None
    out: list[Fact] = []
    for slot, patterns in _COMPILED[lang].items():
        if aim and slot in ("role", "employer", "city"):
            continue
        for pat in patterns:
            for m in pat.finditer(sentence):
                groups = m.groupdict()
                subject = _subject(groups.get("s"))
                if slot == "pref":
                    topic = _topic(groups["obj"])
                    if topic:
                        out.append(Fact(subject, slot, groups["obj"].strip(), topic))
                    continue
                if (
                    lang == "zh"
                    and not groups.get("s")
                    and _OTHERS_RE.search(sentence[: m.start()])
                ):
                    continue  # after "用户老公是医生" the next clause is about the husband
                value = (groups.get("v") or "").strip().rstrip(".,;'’")
                if slot == "name" and (value.split()[0] in _NOT_NAMES if value else True):
                    continue
                if value:
                    out.append(Fact(subject, slot, value))
                if groups.get("org"):
                    out.append(Fact(subject, "employer", groups["org"].strip().rstrip(".,;'’")))
    return list(dict.fromkeys(out))


#: How :func:`restate` words each slot it restates: (Chinese, English); ``{article}`` is
#: "a" or "an" for the value.
_RESTATED: dict[str, tuple[str, str]] = {
    "name": ("我知道{who}叫{value}。", "I know {who}'s name is {value}."),
    "role": ("我知道{who}是一名{value}。", "I know {who} works as {article} {value}."),
    "employer": ("我知道{who}在{value}工作。", "I know {who} works at {value}."),
    "city": ("我知道{who}住在{value}。", "I know {who} lives in {value}."),
}


def restate(fact: Fact, zh: bool) -> str | None:
    """A short sentence stating ``fact`` alone, in the article's voice (None for a
    preference: its wording is the fact)."""
    who = "用户" if fact.subject == "user" and zh else fact.subject
    who = "the user" if who == "user" else who
    if fact.slot not in _RESTATED:
        return None
    article = "an" if fact.value[:1].lower() in "aeiou" else "a"
    words = _RESTATED[fact.slot][0 if zh else 1]
    return words.format(who=who, value=fact.value, article=article)


def supersede(
    sentences: Sequence[str], groups: Sequence[object] | None = None
) -> list[list[str] | None]:
    """For each of ``sentences`` (newest first): None to keep it, ``[]`` to drop it (a
    newer sentence stated all its facts, or set the same slot of the user, see
    :func:`recall.user.slots.supersedes`), or the restatements of the facts it still
    holds alone (a newer one stated only some of them). Sentences of one of ``groups``
    (one summary's paragraph) were said together: they do not supersede each other by slot.
    """
    seen: list[Fact] = []
    newer: list[tuple[object, str, frozenset[str]]] = []
    out: list[list[str] | None] = []
    for n, sentence in enumerate(sentences):
        group = n if groups is None else groups[n]
        facts = facts_of(sentence)
        stale = [f for f in facts if any(f.same(s) for s in seen)]
        slots = (
            frozenset()
            if _ADVICE.match(sentence) or _ASKED.search(sentence)
            else (slots_of(sentence))
        )
        gone = frozenset().union(
            *(
                slots & ns
                for g, text, ns in newer
                if g != group
                and slots & ns
                and supersedes(text, sentence, newer_slots=ns, older_slots=slots)
            )
        )
        if gone and not stale:
            # A newer statement set the same slot: this one is stale; what else it says
            # (the user's name beside an old job) is restated when it can be said alone.
            left = [restate(f, has_cjk(sentence)) for f in facts if _SLOT.get(f.slot) not in gone]
            out.append([r for r in left if r is not None])
            continue
        if slots:
            newer.append((group, sentence, slots))
        if not stale:
            out.append(None)
        else:
            fresh = [f for f in facts if f not in stale]
            restated = [restate(f, has_cjk(sentence)) for f in fresh]
            if any(r is None for r in restated):
                out.append(None)  # cannot say the rest alone: keep the sentence
            else:
                out.append([r for r in restated if r is not None])
        seen.extend(facts)
    return out
