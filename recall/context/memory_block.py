"""The memory block of ``Memory.get_relevant_memories``, within a token budget.

Layout, in priority order, one ``## `` section each::

    ## Bedrock         the chapter whole (cut only when it alone is over the budget)
    ## Evolutionary    its leading paragraphs that fit
    ## Dynamic         its leading paragraphs that fit
    ## Short-term      the short-term summaries most relevant to the input, best first,
                       each as "[2026-03-14] text" (the day it was said)

Summaries are ranked by the context's one blend (:func:`recall.context.ranking.blend_rank`):
``injection_similarity_weight · similarity + injection_confidence_weight · recency`` (0.6
and 0.4; see docs/design.md), recency standing in for the confidence the summaries do not
have, as it does for facts without one in :mod:`recall.context.facts`. The similarity is the
cosine of the normalized embeddings of the summary and the input (the Memory's own
embedder), clamped at 0 so both terms live in 0..1. The recency is linear in ``created_at``:
newest 1.0, oldest 0.0, all 1.0 when every summary has the same age.

Cutting is at paragraph level and keeps headings: the section headings, and any heading
line inside a chapter. A chapter keeps its *leading* paragraphs because the reconstructor
writes the newest material first; the context builder, handed a block over its room, cuts
it the same way round, short-term first and the Bedrock last
(:func:`recall.context.system_sections.fit_memory`). A section none of whose paragraphs fits is
left out, heading included; only the Bedrock, when not even its first paragraph fits, is
cut visibly rather than dropped (and when not even that fits, the block is empty: nothing
stands in the Bedrock's place).
Summaries are whole or absent: a lower-ranked, shorter one may fill room a longer one could
not. Counts are exact (tiktoken), so the block never exceeds the budget. No deep search
happens here.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final

from ..index.embed import Embedder
from ..lifecycle.article import Article
from ..models import Profile, Record
from ..settings import Settings
from ..text import Count, has_cjk, said_on
from .budget import cut_to_tokens, split_blocks
from .current import current_view, now_section, stale_and_current, without_values
from .inputs import token_counter
from .ranking import blend_rank, recency_scores
from .similarity import summary_similarities

# recency_scores and summary_similarities are re-exported: they lived here before moving
# to recall.context.ranking and recall.context.similarity.
__all__ = [
    "CHAPTER_HEADINGS",
    "RankedSummary",
    "SHORT_TERM_HEADING",
    "add_summaries",
    "chapters_block",
    "fit_leading_paragraphs",
    "memory_block",
    "rank_summaries",
    "recency_scores",
    "relevant_memories",
    "summary_similarities",
]

#: Section headings, in block order.
CHAPTER_HEADINGS: Final = {
    "Bedrock": "## Bedrock",
    "Evolutionary": "## Evolutionary",
    "Dynamic": "## Dynamic",
}
SHORT_TERM_HEADING: Final = "## Short-term"
_SEP: Final = "\n\n"


@dataclass(frozen=True)
class RankedSummary:
    """A short-term summary with the parts of its score."""

    id: str
    text: str
    similarity: float
    recency: float
    score: float


# --- ranking ------------------------------------------------------------------------------
def rank_summaries(
    summaries: Sequence[Record],
    similarities: Sequence[float],
    *,
    similarity_weight: float,
    recency_weight: float,
) -> list[RankedSummary]:
    """``summaries`` best first by ``similarity_weight·sim + recency_weight·recency``.

    Ties go to the newer summary.
    """
    if len(similarities) != len(summaries):
        raise ValueError("one similarity per summary is needed")
    recency = recency_scores([r.created_at.timestamp() for r in summaries])
    ranked = blend_rank(
        similarities,
        recency,
        similarity_weight=similarity_weight,
        confidence_weight=recency_weight,
        tiebreak=recency,
    )
    return [
        RankedSummary(summaries[i].id, summaries[i].text, similarities[i], recency[i], score)
        for i, score in ranked
    ]


# --- budgeting ----------------------------------------------------------------------------
def fit_leading_paragraphs(text: str, budget: int, count: Count, *, allow_cut: bool = False) -> str:
    """``text`` within ``budget``: every heading kept, the last paragraphs dropped first.

    Returns ``""`` when not even the first paragraph fits beside the headings, unless
    ``allow_cut``: then the text's beginning, cut visibly (``…[truncated N chars]``).
    """
    text = text.strip()
    if not text or budget <= 0:
        return ""
    if count(text) <= budget:
        return text
    blocks = split_blocks(text)
    keep = [True] * len(blocks)
    costs = [count(b) + 1 for _, b in blocks]  # +1: the blank line joining blocks
    total = sum(costs)
    for i in reversed([i for i, (head, _) in enumerate(blocks) if not head]):
        if total <= budget:  # the estimate fits: check the exact count of the joined text
            out = _SEP.join(b for k, (_, b) in enumerate(blocks) if keep[k])
            if count(out) <= budget:
                return out
        keep[i] = False
        total -= costs[i]
    return cut_to_tokens(text, budget, count) if allow_cut else ""


def _section(
    parts: Sequence[str], heading: str, body: str, budget: int, count: Count, allow_cut: bool
) -> str:
    """``heading`` and as much of ``body`` as fits after ``parts``; ``""`` when nothing does."""
    body = body.strip()
    if not body:
        return ""
    prefix = _SEP.join([*parts, heading]) + _SEP
    room = budget - count(prefix)
    while room > 0:
        fitted = fit_leading_paragraphs(body, room, count, allow_cut=allow_cut)
        if not fitted:
            return ""
        over = count(prefix + fitted) - budget
        if over <= 0:
            return heading + _SEP + fitted
        room -= over  # the join merged tokens differently: shrink the room and refit
    return ""


def chapters_block(article: Article, budget: int, count: Count) -> str | None:
    """The three chapters as ``## `` sections within ``budget``, Bedrock first and whole.

    None when the user has a Bedrock and not even its visibly cut beginning fits: nothing
    else may then stand in its place (the caller shows no memory at all).
    """
    parts: list[str] = []
    for name, body in article.chapters().items():
        section = _section(parts, CHAPTER_HEADINGS[name], body, budget, count, name == "Bedrock")
        if section:
            parts.append(section)
        elif name == "Bedrock" and body.strip():
            return None
    return _SEP.join(parts)


def _room_for_summaries(block: str, budget: int, count: Count) -> bool:
    head = _SEP.join([block, SHORT_TERM_HEADING]) if block else SHORT_TERM_HEADING
    return count(head + _SEP) < budget


def add_summaries(block: str, summaries: Sequence[str], budget: int, count: Count) -> str:
    """``block`` plus a ``## Short-term`` section of the leading ``summaries`` that fit.

    ``summaries`` are best first; one that does not fit is skipped, not cut.
    """
    chosen: list[str] = []
    parts = [block] if block else []
    for summary in summaries:
        text = summary.strip()
        if not text:
            continue
        candidate = _SEP.join([*parts, SHORT_TERM_HEADING, *chosen, text])
        if count(candidate) <= budget:
            chosen.append(text)
    if not chosen:
        return block
    return _SEP.join([*parts, SHORT_TERM_HEADING, *chosen])


def memory_block(article: Article, summaries: Sequence[str], budget: int, count: Count) -> str:
    """The whole block: chapters (:func:`chapters_block`), then ranked ``summaries``."""
    block = chapters_block(article, budget, count)
    return "" if block is None else add_summaries(block, summaries, budget, count)


def _chapter_room(
    article: Article, summaries: Sequence[Record], budget: int, s: Settings, count: Count
) -> int:
    """The chapters' room: all of ``budget``, unless the summaries need more than what
    the chapters leave; then Evolutionary and Dynamic keep ``memory_chapter_share`` of the
    room after the Bedrock (the Bedrock is never squeezed)."""
    share = s.context.memory_chapter_share
    if share >= 1.0 or not summaries:
        return budget
    bedrock = chapters_block(Article(bedrock=article.bedrock), budget, count) or ""
    floor = count(bedrock) + int(share * max(0, budget - count(bedrock)))
    wanted = sum(r.tokens for r in summaries)  # counted when stored
    return max(floor, budget - wanted)


def relevant_memories(
    user_input: str,
    article: Article,
    summaries: Sequence[Record],
    embedder: Callable[[], Embedder],
    *,
    settings: Settings,
    count: Count | None = None,
    budget: int | None = None,
    profile: Profile | None = None,
    asked: str | None = None,
) -> str:
    """The memory block for ``user_input`` within ``budget`` tokens (default
    ``settings.context.memory_budget_tokens``).

    With the user's ``profile`` (:meth:`recall.Memory.profile`) the block leads with a
    ``## Now`` section, what holds now of each attribute, dated (``asked``, the attribute
    the input asks about, first); when a model read the asked attribute, the sentences
    holding a value it replaced are left out of the chapters and summaries (they stay in
    the store and in deep_recall; :func:`recall.context.current.stale_and_current`).
    ``embedder`` is called only when summaries are ranked (there are some, and room).
    """
    s = settings
    counter = count or token_counter(s)
    budget = s.context.memory_budget_tokens if budget is None else budget
    usable = [r for r in summaries if r.text.strip()]
    # What a newer summary superseded is not shown (recall.context.current).
    article, usable = current_view(article, usable)
    lead = ""
    if profile is not None and profile.facts:
        stale, now = stale_and_current(profile, asked)
        article = Article(
            **{k.lower(): without_values(v, stale, now) for k, v in article.chapters().items()}
        )
        usable = [
            r.model_copy(update={"text": t})
            for r in usable
            if (t := without_values(r.text, stale, now))
        ]
        lead = now_section(profile, asked, has_cjk(user_input))
        lead = fit_leading_paragraphs(lead, budget // 4, counter)
    room = budget - counter(lead + _SEP) if lead else budget
    block = chapters_block(article, _chapter_room(article, usable, room, s, counter), counter)
    if block is None:
        return lead
    block = _SEP.join(p for p in (lead, block) if p)
    if not usable or not _room_for_summaries(block, budget, counter):
        return block
    # The model reads only the first few hundred tokens; a pasted document need not be
    # tokenized whole to rank a handful of summaries.
    sims = summary_similarities(
        embedder(),
        user_input[: s.retrieval.max_query_chars],
        [r.text for r in usable],
        cache_size=s.lifecycle.relevant_cache_size,
    )
    ranked = rank_summaries(
        usable,
        sims,
        similarity_weight=s.context.injection_similarity_weight,
        recency_weight=s.context.injection_confidence_weight,
    )
    # Each summary shows the day it was said: the model can tell the newer of two.
    said = {r.id: said_on(r.created_at) for r in usable}
    return add_summaries(block, [f"[{said[r.id]}] {r.text}" for r in ranked], budget, counter)
