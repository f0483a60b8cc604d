"""Memory injection: the facts that matter now, within a token budget.

Each fact is ranked by the context's one blend (:func:`recall.context.ranking.blend_rank`):
``similarity_weight · similarity + confidence_weight · confidence`` (0.6 and 0.4 by
default, in :class:`~recall.settings.Settings`; see docs/design.md), where the similarity is
the TF-IDF cosine between the fact and the recent conversation: the last
``injection_recent_turns`` user turns and the final assistant replies between them, tool
messages and assistant messages that only call tools skipped. Given an embedder (recall's
own: ``mem.embedder()``), a fact's similarity is the larger of its TF-IDF cosine and its
embedding cosine min-max scaled over the facts, so "Which database driver should I use
with asyncio?" finds "Prefers asyncpg over psycopg", which shares no word with it: on
facts and questions written by someone who had not read this code, the relevant fact came
first in 55% of cases against 24% with TF-IDF alone (benchmarks/README.md). Without context
the ranking falls back to confidence alone. A fact without a confidence uses its recency instead
(newest 1.0, oldest 0.0). The chosen facts are counted exactly with tiktoken, so the result
never exceeds ``max_tokens``; the builder wraps it in ``<memory>…</memory>``.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from ..errors import InputError
from ..index.embed import Embedder
from ..jsonlimits import shown
from ..settings import Settings
from ..text import Analyzer, Count
from .inputs import token_counter
from .ranking import blend_rank, recency_scores
from .similarity import summary_similarities

__all__ = [
    "RankedFact",
    "conversation_context",
    "embedder_of",
    "format_memory_for_injection",
    "rank_facts",
    "similarities",
    "tfidf_similarities",
]

_TEXT_KEYS = ("content", "text", "fact")
# The keyword leg's analyzer: function words carry no topic, and stemming lets a question
# about "tests" find a fact about "testing".
_ANALYZER = Analyzer(stem=True, stopwords=True)


@dataclass(frozen=True)
class RankedFact:
    """A fact with the parts of its score."""

    text: str
    confidence: float
    similarity: float
    score: float


def conversation_context(messages: Sequence[Mapping[str, Any]], max_turns: int = 3) -> str:
    """The recent conversation as injection reads it: user turns and final replies only.

    Walks back from the newest message and stops after ``max_turns`` user messages;
    tool messages and assistant messages carrying tool calls are skipped.
    """
    parts: list[str] = []
    turns = 0
    for message in reversed(messages):
        if not isinstance(message, Mapping):
            raise InputError(f"a message must be a dict, got {type(message).__name__}")
        role, content = message.get("role"), _plain(message.get("content"))
        if role == "user":
            parts.append(content)
            turns += 1
            if turns >= max_turns:
                break
        elif role == "assistant" and not message.get("tool_calls") and content:
            parts.append(content)
    return " ".join(p for p in reversed(parts) if p)


def _plain(content: object) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, Sequence):  # content parts: keep the text ones
        return " ".join(
            str(p.get("text", "")) for p in content if isinstance(p, Mapping) and p.get("text")
        )
    return ""


def _terms(text: str) -> Counter[str]:
    return Counter(_ANALYZER.tokens(text))


def tfidf_similarities(docs: Sequence[str], query: str) -> list[float]:
    """Cosine similarity of each doc to ``query`` in TF-IDF space (smoothed IDF).

    The IDF is taken over the docs and the query together, as a vectorizer fitted on
    both would; terms are those of the keyword leg's analyzer (jieba for CJK, stop words
    dropped, Snowball stemming), so "tests" and "testing" meet and "how" matches nothing.
    """
    bags = [_terms(d) for d in docs]
    qbag = _terms(query)
    n = len(bags) + 1
    df: Counter[str] = Counter()
    for bag in [*bags, qbag]:
        df.update(bag.keys())
    idf = {w: math.log((1 + n) / (1 + c)) + 1.0 for w, c in df.items()}

    def vec(bag: Counter[str]) -> dict[str, float]:
        return {w: tf * idf[w] for w, tf in bag.items()}

    q = vec(qbag)
    qn = math.sqrt(sum(v * v for v in q.values()))
    out = []
    for bag in bags:
        d = vec(bag)
        dn = math.sqrt(sum(v * v for v in d.values()))
        dot = sum(v * q.get(w, 0.0) for w, v in d.items())
        out.append(dot / (dn * qn) if dn and qn else 0.0)
    return out


def similarities(docs: Sequence[str], query: str, embedder: Embedder | None = None) -> list[float]:
    """Each doc's similarity to ``query``: its TF-IDF cosine, or with ``embedder`` the
    larger of that and its embedding cosine min-max scaled over ``docs`` (the most similar
    doc 1.0, the least 0.0), so a doc sharing no word with the query still ranks by meaning."""
    tfidf = tfidf_similarities(docs, query)
    if embedder is None or not docs:
        return tfidf
    cos = summary_similarities(embedder, query, docs)
    lo, hi = min(cos), max(cos)
    scaled = [(c - lo) / (hi - lo) if hi > lo else 0.0 for c in cos]
    return [max(a, b) for a, b in zip(tfidf, scaled, strict=True)]


def embedder_of(memory: object) -> Embedder | None:
    """The embedder a bound memory lends (``memory.embedder()``), or None."""
    lend = getattr(memory, "embedder", None)
    return lend() if callable(lend) else None


def _fact(item: object, pos: int) -> tuple[str, float | None, float | None]:
    """(text, confidence or None, creation time or None) of one fact in any accepted shape."""
    if isinstance(item, str):
        return item, None, None
    if isinstance(item, Mapping):
        text = next((item[k] for k in _TEXT_KEYS if isinstance(item.get(k), str)), None)
        conf = item.get("confidence")
        when = item.get("created_at") or item.get("createdAt")
    elif isinstance(getattr(item, "text", None), str):  # a recall.Record or Hit
        text = item.text  # type: ignore[attr-defined]
        conf = (getattr(item, "metadata", None) or {}).get("confidence")
        when = getattr(item, "created_at", None)
    else:
        raise InputError(
            f"fact {pos} is a {type(item).__name__}; give a string or a dict with "
            "'content' and optional 'confidence' (0..1)"
        )
    if text is None:
        raise InputError(f"fact {pos} has no text: give it a 'content' string")
    if conf is not None:
        if isinstance(conf, bool) or not isinstance(conf, int | float) or not 0 <= conf <= 1:
            raise InputError(f"fact {pos} has confidence {shown(conf)}; give a number in 0..1")
        conf = float(conf)
    return text, conf, _when(when)


def _when(value: object) -> float | None:
    if isinstance(value, str):
        try:
            value = datetime.fromisoformat(value.replace("Z", "+00:00"))
        except ValueError:
            return None
    if isinstance(value, datetime):
        return value.timestamp() if value.tzinfo else value.replace(tzinfo=UTC).timestamp()
    return None


def _facts(facts: object) -> list[object]:
    if isinstance(facts, Mapping):  # a memory_data dict: {"facts": [...], ...}
        facts = facts.get("facts", [])
    if isinstance(facts, str) or not isinstance(facts, Sequence):
        raise InputError("facts must be a list of facts (or a dict with a 'facts' list)")
    return list(facts)


def rank_facts(
    facts: Sequence[object] | Mapping[str, Any],
    current_context: str | Sequence[Mapping[str, Any]] | None = None,
    *,
    settings: Settings | None = None,
    embedder: Embedder | None = None,
) -> list[RankedFact]:
    """Facts best first, scored as the module docstring says (pure but for tokenizing and,
    given ``embedder``, embedding)."""
    s = settings or Settings()
    parsed = [_fact(item, i) for i, item in enumerate(_facts(facts))]
    parsed = [p for p in parsed if p[0].strip()]
    if not parsed:
        return []
    context = current_context or ""
    if not isinstance(context, str):
        context = conversation_context(context, s.context.injection_recent_turns)
    texts = [t for t, _, _ in parsed]
    confs = _confidences(parsed)
    if context.strip():
        sims = similarities(texts, context, embedder)
        weights = (s.context.injection_similarity_weight, s.context.injection_confidence_weight)
    else:  # no context: confidence alone decides, the score is the confidence itself
        sims = [0.0] * len(texts)
        weights = (0.0, 1.0)
    ranked = blend_rank(sims, confs, similarity_weight=weights[0], confidence_weight=weights[1])
    # Stable: ties keep the caller's order.
    return [RankedFact(texts[i], confs[i], sims[i], score) for i, score in ranked]


def _confidences(parsed: Sequence[tuple[str, float | None, float | None]]) -> list[float]:
    """Each fact's confidence; its recency where it has none (newest 1.0, oldest 0.0).

    Recency is by rank, on one scale whether the order comes from creation times (when
    every fact has one) or from positions (later = newer).
    """
    times = [when for _, _, when in parsed]
    by_time = list(range(len(parsed)))
    if all(t is not None for t in times):
        by_time.sort(key=lambda i: (times[i], i))
    rank = [0] * len(parsed)
    for r, i in enumerate(by_time):
        rank[i] = r
    recency = recency_scores(rank)
    return [c if c is not None else recency[i] for i, (_, c, _) in enumerate(parsed)]


def format_memory_for_injection(
    facts: Sequence[object] | Mapping[str, Any],
    max_tokens: int | None = None,
    current_context: str | Sequence[Mapping[str, Any]] | None = None,
    *,
    settings: Settings | None = None,
    count: Count | None = None,
    embedder: Embedder | None = None,
) -> str:
    """The best facts as ``- fact`` lines within ``max_tokens`` (exact tiktoken count).

    ``facts``: strings, dicts with ``content`` (or ``text``) and optional ``confidence``
    in 0..1 and ``created_at``, ``recall.Record``/``Hit`` objects, or a memory_data dict
    ``{"facts": [...]}``. ``current_context``: the recent conversation as text, or the chat
    messages themselves (then the last 3 user turns and final replies are used).
    ``max_tokens`` defaults to ``settings.context.injection_max_tokens`` (2,000).
    ``embedder`` (``mem.embedder()``) lets a fact that shares no word with the conversation
    rank by meaning (see the module docstring).
    """
    s = settings or Settings()
    budget = s.context.injection_max_tokens if max_tokens is None else max_tokens
    if isinstance(budget, bool) or not isinstance(budget, int) or budget < 0:
        raise InputError(f"max_tokens must be an integer >= 0, got {shown(max_tokens)}")
    counter = count or token_counter(s)
    lines: list[str] = []
    used = 0
    nl = counter("\n")
    for fact in rank_facts(facts, current_context, settings=s, embedder=embedder):
        line = "- " + " ".join(fact.text.split())
        cost = counter(line) + (nl if lines else 0)
        if used + cost > budget:
            continue  # a shorter, lower-ranked fact may still fit
        lines.append(line)
        used += cost
    text = "\n".join(lines)
    while lines and counter(text) > budget:  # joins may merge tokens differently
        lines.pop()
        text = "\n".join(lines)
    return text
