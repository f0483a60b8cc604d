"""A chapter held to its token budget: durable facts first, then the newest of the rest.

A chapter over its budget used to lose its oldest sentences, whatever they said. After a
few hundred sessions the user's name, allergy and family had all been said long ago, and
the Bedrock chapter, filled with newer talk, dropped every one of them (0 of 7 kept after
200 sessions, ``benchmarks/article_density.py --more 160``). A durable fact (diet,
allergy, health, family, job: :func:`~.durable.is_durable`) and the user's name
(:func:`~.article_facts.facts_of`) now take their room first, newest first; the rest fills what
is left, newest first, and stops at the first sentence that does not fit (an older
sentence never displaces a newer one of its tier). Each paragraph keeps its sentences in
their order and its day mark (:mod:`.said`), moved to its first kept sentence.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import date

from ..user.article_facts import facts_of
from ..user.durable import is_durable
from .said import mark, unmark

__all__ = ["fit_chapter"]


def fit_chapter(paras: Sequence[Sequence[str]], budget: int, count: Callable[[str], int]) -> str:
    """``paras`` (newest first, each a list of sentences, the first possibly opening with
    its day mark) as chapter text within ``budget`` tokens (see the module docs)."""
    heads: list[tuple[date | None, str]] = [unmark(p[0]) if p else (None, "") for p in paras]
    texts = [[heads[i][1], *p[1:]] if p else [] for i, p in enumerate(paras)]
    places = [(i, j) for i, p in enumerate(texts) for j in range(len(p))]
    durable = {(i, j) for i, j in places if _lasts(texts[i][j])}
    kept: set[tuple[int, int]] = set()
    opened: set[int] = set()
    used = 0

    def cost(i: int, j: int) -> int:
        # The first sentence kept of a paragraph carries its day mark.
        return count(texts[i][j]) + 1 + (0 if i in opened else count(mark(heads[i][0])))

    def take(i: int, j: int) -> None:
        nonlocal used
        used += cost(i, j)
        kept.add((i, j))
        opened.add(i)

    for i, j in [p for p in places if p in durable]:
        if used + cost(i, j) <= budget:
            take(i, j)
    for i, j in [p for p in places if p not in durable]:
        if used + cost(i, j) > budget:
            break
        take(i, j)
    order = sorted(kept)
    text = _render(order, texts, heads)
    while order and count(text) > budget:  # joins and marks can add a token
        # The oldest sentence that is no durable fact goes first.
        spare = [p for p in order if p not in durable] or order
        order.remove(spare[-1])
        text = _render(order, texts, heads)
    return text


def _lasts(sentence: str) -> bool:
    """A durable fact, or the user's name."""
    if is_durable(sentence):
        return True
    return any(f.slot == "name" and f.subject == "user" for f in facts_of(sentence))


def _render(
    order: list[tuple[int, int]], texts: list[list[str]], heads: list[tuple[date | None, str]]
) -> str:
    paras: dict[int, list[str]] = {}
    for i, j in order:
        paras.setdefault(i, []).append(texts[i][j])
    return "\n\n".join(mark(heads[i][0]) + " ".join(s) for i, s in paras.items())
