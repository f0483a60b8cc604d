"""The article's voice: every sentence retold in the first person of the AI.

Memory design v0.1 writes the long-term memory as the AI's own narrative. A sentence of a
summary is retold by who said it:

- the user: "I'm Zhang Min, a data scientist." → "I know the user is Zhang Min, a data
  scientist."; a passing mood → "I noticed the user is …"; a request → "The user asked me
  to …"; a question → "The user asked me how to …"; a clause whose subject is a pronoun
  → "The user told me that they …"; anything else is quoted, "The user told me: “Five
  hours each way.”" (a fragment after "that" is not English; a named speaker, as in an
  imported transcript, keeps their name);
- me (the assistant): my own "I" stays, the user's "you" becomes "the user"/"they";
  advice → "I advised the user to …"; anything else → "I told the user that …";
  an acknowledgement ("Understood: I will keep answers short.") or a pleasantry ("Good
  luck!") is dropped: the user's own sentence carries the fact, and an echo of it would
  outlive the user changing their mind;
- a tool → "I checked with <tool>: …"; nobody known (a summary string) → first person
  is the user's, a sentence about "the user" gets "I know", the rest "I noted that …".

Greetings and thanks carry nothing and return None. Chinese follows the same plan
(:mod:`.voice_zh`). Sentences already in the voice are left as they are.
"""

from __future__ import annotations

import re

from ..text import has_cjk
from .grammar import lower_first, swap_persons, third_person
from .routing import is_transient
from .sentences import Speaker
from .voice_zh import voice_zh

__all__ = ["core", "is_imperative", "is_voiced", "voice"]

_FRAMES = re.compile(
    r"^(?:I know (?:that )?|I noticed (?:that )?|I noted that |I told (?:the user|[A-Z][a-z]+"
    r"(?: [A-Z][a-z]+)?) (?:that )?|I advised (?:the user|[A-Z][a-z]+(?: [A-Z][a-z]+)?) to "
    r"|I checked with [^:]{1,40}: |(?:The user|[A-Z][a-z]+(?: [A-Z][a-z]+)?) (?:told me"
    r"(?:: [\"\u201c]?| (?:that )?)|asked me(?: to|:)? |suggested (?:that )?we ))"
    r"|^(?:我知道|我注意到|我记得|我告诉(?:用户|\S{1,4})，|我建议用户|我用\S{0,20}查到：|"
    r"(?:用户|\S{1,4})(?:跟我说，|问我：?|请我|要求我))"
)
_DISCOURSE = re.compile(
    r"^(?:(?:hi|hey|hello|oh|well|so|also|ok|okay|actually|honestly|btw|by the way|fyi|"
    r"anyway|quick note|big news|good news|update|heads up|one more thing|just so you know|"
    r"to be honest|ps)\b[,:!.\s-]*)+",
    re.IGNORECASE,
)
_FILLER = re.compile(
    r"^(?:(?:hi|hey|hello|thanks|thank you|thx|ok|okay|sure|great|cool|nice|good|yes|yeah|"
    r"yep|no|nope|ha|haha|lol|wow|awesome|perfect|alright|all right|got it|bye|cheers|"
    r"congratulations|congrats|sorry(?: to hear(?: it| that)?)?|no problem|you're welcome|"
    r"will do|noted|understood|of course|absolutely|certainly|excellent|good luck|"
    r"safe travels|welcome)\b[\s,.!?:;-]*)+$",
    re.IGNORECASE,
)
_ACK_WORDS = (
    "understood|noted|got it|will do|sure|ok|okay|of course|absolutely|certainly|"
    "congratulations|congrats|ha|haha|sorry to hear it|sorry to hear that|sorry|thanks|"
    "thank you|you're welcome|happy to help|glad to hear it|glad to hear that|no problem|"
    "alright|all right|great|nice|good|excellent|perfect|cool|awesome|wow|done|yes|yeah|"
    "good luck|safe travels|well done"
)
# Longest first: "good luck" must not match as "good" + "luck…".
_ACK = re.compile(
    r"^(?:" + "|".join(sorted(_ACK_WORDS.split("|"), key=len, reverse=True)) + r")\b"
    r"(?:[\s]*[,.!:;—-]+\s*|$)",
    re.IGNORECASE,
)
# Praise or a send-off ("Great topic.", "Excellent time, especially at altitude.", "and
# good luck with the talk."): kind, but nothing to remember.
_PLEASANTRY = re.compile(
    r"^(?:and\s+)?(?:(?:great|good|nice|excellent|awesome|perfect|lovely|wonderful|"
    r"impressive|amazing)\b(?=(?:\W+\w+){0,5}\W*$)|good luck|have fun|enjoy|take care|"
    r"safe travels|congrat|well done|best of luck|fingers crossed)",
    re.IGNORECASE,
)
_REQUEST = re.compile(
    r"^(?:(?:can|could|would|will) you|would you mind|could you maybe)\s+(?:please\s+)?(.+?)"
    r"[?？]+$",
    re.IGNORECASE,
)
_HOW_TO = re.compile(
    r"^(how|what|where|which|when|who)\s+(?:do|can|should|could|would|shall|might)\s+I\s+(.+?)"
    r"[?？]+$",
    re.IGNORECASE,
)
_IMPERATIVE = re.compile(
    r"^(?:please\s+)?(?:(?:always|never|just|also)\s+)?(keep|use|answer|reply|respond|write|"
    r"call|remember|stop|avoid|send|show|give|explain|tell|make|help|check|add|fix|put|try|"
    r"review|look|find|note|include|skip|mention|suggest|recommend|list|summarize|"
    r"translate|format|ask|remind|share|store|save|delete|forget|be|speak|talk|stick|switch|"
    r"focus|start|consider|read|go|don't|do not|never|always|run|wrap|lead|turn|install|pin|"
    r"move|reserve|sync|time|label|rest|freeze|profile|set|enable|disable|remove|restart|"
    r"update|upgrade|replace|split|merge|deploy|test|open|create|define|take|drink|eat|"
    r"sleep|walk|slow|limit|cache|index|compare|measure|log|print|debug|trace|inspect|plan|"
    r"schedule|book|pack|bring|prepare|practice|rehearse|reduce|drop|increase|decrease|"
    r"raise|lower|double-check|refactor|document|rewrite|backup|back|benchmark|pair|learn|"
    r"watch|aim|let|expect|serve|invite|email|register|visit|recruit|rank|renew|carry|wear|"
    r"block|frame|spend|buy|order|pick|choose|leave|end|plug|join|practise|get)\b",
    re.IGNORECASE,
)
_FIRST_PERSON_START = re.compile(r"^(?:I\b|I['’](?:m|ve|d|ll)\b|My\b|Mine\b)")
_FIRST_PERSON = re.compile(r"\bI\b|\bI['’]|\b(?i:me|my|mine|myself)\b")
_ABOUT_USER = re.compile(r"^(?:the user|user)\b", re.IGNORECASE)
# A retold clause whose subject is a pronoun, after a time or place in front at most ("that
# she's marrying…", "that there's a job in Edinburgh", "that from next month they're a
# pilot"); anything else is quoted rather than guessed at.
_SUBJECT = re.compile(
    r"^(?:(?:now|then|today|tonight|tomorrow|yesterday|next|last|this|from|on|at|in|after|"
    r"before|since|by|for)\b[^,;:.!?]{0,30}?,?\s+)?(?:he|she|it|they|we|there|this|that|these|those|someone|somebody|everyone|"
    r"everybody|nobody|no one|nothing|everything|something)(?:['’](?:s|re|ve|ll|d))?\s",
    re.IGNORECASE,
)
_PLEASE = re.compile(r"(?:,\s*please|\s+please)(?=[.!]*$)", re.IGNORECASE)


def is_voiced(sentence: str) -> bool:
    """True when ``sentence`` already speaks in the article's voice (starts with a frame)."""
    return _FRAMES.match(sentence) is not None


def is_imperative(sentence: str) -> bool:
    """True when ``sentence`` opens with an instruction ("Try …", "Keep …", "Don't …")."""
    return _IMPERATIVE.match(sentence.strip()) is not None


def core(sentence: str) -> str:
    """``sentence`` without its frame ("I know the user works at Acme." → "the user works
    at Acme."): what near-duplicates are compared on."""
    out = _FRAMES.sub("", sentence, count=1) or sentence
    # A quotation's closing mark goes with its opening one (the frame).
    return out[:-1] if out.endswith("\u201d") and "\u201c" not in out else out


def voice(speaker: Speaker, sentence: str) -> str | None:
    """``sentence`` (said by ``speaker``) retold in the AI's voice; None when it carries
    nothing worth keeping (see the module docstring)."""
    text = sentence.strip()
    if not text:
        return None
    if has_cjk(text):
        return voice_zh(speaker, text)
    if speaker.role == "tool":
        return f"I checked with {speaker.name or 'a tool'}: {text}"
    if speaker.role == "assistant":
        return _assistant(text)
    return _user(text, speaker.name or "the user") if speaker.role == "user" else _unknown(text)


def _unknown(text: str) -> str | None:
    """A sentence of a summary string: its first person is taken to be the user's."""
    if is_voiced(text):
        return text
    if _ABOUT_USER.match(text):
        return _end("I know " + lower_first(re.sub(r"^user\b", "the user", text, flags=re.I)))
    if not _FIRST_PERSON.search(text) and not _question(text):
        return _end("I noted that " + lower_first(text))
    return _user(text, "the user")


def _user(text: str, subject: str) -> str | None:
    text = _DISCOURSE.sub("", text).strip()
    if not text or _FILLER.match(text):
        return None
    text = _PLEASE.sub("", text[:1].upper() + text[1:])
    asker = subject[:1].upper() + subject[1:]
    if _question(text):
        return _asked(text, asker)
    if _IMPERATIVE.match(text):
        rest = re.sub(r"^please\s+", "", text, flags=re.I)
        rest = re.sub(r"^(?:don't|do not)\s+", "not to ", rest, flags=re.I)
        rest = rest if rest.startswith("not to ") else "to " + rest[:1].lower() + rest[1:]
        return _end(f"{asker} asked me {third_person(rest, None)}")
    if m := re.match(r"^let['’]?s\s+(.+)$", text, re.IGNORECASE):
        return _end(f"{asker} suggested that we {third_person(m.group(1), None)}")
    if _FIRST_PERSON_START.match(text):
        frame = "I noticed " if is_transient(text) else "I know "
        return _end(frame + lower_first(third_person(text, subject)))
    return _told(text, asker)


def _told(text: str, asker: str) -> str:
    """A statement of the user's that is not about them: "told me that" with a clause
    whose subject is a pronoun, else their words quoted. "Five hours each way." and "Joan
    will never share a slice." are not both clauses, and "told me that five hours each
    way" is not English: a quotation always is."""
    told = third_person(text, None)
    if _SUBJECT.match(told):
        return _end(f"{asker} told me that {lower_first(told)}")
    return f"{asker} told me: \u201c{_end(text)}\u201d"


def _asked(text: str, asker: str) -> str:
    """A question of the user's: a request, a how-to, or any other question."""
    if m := _REQUEST.match(text):
        return _end(f"{asker} asked me to {third_person(m.group(1), None)}")
    if m := _HOW_TO.match(text):
        wh, rest = m.group(1).lower(), third_person(m.group(2), None)
        return _end(f"{asker} asked me {wh} to {rest}")
    return f"{asker} asked me: {lower_first(third_person(text, None))}"


def _assistant(text: str) -> str | None:
    if _FILLER.match(text) or _ACK.match(text) or _PLEASANTRY.match(text):
        return None
    if _question(text):
        return f"I asked the user: {lower_first(swap_persons(text))}"
    if re.match(r"^(?:I\b|I['’]|We\b|We['’]|My\b|Our\b|Let me\b)", text):
        return _end(swap_persons(text))
    if _IMPERATIVE.match(text) and not re.match(r"^(?:always|never|just|also)\b", text, re.I):
        rest = text[:1].lower() + text[1:]
        return _end(f"I advised the user to {swap_persons(rest)}")
    return _end(f"I told the user that {lower_first(swap_persons(text))}")


def _question(text: str) -> bool:
    return re.search(r"[?？][\"'”’)）]*$", text) is not None


def _end(text: str) -> str:
    """``text`` ending with a full stop (an exclamation reads oddly in a memory)."""
    text = text.rstrip()
    text = re.sub(r"[!！]+([\"'”’)]*)$", r".\1", text)
    if not re.search(r"[.!?。！？…][\"'”’)）]*$", text):
        text += "."
    return text
