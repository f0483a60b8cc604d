"""How the offline reconstructor reads: old chapters and new stimuli as paragraphs of
sentences in the article's voice.

- A new stimulus (a promoted summary) is read as whole sentences with their speakers
  (:mod:`.sentences`), of which the article keeps facts about the user, not advice or
  questions (:mod:`.keep`); each kept sentence is routed to a chapter (:mod:`.routing`,
  then :mod:`.examples`) and retold in the AI's voice (:mod:`.voice`). Of all the passing
  states of a promotion only the newest is kept.
- An old chapter is read paragraph by paragraph with the day at its head (:mod:`.said`);
  an article written before the voice is retold, and advice or questions an article
  written before they were left out still holds are dropped (a durable fact or a standing
  rule among them stays).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import date

from ..user.durable import is_durable
from .article import clean_chapter
from .examples import ExampleRouter
from .keep import kept
from .routing import is_transient, route_utterance
from .said import unmark
from .sentences import utterances
from .voice import is_voiced, voice

__all__ = ["Para", "day_of", "read_new", "read_old"]

# Advice and questions in the voice, as articles written before they were left out hold
# them; a durable fact or a standing rule among them stays.
_TALK = re.compile(
    r"^(?:I advised |I asked (?:the user|[A-Z][a-z]+)\b|(?:The user|[A-Z][a-z]+(?: [A-Z][a-z]+)?)"
    r" asked me(?::| (?:how|what|where|which|when|who|why|whether|if)\b)|我建议用户|我问用户|"
    r"(?:用户|\S{1,4})问我)"
)
_STANDING = re.compile(r"\b(?:from now on|going forward|in (?:the )?future)\b|以后|永远", re.I)
#: A paragraph: the day it was said (None: unknown) and its sentences, in text order.
Para = tuple[date | None, list[str]]


def read_old(text: str, legacy: bool) -> tuple[list[Para], bool]:
    """A chapter's paragraphs (day, sentences), and whether reading changed any. An article
    written before the voice (``legacy``: it still holds a role label somewhere) is retold
    sentence by sentence; a sentence of it without a label is taken as the user's."""
    out: list[Para] = []
    changed = False
    for raw in (p.strip() for p in re.split(r"\n\s*\n", text)):
        day, para = unmark(raw)
        sents: list[str] = []
        for utt in utterances(para):
            told: str | None = utt.text
            if utt.speaker.role or (legacy and not is_voiced(utt.text)):
                said = kept(utt.speaker, utt.text)
                told = voice(utt.speaker, said) if said else None
                changed = True
            elif _TALK.match(utt.text) and not (is_durable(utt.text) or _STANDING.search(utt.text)):
                told = None
                changed = True
            if told:
                sents.append(told)
        if sents:
            out.append((day, sents))
    return out, changed


def read_new(stimuli: Sequence[str], router: ExampleRouter) -> list[list[tuple[str, str]]]:
    """Each stimulus (newest first) as (chapter, sentence in the voice), in text order, of
    what the article keeps (:mod:`.keep`); only the newest passing state of all of them."""
    batches: list[list[tuple[str, str]]] = []
    mood_kept = False
    for stimulus in reversed(stimuli):
        items: list[tuple[str, str]] = []
        said = [
            (u.speaker, text)
            for u in reversed(utterances(clean_chapter(stimulus)))
            if (text := kept(u.speaker, u.text))
        ]
        routed = router.refine(said, [route_utterance(sp, text) for sp, text in said])
        for (speaker, text), chapter in zip(said, routed, strict=True):
            told = voice(speaker, text)
            if told is None:
                continue
            if chapter == "Dynamic" and is_transient(told):
                if mood_kept:
                    continue
                mood_kept = True
            items.append((chapter, told))
        batches.append(items[::-1])
    return batches


def day_of(stimulus: str) -> date | None:
    """The day a stimulus was said, when it carries one (:class:`~.said.Dated`)."""
    at = getattr(stimulus, "at", None)
    return at.date() if at is not None else None
