"""Whether a query names only a time: "what did we talk about last week?", "上周我们聊了什么".

Such a question has no topic for the keyword or vector legs to match, so the time it names
is the whole question: deep_recall applies it as a hard window (:func:`recall.inputs.
time_window`) instead of the soft prior a question with a topic gets ("what did I say about
the marathon last week?"). It is not a list of asking words (such a list read 4 of 108
time-only questions written by others): a linear model over the question's character and
word n-grams (:mod:`recall.ngrams`), the time it names masked, learned from 717 questions
in en and zh written from a brief by two helpers who read no code (``time_only.tsv``:
what we talked about then, in every voice: "What did Priya and I chat about last week?",
"用户上周聊了什么", "last week conversation recap"; and topic questions naming a time,
look-alikes among them: "What did I tell you about Priya last week?"), less
:data:`UNSEEN` for each word no time-only example uses. ``benchmarks/train_time_only.py``
fits it into ``time_only.npz``; a frozen split written by a third helper measures it
(benchmarks/README.md).
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache

from ..ngrams import NgramModel, examples, examples_key, load_model
from .tokenize import tokenize
from .when import Window

__all__ = [
    "LOGIT",
    "UNSEEN",
    "bank",
    "bank_key",
    "frame_words",
    "judged",
    "masked",
    "names_only_time",
    "words",
]

#: What stands for the time a question names, in the text the model reads.
TIME = " <time> "
_PACKAGE = __package__ or "recall.text"
#: Log-odds one word no time-only example uses takes off the model's: the n-grams read the
#: frame of a question ("what did we talk about <time>"), and a subject added to that frame
#: ("... about the marathon") is a word the frame never holds. On the examples, 5-fold:
#: time-only questions found 81% -> 65%, topic questions taken 11% -> 3%.
UNSEEN = 1.0
#: A question names only a time when the log-odds, less :data:`UNSEEN` per unseen word,
#: exceed this (both chosen by cross-validation: benchmarks/README.md).
LOGIT = 0.0


@cache
def bank() -> tuple[tuple[str, str, str], ...]:
    """The packaged examples: (label, lang, text), label ``time_only`` or ``topic``."""
    return examples(_PACKAGE, "time_only.tsv")


def bank_key() -> str:
    """What the shipped weights must have been fitted on: the examples and the features."""
    return examples_key(bank())


@cache
def _model() -> NgramModel:
    return load_model(_PACKAGE, "time_only.npz")


def masked(query: str, window: Window) -> str:
    """``query`` with the words that named ``window`` replaced by :data:`TIME`."""
    for phrase in window.phrase.split("; "):
        query = query.replace(phrase, TIME)
    return " ".join(query.split())


def words(text: str) -> list[str]:
    """The words of ``text`` that count for :data:`UNSEEN` (no digits, no :data:`TIME`)."""
    return [w for w in tokenize(text.replace(TIME.strip(), " ")) if not w.isdigit()]


def frame_words(texts: Iterable[str]) -> frozenset[str]:
    """Every word of ``texts`` (the time-only examples)."""
    return frozenset(w for t in texts for w in words(t))


@cache
def _frame() -> frozenset[str]:
    return frame_words(t for label, _, t in bank() if label == "time_only")


def judged(score: float, unseen: int) -> bool:
    """Whether a question of model log-odds ``score`` and ``unseen`` words names only a time."""
    return score - UNSEEN * unseen > LOGIT


def names_only_time(query: str, window: Window) -> bool:
    """True when ``query`` asks about nothing but the time ``window`` names."""
    text = masked(query, window)
    frame = _frame()
    return judged(_model().score(text), sum(w not in frame for w in words(text)))
