"""What the offline article keeps of a summary: facts about the user, not talk around them.

A promoted summary holds the whole exchange: what the user told, what they asked, and what
I (the assistant) answered and advised. The article is the user's lasting memory, so of a
summary's sentences it keeps (:func:`kept`):

- the user's statements (a named speaker's too, as in an imported transcript), less bare
  reactions ("Good idea.", "Thanks, that helps.", "好主意。") and follow-ups that only make
  sense beside my advice ("I'll order one.");
- not the user's questions ("What should I pack for Edinburgh?"), nor a named speaker's in
  an imported transcript, unless one carries a durable fact (:mod:`.durable`) or sets a
  standing rule ("… from now on?");
- of mine, only what restates or carries a fact about the user ("Since you're vegetarian,
  …"), or a promise of mine ("I'll keep answers short."): not my advice (an instruction,
  "you should/could", "I'd recommend", 建议/可以/试试…), not my questions, not my
  reactions ("That's great news!") and not general knowledge that names nobody;
- a sentence that tells a mood beside a durable fact ("I'm nervous because I'm
  vegetarian") is cut to the fact's clauses: the mood passes, the fact must not.

Nothing is lost: every summary stays in the archive tier and every turn in the turn tier,
both searched by ``deep_recall``.
"""

from __future__ import annotations

import re

from ..user.durable import durable_clause, is_durable
from .routing import is_mood
from .sentences import Speaker
from .voice import is_imperative

__all__ = ["is_advice", "kept"]

_I = re.IGNORECASE
_QUESTION = re.compile(r"[?？][\"'”’)）]*$")
# Words that may open an instruction without being one: "Then use …", "Yes, always carry it".
_OPENERS = re.compile(
    r"^(?:[-*•]\s+|\d+[.)]\s+|(?:so|then|first|next|also|and|just|yes|no|sure|instead|"
    r"otherwise|meanwhile|finally|in the meantime|for now|if so|if not|honestly)\b[,:]?\s+"
    r"|(?:那|那就|也|还|另外|然后|首先|其次|最后)[，,]?)+",
    _I,
)
_SUGGESTS = re.compile(
    r"\byou (?:should|could|might|may want|can|can't|cannot|need|needn't|don't need|do not "
    r"need|don't have|have to|must|'ll want|will want|want to|'d better)\b|\b(?:i'd|i would|"
    r"i|we|most \w+|many \w+) (?:recommend|suggest|advise)|\bconsider\b|\bmake sure\b|"
    r"\bit'?s (?:worth|a good idea|best|better|wise|smart)\b|\bdon'?t forget\b|\btry\b|"
    r"\b(?:a good|the best|your best) (?:option|bet|choice|way)\b",
    _I,
)
_SUGGESTS_ZH = re.compile(
    r"^(?:先|可以|建议|试试|试着|用|把|注意|记得|别|不要|提前|检查|每天|多|重点|对比|保持|"
    r"打开|关闭|安装|设置|考虑|避免|尽量|装|加|改|换|去|直接|最好|定期|确认|核对|看看|留意|"
    r"控制|减少|增加|调|补|选|问|按|预约|准备|带|拍照|问一句|一般|通常)"
    r"|建议|可以|不妨|最好|记得|别忘了|一定要|要注意|应该|需要"
)
# Mine about the user: "you" as what the sentence is about ("You mentioned …", "Since
# you're vegetarian, …"), not a generic one ("a greeting for people you don't know").
_ABOUT_USER = re.compile(
    r"^(?:you|your)\b|\b(?:since|as|because|now that|given that) (?:you|your)\b|"
    r"\byou (?:mentioned|said|told me|wrote|shared|noted)\b|^[你您](?!们)|"
    r"(?:因为|既然|由于)[你您]|[你您](?:提到|说过|之前说|告诉过我)",
    _I,
)
_YOU = re.compile(r"\b(?:you|your|yours|yourself)\b|\byou['’]|[你您](?!们)", _I)
_PROMISE = re.compile(
    r"^(?:I['’]ll|I will|I won['’]t|I['’]m going to|I am going to|From now on|Going "
    r"forward|I['’]ll remember)\b|^(?:以后|我会|我以后|我记住)",
    _I,
)
_REACTS = re.compile(
    r"^(?:that['’]?s|that is|that|this|it['’]?s|it is|what a|how|sounds|good|great|glad|"
    r"nice|lovely|wonderful|well done|congratulations|congrats|welcome|totally|completely|"
    r"absolutely|happy to|of course|perfect|excellent|awesome|wow|oh|ah)\b"
    r"|^(?:太好了|真|听起来|这(?:是|个|样)|恭喜|欢迎|不错|很好|挺好|进步|适应|问一句)|辛苦",
    _I,
)
# The user's standing rules are kept even when asked as a question.
_STANDING = re.compile(r"\b(?:from now on|going forward|in (?:the )?future)\b|以后|永远|每次", _I)
_REACTION_WORDS = (
    r"ok|okay|good|great|nice|perfect|cool|wow|thanks|thank you|sure|yes|yeah|right|ah|oh|"
    r"hmm|alright|got it|good idea|great idea|makes sense|that makes sense|that helps|"
    r"sounds good|sounds great|good point|fair enough|will do|noted|that sounds much better|"
    r"that sounds better|that sounds good|that's helpful|that's useful|that's perfect|"
    r"that's a good idea|grazie|cheers"
)
_REACTION = re.compile(rf"^(?:(?:{_REACTION_WORDS})\b[\s,.!~]*)+$", _I)
# A follow-up that only makes sense beside my advice ("I'll wait.", "I'll order one.").
_VAGUE = re.compile(
    r"^(?:i['’]ll|i will|i['’]m going to)(?: just)?\s+(?:[a-z]+\s+){0,2}[a-z]+"
    r"(?:\s+(?:it|one|that|them|then|this|too|again|first))?\s*[.!]*$"
)
_VAGUE_ZH = re.compile(
    r"^(?:那|好)?我(?:就|先)?(?:今晚|明天|回头|这就|马上)?(?:就)?(?:试试|记下了|记住了|知道了|"
    r"明白了)(?:吧|了)?[。！!]*$"
)
_LEADING_REACTION = re.compile(
    r"^(?:(?:great|good|perfect|nice|cool|thanks|thank you|wow|okay|ok|alright|sure|yes|"
    r"yeah|good idea|great idea|makes sense)[,!.]\s+)+",
    _I,
)
_REACTION_ZH = re.compile(
    r"^(?:(?:好的?|好主意|这个方法好|这个主意不错|好办法|明白了?|懂了|有道理|太好了|谢谢(?:你|您)?|"
    r"收到|嗯+|哦+|行|对)[\s，,。！!~]*)+$"
)
_LEADING_REACTION_ZH = re.compile(r"^(?:(?:好的?|嗯+|哦+|行|对|好主意|这个方法好)[，,！!]\s*)+")


def is_advice(sentence: str) -> bool:
    """True when ``sentence`` (said by me) advises: an instruction, or a suggestion."""
    text = _OPENERS.sub("", sentence.strip())
    if re.search(r"[\u4e00-\u9fff]", text):
        return _SUGGESTS_ZH.search(text) is not None
    return is_imperative(text) or _SUGGESTS.search(text) is not None


def kept(speaker: Speaker, sentence: str) -> str | None:
    """What the article keeps of ``sentence`` said by ``speaker`` (see the module
    docstring): the sentence, its durable clauses, or None."""
    text = sentence.strip()
    if not text or speaker.role == "tool":
        return text or None
    if speaker.role == "assistant":
        return _mine(text)
    text = _LEADING_REACTION_ZH.sub("", _LEADING_REACTION.sub("", text))
    if not text or _bare(text):
        return None
    durable = is_durable(text)
    if durable and is_mood(text):
        return durable_clause(text)
    if _QUESTION.search(text) and not (durable or _STANDING.search(text)):
        return None
    return text


def _bare(text: str) -> bool:
    """A reaction, or a follow-up of the user's that says nothing on its own."""
    lowered = text[:1].lower() + text[1:]
    return bool(
        _REACTION.match(text)
        or _REACTION_ZH.match(text)
        or _VAGUE.match(lowered)
        or _VAGUE_ZH.match(text)
    )


def _mine(text: str) -> str | None:
    """What the article keeps of a sentence of mine (the assistant's)."""
    if is_durable(text) and _YOU.search(text):
        return text  # a fact about the user, even inside advice
    if _QUESTION.search(text) or is_advice(text) or _REACTS.match(text):
        return None
    bare = _OPENERS.sub("", text)
    return text if _ABOUT_USER.search(bare) or _PROMISE.match(bare) else None
