"""Explicit deep-recall triggers: the user turns that ask the assistant to remember.

Deep recall is explicit (docs/design.md): :func:`wants_deep_recall` tells a host when the
user's own turn asks for it ("你仔细想想", "帮我回忆一下", "try to remember"). It is not a
list of cue words: a linear model over the turn's character n-grams (1 to 5, which read
Chinese without a segmenter) and word n-grams (1 to 3) learned from labelled examples,
``triggers.tsv`` (label, lang, text): requests, and turns that are not, half of them
look-alikes that use the same words for something else ("记得带伞", "remember to call
mum", "I can't remember the capital of Australia", "how do I make my app remember the
login"). ``benchmarks/train_triggers.py`` fits it into ``triggers.npz``; a frozen split
written by another hand (tests/data/triggers_frozen.tsv) measures it (benchmarks/README.md).
Pure numpy at run time: no model to load, microseconds a turn.
"""

from __future__ import annotations

from functools import cache

from .ngrams import FEATURES, NgramModel, examples, examples_key, features, load_model

__all__ = ["FEATURES", "bank", "bank_key", "features", "wants_deep_recall"]

_WEIGHTS = "triggers.npz"


@cache
def bank() -> tuple[tuple[str, str, str], ...]:
    """The packaged examples: (label, lang, text), label ``request`` or ``none``."""
    return examples(__package__ or "recall", "triggers.tsv")


def bank_key() -> str:
    """What the shipped weights must have been fitted on: the examples and the features."""
    return examples_key(bank())


@cache
def _model() -> NgramModel:
    return load_model(__package__ or "recall", _WEIGHTS)


def wants_deep_recall(text: str) -> bool:
    """True when ``text`` holds an explicit request to remember the shared past (zh or en).

    "帮我回忆一下", "你还记得我…吗", "try to remember", "what did we settle on last
    time?", "dig through our old chats" fire; the same words used otherwise ("do you
    remember how to…", "记得带伞", "remember that I like tea") do not.
    """
    if not isinstance(text, str) or not text.strip():
        return False
    return _model().score(text) > 0.0
