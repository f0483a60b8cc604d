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

import hashlib
import re
import zlib
from collections import Counter
from functools import cache
from importlib import resources

import numpy as np
import numpy.typing as npt

__all__ = ["FEATURES", "bank", "bank_key", "features", "wants_deep_recall"]

#: Hashed feature space: character n-grams and word n-grams share it.
FEATURES = 2**18
_CHARS = (1, 2, 3, 4, 5)
_WORDS = (1, 2, 3)
_WORD = re.compile(r"[a-z0-9']+|[\u3400-\u9fff]")
# Quoted words are mentioned, not said: 「“还记得吗”用英语怎么说」.
_QUOTED = re.compile(r'"[^"\n]{1,80}"|“[^”\n]{1,80}”|「[^」\n]{1,80}」|『[^』\n]{1,80}』')
_WEIGHTS = "triggers.npz"


def features(text: str) -> dict[int, float]:
    """``text``'s hashed n-gram features: square-rooted counts, scaled to unit length."""
    body = " ".join(_QUOTED.sub(" ", text).lower().split())
    padded = f" {body} "
    counts: Counter[int] = Counter()
    for n in _CHARS:
        for i in range(len(padded) - n + 1):
            counts[zlib.crc32(b"c" + padded[i : i + n].encode()) % FEATURES] += 1
    words = ["<s>", *_WORD.findall(body), "</s>"]
    for n in _WORDS:
        for i in range(len(words) - n + 1):
            counts[zlib.crc32(("w" + " ".join(words[i : i + n])).encode()) % FEATURES] += 1
    norm = float(np.sqrt(sum(counts.values())))  # the norm of the square-rooted counts
    return {k: float(np.sqrt(v)) / norm for k, v in counts.items()} if norm else {}


@cache
def bank() -> tuple[tuple[str, str, str], ...]:
    """The packaged examples: (label, lang, text), label ``request`` or ``none``."""
    raw = resources.files(__package__).joinpath("triggers.tsv").read_text(encoding="utf-8")
    rows = (line.split("\t") for line in raw.splitlines() if line and not line.startswith("#"))
    return tuple((r[0], r[1], r[2]) for r in rows if len(r) == 3)


def bank_key() -> str:
    """What the shipped weights must have been fitted on: the examples and the features."""
    h = hashlib.sha256(f"{FEATURES} {_CHARS} {_WORDS}\n".encode())
    for row in bank():
        h.update(("\t".join(row) + "\n").encode())
    return h.hexdigest()


@cache
def _model() -> tuple[npt.NDArray[np.float32], float]:
    with resources.files(__package__).joinpath(_WEIGHTS).open("rb") as f, np.load(f) as data:
        weights = np.zeros(FEATURES, dtype=np.float32)
        weights[data["index"]] = data["weight"].astype(np.float32)
        return weights, float(data["bias"])


def wants_deep_recall(text: str) -> bool:
    """True when ``text`` holds an explicit request to remember the shared past (zh or en).

    "帮我回忆一下", "你还记得我…吗", "try to remember", "what did we settle on last
    time?", "dig through our old chats" fire; the same words used otherwise ("do you
    remember how to…", "记得带伞", "remember that I like tea") do not.
    """
    if not isinstance(text, str) or not text.strip():
        return False
    weights, bias = _model()
    score = bias + sum(weights[k] * v for k, v in features(text).items())
    return bool(score > 0.0)
