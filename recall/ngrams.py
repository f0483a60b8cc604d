"""A linear model over a text's hashed character and word n-grams, learned from examples.

The readers that must tell two kinds of short text apart in any phrasing, en and zh, are
such models rather than lists of cue words: :mod:`recall.triggers` (does a turn ask to
remember?) and :mod:`recall.text.time_only` (does a question ask about nothing but a time?). The
features are character n-grams (1 to 5, which read Chinese without a segmenter) and word
n-grams (1 to 3) hashed into :data:`FEATURES` columns, square-rooted counts scaled to
unit length. A model is a packaged ``.npz`` (its non-zero weights, bias and the key of
the examples it was fitted on) next to its labelled examples (a ``.tsv`` of label, lang,
text), fitted by a script in ``benchmarks/``. Pure numpy at run time: no model to load,
microseconds a text.
"""

from __future__ import annotations

import hashlib
import re
import zlib
from collections import Counter
from dataclasses import dataclass
from importlib import resources

import numpy as np
import numpy.typing as npt

__all__ = ["FEATURES", "NgramModel", "examples", "examples_key", "features", "load_model"]

#: Hashed feature space: character n-grams and word n-grams share it.
FEATURES = 2**18
_CHARS = (1, 2, 3, 4, 5)
_WORDS = (1, 2, 3)
_WORD = re.compile(r"[a-z0-9']+|[\u3400-\u9fff]")
# Quoted words are mentioned, not said: 「“还记得吗”用英语怎么说」.
_QUOTED = re.compile(r'"[^"\n]{1,80}"|“[^”\n]{1,80}”|「[^」\n]{1,80}」|『[^』\n]{1,80}』')


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


def examples(package: str, name: str) -> tuple[tuple[str, str, str], ...]:
    """The labelled examples packaged as ``name`` in ``package``: (label, lang, text); lines
    opening with ``#`` are comments."""
    raw = resources.files(package).joinpath(name).read_text(encoding="utf-8")
    rows = (line.split("\t") for line in raw.splitlines() if line and not line.startswith("#"))
    return tuple((r[0], r[1], r[2]) for r in rows if len(r) == 3)


def examples_key(rows: tuple[tuple[str, str, str], ...]) -> str:
    """What a model's weights must have been fitted on: the examples and the features."""
    h = hashlib.sha256(f"{FEATURES} {_CHARS} {_WORDS}\n".encode())
    for row in rows:
        h.update(("\t".join(row) + "\n").encode())
    return h.hexdigest()


@dataclass(frozen=True)
class NgramModel:
    """Fitted weights over :func:`features` and a bias."""

    weights: npt.NDArray[np.float32]
    bias: float

    def score(self, text: str) -> float:
        """The model's log-odds that ``text`` is of the positive label."""
        return self.bias + sum(float(self.weights[k]) * v for k, v in features(text).items())


def load_model(package: str, name: str) -> NgramModel:
    """The model packaged as ``name`` in ``package`` (``index``, ``weight``, ``bias``)."""
    with resources.files(package).joinpath(name).open("rb") as f, np.load(f) as data:
        weights = np.zeros(FEATURES, dtype=np.float32)
        weights[data["index"]] = data["weight"].astype(np.float32)
        return NgramModel(weights, float(data["bias"]))
