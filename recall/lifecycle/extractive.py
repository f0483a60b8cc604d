"""Extractive selection: the pure functions behind the offline summarizer.

A text is cut into :class:`Unit` s (sentences, each remembering its message and role). Each
unit carries its distinct content terms with a weight: rarity inside this document (IDF),
times a boost for numbers, names, file paths and tool output, which are the facts a later
question is most likely to hinge on. :func:`select` then picks, greedily, the unit adding
the most not-yet-covered weight per token (a lazy greedy: gains only shrink as coverage
grows, so a stale score is an upper bound and most units are never re-scored).
"""

from __future__ import annotations

import heapq
import math
import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from ..text import has_cjk, split_passages, split_sentences, tokenize

__all__ = [
    "Unit",
    "cost_of",
    "count_with_labels",
    "key_facts",
    "key_terms",
    "render_units",
    "select",
    "units_of",
]

_STOP_WORDS = """
    a an the and or but if then else of to in on at by for with from as is are was were be
    been being am do does did done have has had having i me my we our you your he him his she
    her it its they them their this that these those there here what which who whom whose when
    where why how all any both each few more most other some such no nor not only own same so
    than too very can could should would will just also into about over under again further
    once up down out off until while before after above below between through during ok okay
    yes yeah sure please thanks thank hi hello hey great good fine let lets get got go going
    make made like want need one
    的 了 是 在 我 你 他 她 它 们 这 那 有 和 就 不 也 都
    要 会 可以 吗 呢 吧 啊 一个 我们 你们"""
_STOP = frozenset(_STOP_WORDS.split())
_NAME = re.compile(r"(?<=\s)[A-Z][a-zA-Z]+(?:[A-Z][a-z]+)*")
_PATH = re.compile(
    r"(?:[A-Za-z]:\\|~?/)?(?:[\w.-]+[/\\])+[\w.-]+"
    r"|\b[\w-]+\.(?:py|js|ts|tsx|jsx|json|toml|ya?ml|md|txt|rs|go|java|c|cpp|h|sh|sql|csv|"
    r"html|css|ini|cfg|lock|log)\b"
)
# Boosts: a number or a path is the kind of detail a summary must not lose; a name less so.
_NUMBER_BOOST, _NAME_BOOST, _PATH_WEIGHT, _TOOL_BOOST = 3.0, 2.0, 4.0, 1.5


@dataclass(frozen=True)
class Unit:
    """One sentence of the input and what it is worth."""

    pos: int
    turn: int
    label: str
    role: str
    text: str
    paths: tuple[str, ...] = ()
    terms: dict[str, float] = field(default_factory=dict, compare=False)


def _terms(text: str, role: str) -> tuple[dict[str, float], tuple[str, ...]]:
    names = {m.group().lower() for m in _NAME.finditer(" " + text[1:])}
    # A path at the end of a sentence drags the full stop along: strip it.
    paths = tuple(dict.fromkeys(m.group().rstrip(".") for m in _PATH.finditer(text)))
    mult = _TOOL_BOOST if role in ("tool", "function") else 1.0
    out: dict[str, float] = {}
    for tok in tokenize(text):
        if tok in _STOP or (len(tok) < 2 and not has_cjk(tok)):
            continue
        boost = _NUMBER_BOOST if any(c.isdigit() for c in tok) else 1.0
        if tok in names:
            boost = max(boost, _NAME_BOOST)
        out[tok] = max(out.get(tok, 0.0), boost * mult)
    for p in paths:
        out[f"path:{p}"] = _PATH_WEIGHT * mult
    return out, paths


def key_facts(text: str) -> frozenset[str]:
    """The details a sentence must not lose: numbers, names, file paths (lower-cased)."""
    names = {m.group().lower() for m in _NAME.finditer(" " + text[1:])}
    facts = {t for t in tokenize(text) if any(c.isdigit() for c in t) or t in names}
    facts.update(m.group().rstrip(".").lower() for m in _PATH.finditer(text))
    return frozenset(facts)


def units_of(pieces: Sequence[tuple[str, str, str]]) -> list[Unit]:
    """Units of ``(label, role, text)`` pieces (messages or paragraphs), weights filled in."""
    raw: list[tuple[int, str, str, str]] = []
    seen: set[str] = set()
    for turn, (label, role, text) in enumerate(pieces):
        for line in text.split("\n"):
            for sent in split_sentences(line):
                key = " ".join(sent.lower().split())
                if key in seen:  # a repeated sentence adds nothing
                    continue
                seen.add(key)
                raw.append((turn, label, role, sent))
    featured = [_terms(s, role) for _, _, role, s in raw]
    df = Counter(t for terms, _ in featured for t in terms)
    n = len(raw)
    units = []
    for pos, ((turn, label, role, sent), (terms, paths)) in enumerate(
        zip(raw, featured, strict=True)
    ):
        weighted = {t: w * math.log(1.0 + n / df[t]) for t, w in terms.items()}
        units.append(Unit(pos, turn, label, role, sent, paths, weighted))
    return units


def render_units(units: Sequence[Unit], *, bullets: bool = False) -> str:
    """Units back as text in conversation order: one line per message (or per bullet)."""
    ordered = sorted(units, key=lambda u: u.pos)
    if bullets:
        return "\n".join(f"- {u.label}: {u.text}" if u.label else f"- {u.text}" for u in ordered)
    lines: list[str] = []
    turn = None
    for u in ordered:
        if u.turn == turn:
            lines[-1] += " " + u.text
        else:
            lines.append(f"{u.label}: {u.text}" if u.label else u.text)
            turn = u.turn
    return "\n".join(lines)


def cost_of(units: Sequence[Unit], count: Callable[[str], int]) -> int:
    """What :func:`select` (bullets) charges for taking all of ``units``."""
    return sum(count(u.text) + 2 + (count(f"{u.label}: ") if u.label else 0) for u in units)


def count_with_labels(units: Sequence[Unit], count: Callable[[str], int]) -> int:
    """Tokens of the rendered units."""
    return count(render_units(units))


def _fit(unit: Unit, budget: int, count: Callable[[str], int]) -> Unit:
    # A sentence longer than the whole budget is cut to its first passage that fits.
    room = max(1, budget - count(f"- {unit.label}: ") - 1)
    head = split_passages(unit.text, room, count)
    return Unit(
        unit.pos, unit.turn, unit.label, unit.role, head[0] if head else "", unit.paths, unit.terms
    )


def select(
    units: Sequence[Unit], budget: int, count: Callable[[str], int], *, bullets: bool = False
) -> list[Unit]:
    """The most informative units whose rendering fits ``budget`` tokens, in order."""
    if budget <= 0 or not units:
        return []
    costs = {u.pos: count(u.text) + 1 for u in units}
    label_cost = {u.label: count(f"{u.label}: ") if u.label else 0 for u in units}
    covered: set[str] = set()
    opened: set[int] = set()
    chosen: list[Unit] = []
    used = 0

    def cost(u: Unit) -> int:
        extra = label_cost[u.label] + (1 if bullets else 0)
        return costs[u.pos] + (extra if bullets or u.turn not in opened else 0)

    def score(u: Unit) -> float:
        gain = sum(w for t, w in u.terms.items() if t not in covered)
        return gain / math.sqrt(cost(u))

    heap = [(-score(u), u.pos, u) for u in units]
    heapq.heapify(heap)
    while heap:
        _, _, u = heapq.heappop(heap)
        fresh = score(u)
        if heap and fresh < -heap[0][0] - 1e-12:
            heapq.heappush(heap, (-fresh, u.pos, u))  # stale: re-queue with its true score
            continue
        if fresh <= 0:
            break  # nothing left adds new content
        if used + cost(u) > budget:
            continue
        used += cost(u)
        chosen.append(u)
        opened.add(u.turn)
        covered.update(u.terms)
    if not chosen:
        best = max(units, key=score)
        chosen = [_fit(best, budget, count)] if best.text else []
    # Token counts of the parts and of the joined text can differ by a token or two.
    while chosen and count(render_units(chosen, bullets=bullets)) > budget:
        chosen.pop()
    return sorted(chosen, key=lambda u: u.pos)


def key_terms(units: Sequence[Unit], *, limit: int) -> list[str]:
    """The heaviest content terms across ``units`` (paths as written), heaviest first."""
    total: dict[str, float] = {}
    for u in units:
        for t, w in u.terms.items():
            total[t] = total.get(t, 0.0) + w
    heaviest = sorted(total, key=lambda t: (-total[t], t))[:limit]
    out = [t.removeprefix("path:") for t in heaviest]
    return list(dict.fromkeys(out))
