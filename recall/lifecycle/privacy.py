"""Turns the user asked not to keep: found offline, kept out of every tier.

A user turn that asks the assistant not to keep something ("keep this between us: the door
code is 4412", "please don't store my password", "别记住这个", "帮我保密") is **private**,
and so are the replies that follow it up to the next user turn (they may repeat it). A
turn that points back ("forget what I just said", "scratch that from your memory", "当我没
说", "刚才说的别记") or that holds nothing but the request ("Don't remember that.") also
makes the previous user turn and the replies after it private.

:func:`private_turns` is pure; :class:`~recall.lifecycle.pipeline.Lifecycle` drops private
turns before anything is summarized, journaled or stored as a turn record, so neither the
short-term summary, the archive, the raw turns nor the article ever hold them. The session
history of :mod:`recall.context` is not touched: the assistant may still use what was said
within the conversation. Labelled phrasings and near-misses: tests/lifecycle/test_privacy.py.

The patterns ask for an imperative or a statement about keeping ("don't remember this"),
never a plain negation ("I don't remember where I parked", "我不记得了") or a reminder
("don't forget to buy milk", "别忘了带伞"). They find about half of what people who never
read them write; :mod:`.privacy_model` (a model of the whole message, learned from
examples) is given to :func:`private_turns` as ``learned`` and adds what it reads.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from .states import Turn

__all__ = ["Learned", "asks_privacy", "private_turns", "without_private"]

# Where an imperative can start: the text's start, a clause break, or a softener.
_LEAD = (
    r"(?:^|[.!?,;:…()\"'\n-]\s*|\b(?:please|pls|plz|just|and|but|so|also|ok|okay|oh|hey|"
    r"um|actually|seriously|btw|now|honestly|kindly|then)\s+)"
)
# The object must end its clause ("don't save this." / "don't log this error" is not it).
_END = r"(?=\s*(?:[.!?,;:)\n—-]|$|please\b|ok\b|okay\b|either\b|anywhere\b|at all\b|though\b))"
# Verbs of keeping that take a bare object; the weak ones ("put", "add", "write") only
# with a memory as the place ("don't add this to your memory").
_KEEP = (
    r"(?:remember|store|save|keep|record|log|memori[sz]e|retain|note|keep track of|"
    r"make a note of|write down|jot down|note down|keep a note of)"
)
_WEAK = r"(?:put|add|include|commit|file|write|save|store|keep|enter)"
_SECRET = (
    r"(?:password|passcode|passphrase|pin|code|combination|card|credit card|account|ssn|"
    r"social security|address|phone|number|details|secret|info|information|data|key|"
    r"diagnosis|salary|login|credentials)"
)
_SAID = r"what i(?:'ve| have)? (?:just |just now )?(?:said|told you|wrote|typed|mentioned|shared)"
_OBJECT = (
    r"(?:(?:(?:this|that|these|those|it|any of (?:this|that|it)|anything (?:about|of) "
    r"(?:this|that)|everything)(?:\s+(?:part|bit|one|conversation|chat|stuff|details?|"
    rf"message|info|information|fact|thing))?{_END})|{_SAID}|my [\w ]{{0,20}}?{_SECRET}s?\b"
    r"|(?:the|a|any) record of)"
)
_MEMORY = r"(?:in|to|into|inside) (?:your |the )?(?:memory|memories|notes|records?|database|log)"
_BACK = (
    rf"(?:{_SAID}|(?:that|this|it) i (?:just )?(?:said|told you|mentioned)"
    r"|(?:everything|all) i (?:just )?(?:said|told you)|my (?:last|previous) (?:message|sentence)"
    r"|the last (?:thing|message|part|bit) i (?:said|wrote)"
    r"|i (?:ever )?(?:said|mentioned) (?:that|it|anything))"
)
_DONT = r"(?:please\s+)?(?:don'?t|do not|never)\s+(?:(?:ever|even|actually|really)\s+)?"

_FORWARD_EN = [
    # "don't remember this", "please never store my password", "do not save it to memory"
    rf"{_LEAD}{_DONT}{_KEEP}\s+{_OBJECT}",
    rf"{_LEAD}{_DONT}(?:write|jot|note|put)\s+(?:this|that|it)\s+down\b",
    rf"{_LEAD}{_DONT}(?:{_KEEP}|{_WEAK})\b[^.!?\n]{{0,40}}{_MEMORY}",
    r"\b(?:no need|there'?s no need|you (?:don'?t|do not) (?:need|have)|you (?:shouldn'?t|"
    r"should not|mustn'?t)|i'?d (?:rather|prefer) (?:you )?(?:didn'?t|did not|not|wouldn'?t)|"
    rf"can you not|could you not|i (?:don'?t|do not) want you)\s+(?:to\s+)?{_KEEP}\s+{_OBJECT}",
    r"\bkeep (?:this|that|it|what i (?:say|said|tell you))\s+(?:just |strictly |only )?"
    r"(?:between (?:us|you and me|the two of us|ourselves)|private|a secret|secret|confidential|"
    r"to yourself|off the record|under wraps|on the down ?low)",
    r"\bbetween (?:you and me|the two of us|ourselves)\b",
    rf"\bbetween us\b{_END}",
    r"\b(?:this|that|it)(?: is|'s| stays| remains| should stay) (?:just |strictly )?"
    rf"(?:between us|private|confidential|a secret|secret|off the record){_END}",
    r"\boff the record\b",
    r"\b(?:tell(?:ing)? you|say(?:ing)? this|shar(?:e|ing) this) in (?:strict )?confidence\b",
    r"\bnot (?:something|anything) (?:for you|you should|to) (?:remember|store|keep|save)\b",
    r"\bnot for (?:your )?(?:memory|memories|the record|your notes)\b",
    rf"{_LEAD}{_DONT}(?:tell|share (?:this|it) with) (?:anyone|anybody|a soul|others|other people)",
    r"\bcan you keep a secret\b",
    r"\bi (?:don'?t|do not) want (?:this|that|it) (?:to be )?(?:saved|stored|remembered|"
    r"recorded|kept|logged|written down|in your memory)",
    r"^\s*(?:private|confidential|secret|off the record|between us)\s*[:：—–-]",
    # "forget it" as the second step: "help me with the form, then forget it", "forget
    # this once you've answered". Alone ("oh, forget it, I'll do it myself") it is never
    # mind, and "... and forget that" is often a statement ("easy to get lost and forget
    # that"); bound to a later moment, or after "then", it asks not to keep.
    r"\bforget (?:it|this|that|them|all of (?:it|this|that)|about it)"
    r"(?:\s+(?:all|entirely|completely|right|straight|immediately|again|please))*\s+"
    r"(?:after(?:wards?)?|once|when|as soon as|the moment|later)\b",
    r"\bthen\s+(?:please\s+)?(?:just\s+)?forget (?:it|this|them|about it)\b",
]
_BACK_EN = [
    rf"{_LEAD}(?:please\s+)?(?:forget|unlearn)\s+(?:about\s+)?{_BACK}",
    # A bare "forget that." only opening a sentence: "easy to get lost and forget that."
    r"(?:^|[.!?\n]\s*|\bplease\s+)(?:please\s+)?forget "
    r"(?:(?:that|this)(?:\s+(?:please|ok|okay))?\s*(?:[.!]|$)"
    rf"|my [\w ]{{0,20}}?{_SECRET}s?\b)",
    r"\b(?:delete|erase|remove|wipe|scrub|strike|scratch|drop|purge)\s+(?:that|this|it|"
    rf"{_BACK}|my [\w ]{{0,20}}?{_SECRET}s?)\s+(?:from|out of|off)\s+(?:your |the )?"
    r"(?:memory|memories|records?|notes|history|mind|database)",
    rf"\b(?:delete|erase|strike)\s+{_BACK}",
    rf"{_LEAD}{_DONT}{_KEEP}\s+(?:that{_END}|{_BACK})",
    r"\b(?:pretend|act like|act as if) i (?:never|didn'?t) (?:said|say|told|tell|mention)",
]

_NO = r"(?:别|不要|不用|无需|不必|甭|千万别|千万不要|请勿|勿|不许|不准|不可以|不需要)"
_ZH_KEEP = (
    r"(?:记(?:住|下|录|着|得)?(?![错混反岔性仇恨账挂])"
    r"|保存(?!文件|代码|修改|更改|设置|图片)|储存|存储|存下|存起来|留存|留底"
    r"|存(?=[这那它下起我：:，,。！!]|$)"
    r"|(?:写|放|加|存|录|收|记)(?:进|到|入|在)[^，,。]{0,6}?"
    r"(?:记忆|脑子|笔记|备忘|档案|数据库|资料库|小本本))"
)
_FORWARD_ZH = [
    rf"(?<![我他她])(?:请|你)?{_NO}(?:再|帮我|给我|替我)?{_ZH_KEEP}",
    rf"{_NO}(?:把|将)[^，,。！!？?]{{0,20}}?{_ZH_KEEP}",
    r"(?:帮|替|给)(?:我|咱们|我们|咱)保密|请(?:你)?保密|(?:要|务必|一定要?|记得)(?:替我|帮我)?保密"
    r"|保密(?:哦|喔|啊|呀|吧|哈|好吗|好不好|[!！。]|$)",
    r"(?:这|那)(?:个|件事|事)?(?:是|可是|算)(?:我的|我们的|个|一个)?(?:小)?秘密",
    r"(?:咱们|我们|咱俩|我俩|你我)(?:之间)?的(?:小)?秘密|(?:咱们|我们|咱俩|我俩)私下(?:说|讲|聊)"
    r"|私下(?:跟|和|对)你(?:说|讲)|(?:偷偷|悄悄)(?:跟|和|告诉)你",
    r"你知道就(?:好|行|可以)|天知地知|别外传|不要外传|不许外传|别说出去|不要说出去"
    r"|别告诉(?:别人|任何人)",
    rf"{_NO}(?:留|存|作|做)(?:任何)?(?:记录|档|底|备份)",
    rf"{_NO}往(?:你的)?(?:记忆|脑子|笔记|备忘|小本本)里?(?:写|存|记|放|加)",
    r"当(?:作|做)?没(?:听到|听见|看到|看见)|(?<![我他她])听完(?:就)?忘|保守(?:这个|我的)?秘密",
    r"只(?:跟|和|对)你(?:一个人)?(?:说|讲)|只告诉你|(?:别|不要|不能)让(?:别人|其他人|任何人)知道",
]
_BACK_ZH = [
    r"(?<![我他她你要别不])(?:忘掉|忘了|忘记|删掉|删除|抹掉|抹去|清除)(?:我)?"
    r"(?:刚才|刚刚|刚|之前|上面|前面)(?:说|讲|提|发|告诉)",
    r"(?:刚才|刚刚|上面|前面)(?:说|讲|提|发)的[^，,。]{0,8}?"
    r"(?:(?<![别要不])忘|删|抹|别记|不要记|不用记|别存|不要存)",
    r"当我没(?:说|讲|提)|就当没(?:说|讲)",
    r"(?:刚才|刚刚)(?:那句|那些|那段|说的)(?:话)?(?:你)?(?:就)?(?:别|不要|不用)(?:记|存|保存|留)",
]

_FLAGS = re.IGNORECASE
_FORWARD = [re.compile(p, _FLAGS) for p in _FORWARD_EN + _FORWARD_ZH]
_BACKWARD = [re.compile(p, _FLAGS) for p in _BACK_EN + _BACK_ZH]
# Content beside the request itself, in letters: "Don't remember that." alone points back.
_WORD = re.compile(r"[0-9a-z]+|[\u3400-\u9fff]")
_STANDALONE_UNITS = 6


def _clean(text: str) -> str:
    return text.replace("\u2019", "'").replace("\u2018", "'").replace("\uff07", "'")


def asks_privacy(text: str) -> str | None:
    """``"back"`` when ``text`` asks to drop what was said before it, ``"this"`` when it
    asks not to keep itself, None when it asks neither."""
    clean = _clean(text).casefold()
    back = [m for p in _BACKWARD for m in p.finditer(clean)]
    forward = [m for p in _FORWARD for m in p.finditer(clean)]
    if back:
        return "back"
    if not forward:
        return None
    rest = clean
    for m in forward:
        rest = rest.replace(m.group(), " ")
    # A CJK character carries about as much as a short word: it counts as two letters.
    units = sum(len(w) if w.isascii() else 2 for w in _WORD.findall(rest) if w not in _FILLER)
    return "back" if units < _STANDALONE_UNITS else "this"


_FILLER = frozenset(
    [
        "please",
        "pls",
        "this",
        "that",
        "it",
        "and",
        "ok",
        "okay",
        "thanks",
        "thank",
        "you",
        "the",
        "a",
        "的",
        "了",
        "吧",
        "啊",
        "哦",
        "这",
        "个",
        "那",
        "请",
    ]
)


#: Reads which of several user messages ask not to keep something (a learned model).
Learned = Callable[[Sequence[str]], list[bool]]
# A request the learned model finds in a message this short (words; a CJK character is
# half of one) carries nothing else to keep private: it points back, as "forget that" does.
_SHORT_WORDS = 8


def _kinds(messages: Sequence[Mapping[str, Any]], learned: Learned | None) -> dict[int, str | None]:
    """Each user message's request (:func:`asks_privacy`'s kind, None: none): the patterns',
    else ``learned``'s reading of what they missed, "back" when short (see
    :data:`_SHORT_WORDS`), else "this"."""
    texts = {
        i: str(m.get("content") or "") for i, m in enumerate(messages) if m.get("role") == "user"
    }
    kinds = {i: asks_privacy(text) for i, text in texts.items()}
    if learned is None:
        return kinds
    missed = [i for i, kind in kinds.items() if kind is None and texts[i].strip()]
    for i, asks in zip(missed, learned([texts[i] for i in missed]), strict=True):
        if asks:
            words = sum(
                1.0 if w.isascii() else 0.5 for w in _WORD.findall(_clean(texts[i]).casefold())
            )
            kinds[i] = "back" if words < _SHORT_WORDS else "this"
    return kinds


def private_turns(
    messages: Sequence[Mapping[str, Any]], learned: Learned | None = None
) -> set[int]:
    """Indices of the messages to keep out of memory (see the module docs): every user turn
    that asks for privacy (the patterns', or ``learned``'s reading of the turns they
    missed), the turns after it up to the next user turn and, for a request that points
    back, the previous user turn and the turns between."""
    kinds = _kinds(messages, learned)
    out: set[int] = set()
    last_user: int | None = None
    covering = False
    for i, message in enumerate(messages):
        if message.get("role") != "user":
            if covering:
                out.add(i)
            continue
        kind = kinds[i]
        covering = kind is not None
        if covering:
            out.add(i)
        if kind == "back" and last_user is not None:
            out.update(range(last_user, i))
        last_user = i
    return out


def without_private(turns: Sequence[Turn], learned: Learned | None = None) -> list[Turn]:
    """``turns`` without the private ones (:func:`private_turns`, ``learned`` included);
    empty when no user or assistant turn is left."""
    private = private_turns([{"role": t.role, "content": t.text} for t in turns], learned)
    kept = [t for i, t in enumerate(turns) if i not in private]
    # A system prompt or tool output left alone is no conversation to remember.
    if private and not any(t.role in ("user", "assistant") and t.text.strip() for t in kept):
        return []
    return kept
