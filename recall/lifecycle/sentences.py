"""Whole sentences and who said them: how a stimulus is read before it is routed.

The offline summarizer writes one line per message, labelled by role ("User: …",
"Assistant: …", "Tool result (search): …"; docs/design.md); an imported transcript may
also name the speaker inside the text ("User: Caroline: …"). :func:`utterances` turns such
text into ``(speaker, sentence)`` pairs.

Sentences end at ``.``, ``!``, ``?`` (followed by a space) or ``。！？``, never at ``;`` or
``：``: a clause after a semicolon leans on the one before it ("…OOM-killed; we raised the
limit to 1Gi."), so cutting there leaves fragments. A full stop after a known abbreviation
("Dr.", "e.g.") or before a lower-case word is not an end either.
"""

from __future__ import annotations

import re
from typing import NamedTuple

__all__ = ["Speaker", "Utterance", "parse_label", "split_whole_sentences", "utterances"]

# A Latin end (. ! ? …, closing quotes or brackets kept with it) followed by spaces, or a
# CJK end (with its closing quotes) followed by anything.
_END = re.compile(r"[.!?…]+[\"'”’)\]]*(?=\s)|[。！？]+[”’」』）)]*")
_ABBREV_WORDS = "mr mrs ms dr prof st vs etc e.g i.e eg ie inc ltd co jr sr no nr approx fig cf al"
_ABBREV = frozenset(_ABBREV_WORDS.split())
_LABEL_WORDS = (
    r"User|Assistant|System|Developer|Tool result|Tool|Function|Human|AI|Bot|用户|助手|系统"
)
# A role label as the summarizer writes it, optionally with the speaker's name.
_LABEL = re.compile(
    rf"^\s*(?:[-*•]\s+)?(?P<role>{_LABEL_WORDS})(?:\s*[(（](?P<name>[^()（）]{{1,40}})[)）])?"
    r"\s*[:：]\s*"
)
# Labels inside a line: legacy articles joined every turn's sentences into one paragraph.
_INNER_LABEL = re.compile(
    rf"(?<=[.!?。！？”])\s*(?=(?:{_LABEL_WORDS})(?:\s*[(（][^()（）]{{1,40}}[)）])?\s*[:：]\s)"
)
# "Caroline: …" at the start of a user's text: a transcript that names its speakers.
_NAMED = re.compile(r"^(?P<name>[A-Z][a-z]+(?: [A-Z][a-z]+){0,2}):\s+(?=\S)")
_NOT_NAMES_WORDS = (
    "Note Update Summary Todo Tip Warning Error Result Answer Question Edit Fix Status Goal "
    "Task Plan Decision Session Reminder Context Example Output Input Step Ps Re Big Quick "
    "Also Actually Fyi Btw Ship Done Heads"
)
_NOT_NAMES = frozenset(_NOT_NAMES_WORDS.split())
_ROLES = {
    "user": "user",
    "human": "user",
    "用户": "user",
    "assistant": "assistant",
    "ai": "assistant",
    "bot": "assistant",
    "助手": "assistant",
    "tool result": "tool",
    "tool": "tool",
    "function": "tool",
    "system": "system",
    "developer": "system",
    "系统": "system",
}


class Speaker(NamedTuple):
    """Who said a sentence: ``role`` is user, assistant, tool, system or "" (unknown);
    ``name`` is the person's or the tool's name when the text gives one."""

    role: str = ""
    name: str | None = None


class Utterance(NamedTuple):
    """One whole sentence and its speaker."""

    speaker: Speaker
    text: str


def split_whole_sentences(text: str) -> list[str]:
    """``text`` cut into whole sentences (see the module docstring); blank pieces dropped."""
    out: list[str] = []
    for line in text.split("\n"):
        start = 0
        for m in _END.finditer(line):
            end = m.end()
            if m.group()[0] == "." and not _is_end(line, m.start(), end):
                continue
            piece = line[start:end].strip()
            if piece:
                out.append(piece)
            start = end
        rest = line[start:].strip()
        if rest:
            out.append(rest)
    return out


def _is_end(line: str, dot: int, end: int) -> bool:
    """Whether the full stop at ``dot`` ends a sentence."""
    word = re.search(r"([\w.]+)$", line[:dot])
    if word and word.group(1).lower().rstrip(".") in _ABBREV:
        return False
    nxt = line[end:].lstrip()
    # "e.g. the cache", "approx. 3 GB": a lower-case word or a digit continues the sentence.
    return not nxt or not (nxt[0].islower() or nxt[0].isdigit())


def parse_label(line: str) -> tuple[Speaker, str]:
    """The speaker named by a role label at the start of ``line``, and the rest of it."""
    m = _LABEL.match(line)
    if m is None:
        return Speaker(), line.strip()
    role = _ROLES[m.group("role").lower()]
    name = m.group("name")
    text = line[m.end() :].strip()
    if role == "user" and name is None:
        inner = _NAMED.match(text)
        if inner and inner.group("name").split()[0] not in _NOT_NAMES:
            name, text = inner.group("name"), text[inner.end() :]
    return Speaker(role, name.strip() if name else None), text


def utterances(text: str) -> list[Utterance]:
    """The whole sentences of ``text`` with their speakers, in order.

    A labelled line's speaker holds for every sentence of it; an unlabelled line keeps the
    speaker of the line before only when it continues a message (no blank line between).
    """
    out: list[Utterance] = []
    speaker = Speaker()
    for line in text.split("\n"):
        if not line.strip():
            speaker = Speaker()
            continue
        for part in _INNER_LABEL.split(line):
            if not part.strip():
                continue
            labelled, rest = parse_label(part)
            if labelled.role:
                speaker = labelled
            out.extend(Utterance(speaker, s) for s in split_whole_sentences(rest))
    return out
