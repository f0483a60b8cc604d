"""Whether two sentences about the user say the same fact: a model learned from examples.

The article's near-duplicates (:mod:`recall.lifecycle.reconstruct`) were one cosine
threshold, which cannot tell a paraphrase ("The user likes dark themes" / "The user prefers
dark mode everywhere") from a sentence on the same topic with another value ("The user
lives in Leeds" / "The user lives in York"): on pairs written by someone who had not read
this code, cosine ≥ 0.92 merged a third of the English paraphrases and a tenth of the
Chinese ones, and also 12% and 19% of the pairs stating different facts, which the article
then lost. This is a logistic regression per language over features of the pair: the
cosines of the default spec's vectors (whole and multilingual part), word and character
overlap, whether numbers and key facts agree, the length ratio, and the product and
difference of the two multilingual vectors. ``benchmarks/train_sameness.py`` fits it on
``benchmarks/data/sameness/dev.jsonl`` into ``sameness.npz``; a frozen split written by the
same helper, never fitted on, measures it (benchmarks/README.md). The weights hold for the
embedder they were fitted with: with any other (a test's hash embedder, a custom model),
:func:`load_sameness` gives None and the cosine threshold stays.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from functools import cache
from importlib import resources

import numpy as np
import numpy.typing as npt

from ..index.embed import Embedder
from ..text import has_cjk, tokenize
from ..user.attributes import _columns, _unit
from .article import CHAPTERS
from .extractive import key_facts
from .reading import Para

__all__ = ["SHIPPED", "Sameness", "drop_across", "load_sameness", "pair_features"]

#: The fitted weights, next to this module.
SHIPPED = "sameness.npz"
#: A pair is the same fact when the model's probability exceeds this (chosen on dev).
THRESHOLD = 0.8
_DIGITS = re.compile(r"\d+")
_NOT_WORD = re.compile(r"[\W_]+")  # punctuation and spaces

Vectors = npt.NDArray[np.float32]


def _trigrams(text: str) -> set[str]:
    return {text[i : i + 3] for i in range(len(text) - 2)}


def pair_features(
    a: str, b: str, whole: tuple[Vectors, Vectors], multi: tuple[Vectors, Vectors]
) -> npt.NDArray[np.float64]:
    """The features of the pair (``a`` newer, ``b`` older): their unit vectors under the
    whole embedder (``whole``) and its multilingual part (``multi``)."""
    (va, vb), (ua, ub) = whole, multi
    ta, tb = set(tokenize(a)), set(tokenize(b))
    ca, cb = _trigrams(a), _trigrams(b)
    fa, fb = key_facts(a), key_facts(b)
    scalars = [
        float(va @ vb),
        float(ua @ ub),
        len(ta & tb) / max(1, len(ta | tb)),
        len(ca & cb) / max(1, len(ca | cb)),
        float(set(_DIGITS.findall(a)) == set(_DIGITS.findall(b))),
        float(fa == fb),
        float(fb <= fa or fa <= fb),
        abs(len(a) - len(b)) / max(1, len(a), len(b)),
    ]
    return np.concatenate([scalars, ua * ub, np.abs(ua - ub)]).astype(np.float64)


@dataclass(frozen=True)
class Sameness:
    """The fitted model for one embedder: per language, weights and bias."""

    embedder_id: str
    weights: dict[str, tuple[npt.NDArray[np.float64], float]]
    lo: int
    hi: int

    def multi(self, whole: Vectors) -> Vectors:
        """The multilingual part's unit vectors, sliced out of the whole embedder's."""
        return _unit(np.asarray(whole)[..., self.lo : self.hi])

    def probability(self, a: str, b: str, whole: tuple[Vectors, Vectors]) -> float:
        """How likely ``a`` (newer) and ``b`` (older) state the same fact."""
        lang = "zh" if has_cjk(b) else "en"
        w, bias = self.weights[lang]
        multi = (self.multi(whole[0]), self.multi(whole[1]))
        z = float(pair_features(a, b, whole, multi) @ w) + bias
        return float(1.0 / (1.0 + np.exp(-z)))

    def same(self, a: str, b: str, whole: tuple[Vectors, Vectors]) -> bool:
        """Whether ``a`` and ``b`` say the same fact: the same words (case and punctuation
        aside: the examples hold no such pair), or probability over :data:`THRESHOLD`."""
        if _NOT_WORD.sub("", a).casefold() == _NOT_WORD.sub("", b).casefold():
            return True
        return self.probability(a, b, whole) > THRESHOLD


@cache
def _shipped() -> tuple[str, dict[str, tuple[npt.NDArray[np.float64], float]]] | None:
    ref = resources.files(__package__).joinpath(SHIPPED)
    if not ref.is_file():
        return None
    with ref.open("rb") as f, np.load(f) as data:
        weights = {
            lang: (data[f"w_{lang}"].astype(np.float64), float(data[f"b_{lang}"]))
            for lang in ("en", "zh")
        }
        return str(data["embedder"]), weights


def load_sameness(embedder: Embedder) -> Sameness | None:
    """The fitted model when ``embedder`` is the one it was fitted with, else None."""
    shipped = _shipped()
    if shipped is None or getattr(embedder, "id", None) != shipped[0]:
        return None
    _, lo, hi = _columns(embedder)
    return Sameness(shipped[0], shipped[1], lo, hi)


def _ordinal(day: date | None) -> int:
    return day.toordinal() if day is not None else 0


def drop_across(chapters: dict[str, list[Para]], keep: Callable[[list[str]], set[int]]) -> set[str]:
    """Drop, in place, a sentence another chapter already says more recently (one fact
    routed twice: "…allergic to peanuts" to Bedrock, "…a peanut allergy" to Evolutionary):
    every sentence, newest day first and then the more durable chapter, goes through
    ``keep`` (the positions of a list that say something no earlier one says). Returns the
    chapters that lost one."""
    rank = {name: k for k, name in enumerate(CHAPTERS)}
    where = [
        (name, j, k)
        for name, paras in chapters.items()
        for j, (_, para) in enumerate(paras)
        for k in range(len(para))
    ]
    where.sort(key=lambda w: (-_ordinal(chapters[w[0]][w[1]][0]), rank[w[0]], w[1], w[2]))
    kept = keep([chapters[n][j][1][k] for n, j, k in where])
    gone = {w for pos, w in enumerate(where) if pos not in kept}
    for name, paras in chapters.items():
        for j, (day, para) in enumerate(paras):
            paras[j] = (day, [s for k, s in enumerate(para) if (name, j, k) not in gone])
    return {name for name, _, _ in gone}
