"""Texts with what a newer text superseded taken out, sentence by sentence.

The memory block shows short-term summaries (``User: …`` / ``Assistant: …`` lines) under an
article whose chapters are older than all of them. When a newer summary says the user moved,
the older summary's "I live in Antwerp" and the article's "I know the user lives in Antwerp"
are stale: :func:`current_texts` removes such sentences (:func:`.slots.supersedes`) and
keeps everything else byte-identical. Only what the user said (or the article says about
the user) supersedes: an assistant's "you could move to Toronto" replaces nothing. Sentences
of one group (one summary, or the article) never supersede each other: they were said
together, and the reconstruction already ordered the article's.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from ..text.passages import split_sentences
from ..text.speakers import label_of
from ..text.tokenize import has_cjk
from .slots import slots_of, supersedes

__all__ = ["current_texts", "statement_slots"]


@dataclass(frozen=True)
class _Sentence:
    text: str
    slots: frozenset[str]
    speaks: bool  # the user's (or the article's) statement, able to supersede


def _lines(text: str) -> list[tuple[str, bool, list[str]]]:
    """Each line as (its label, whether it is the assistant's, its sentences)."""
    out = []
    for line in text.split("\n"):
        label, assistant = label_of(line)
        out.append((label, assistant, split_sentences(line[len(label) :])))
    return out


def _sentences(text: str) -> list[_Sentence]:
    return [
        _Sentence(s, slots_of(s), not assistant)
        for _, assistant, sentences in _lines(text)
        for s in sentences
    ]


def statement_slots(text: str) -> frozenset[str]:
    """The slots the user's statements in ``text`` set (assistant lines excluded)."""
    out: set[str] = set()
    for s in _sentences(text):
        if s.speaks:
            out |= s.slots
    return frozenset(out)


def _rebuild(text: str, stale: set[str]) -> str:
    lines = []
    said = left = 0  # the user's sentences before and after
    for raw, (label, assistant, sentences) in zip(text.split("\n"), _lines(text), strict=True):
        kept = [s for s in sentences if s not in stale]
        if not assistant:
            said, left = said + len(sentences), left + len(kept)
        if len(kept) == len(sentences):
            lines.append(raw)  # untouched: byte-identical
        elif kept:
            lines.append(label + ("" if has_cjk(raw) else " ").join(kept))
    if said and not left:
        return ""  # the assistant's reply to a statement no longer true says nothing
    return re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).strip()


def current_texts(groups: Sequence[Sequence[str]]) -> list[list[str]]:
    """``groups`` newest first (texts of one group said together); each text with the
    sentences a newer group's statement superseded removed ("" when nothing is left)."""
    newer: list[_Sentence] = []
    out: list[list[str]] = []
    for group in groups:
        mine: list[_Sentence] = []
        texts = []
        for text in group:
            sentences = _sentences(text)
            stale = {
                s.text
                for s in sentences
                if s.slots
                and any(
                    n.slots & s.slots
                    and supersedes(n.text, s.text, newer_slots=n.slots, older_slots=s.slots)
                    for n in newer
                )
            }
            texts.append(_rebuild(text, stale) if stale else text)
            mine += [s for s in sentences if s.speaks and s.slots and s.text not in stale]
        out.append(texts)
        newer += mine
    return out
