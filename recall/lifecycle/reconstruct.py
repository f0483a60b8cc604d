"""Cognitive reconstruction: old chapters + new stimuli -> the next long-term article.

Two implementations behind one :class:`Reconstructor` protocol:

- :class:`OfflineReconstructor` (the embedded default, deterministic): routes every new
  sentence to a chapter by rules (:func:`route`), puts the newest material first, drops
  near-duplicates by embedding similarity (the newer sentence wins: it is the current
  truth; a sentence with a number, name or path the newer one lacks is not a duplicate),
  and keeps each chapter within its token budget by dropping the oldest sentences.
- :class:`LLMReconstructor`: the reconstruction prompt with structured output; on
  any LLM failure it falls back to the offline one with a logged reason.

Stimuli are the promoted short-term summaries, oldest first.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Sequence
from string import Template
from typing import Protocol, runtime_checkable

import numpy as np
from pydantic import BaseModel

from ..errors import LLMError
from ..index.embed import Embedder
from ..llm import LLMClient, dumps, load_prompt
from ..text import count_tokens, split_sentences
from .article import CHAPTERS, Article, clean_chapter
from .extractive import key_facts

__all__ = ["ArticleOut", "LLMReconstructor", "OfflineReconstructor", "Reconstructor", "route"]

log = logging.getLogger(__name__)

# Identity, stable facts and hard boundaries: the Bedrock chapter.
_BEDROCK = re.compile(
    r"\b(my name is|i am an? |i'm an? |i work (as|at|for)|i live in|i was born|my (job|role|"
    r"profession|nationality|native language) |allergic|never (ever )?(call|use|share|send|"
    r"mention)|always (call|use|answer|reply|write)|do not ever|must never|my pronouns)"
    r"|我叫|我的名字|我是一[名个位]|我的职业|我住在|我出生|过敏|永远不要|绝对不要|底线|原则",
    re.IGNORECASE,
)
# Long-term goals, habits and settled ways of working together: the Evolutionary chapter.
_EVOLUTIONARY = re.compile(
    r"\b(my (long[- ]term )?goal|long[- ]term|i (plan|aim|hope|intend) to|i want to become|"
    r"my dream|my career|i usually|i tend to|habit|i prefer|my preference|we agreed|our "
    r"convention|from now on|going forward|every (day|week|month|morning|evening))"
    r"|目标|长期|打算|梦想|职业规划|通常|习惯|偏好|更喜欢|约定|以后都|每天|每周|每月",
    re.IGNORECASE,
)


def route(sentence: str) -> str:
    """The chapter a sentence belongs to: "Bedrock", "Evolutionary" or "Dynamic"."""
    if _BEDROCK.search(sentence):
        return "Bedrock"
    if _EVOLUTIONARY.search(sentence):
        return "Evolutionary"
    return "Dynamic"


@runtime_checkable
class Reconstructor(Protocol):
    """Rewrites the long-term article from its old chapters and new stimuli."""

    def reconstruct(self, article: Article, stimuli: Sequence[str]) -> Article:
        """The next article; ``stimuli`` are oldest first."""
        ...


def _paragraphs(text: str) -> list[list[str]]:
    paras = (p.strip() for p in re.split(r"\n\s*\n", text))
    return [s for s in (_sentences(p) for p in paras if p) if s]


def _sentences(text: str) -> list[str]:
    return [s for line in text.split("\n") for s in split_sentences(line)]


class OfflineReconstructor:
    """Deterministic reconstruction: rules, embedding dedup, newest-first budgets."""

    def __init__(
        self,
        embedder: Callable[[], Embedder],
        *,
        chapter_tokens: int,
        dedup_similarity: float,
        count: Callable[[str], int] = count_tokens,
        cache_size: int = 8_192,
    ) -> None:
        self._embedder = embedder
        self.chapter_tokens = chapter_tokens
        self.dedup_similarity = dedup_similarity
        self.count = count
        # Old chapter sentences come back at every promotion; embedding each once keeps a
        # promotion's cost to its new sentences.
        self._cache: dict[str, np.ndarray] = {}
        self._cache_size = cache_size

    def reconstruct(self, article: Article, stimuli: Sequence[str]) -> Article:
        """Route, dedup and budget (see the module docstring)."""
        fresh: dict[str, list[list[str]]] = {name: [] for name in CHAPTERS}
        for stimulus in reversed(stimuli):  # newest first
            routed: dict[str, list[str]] = {}
            for sent in _sentences(clean_chapter(stimulus)):
                routed.setdefault(route(sent), []).append(sent)
            for name, sents in routed.items():
                fresh[name].append(sents)
        out = {}
        for name, old in article.chapters().items():
            if not fresh[name]:
                out[name.lower()] = old  # an untouched chapter stays exactly as it was
                continue
            paras = self._dedup(fresh[name] + _paragraphs(old))
            out[name.lower()] = self.fit(paras)
        return Article(**out)

    def _vectors(self, sentences: list[str]) -> np.ndarray:
        missing = list(dict.fromkeys(s for s in sentences if s not in self._cache))
        if missing:
            if len(self._cache) + len(missing) > self._cache_size:
                self._cache.clear()
            vecs = self._embedder().embed_documents(missing)
            self._cache.update(zip(missing, vecs, strict=True))
        return np.stack([self._cache[s] for s in sentences])

    def _dedup(self, paras: list[list[str]]) -> list[list[str]]:
        flat = [s for p in paras for s in p]
        if not flat:
            return []
        vecs = self._vectors(flat)
        facts = [key_facts(s) for s in flat]
        kept_idx: list[int] = []
        keep: set[int] = set()
        for i in range(len(flat)):
            # Earlier = newer, so the first of two near-duplicates is the one kept. Embeddings
            # barely see numbers ("ticket 1003" ~ "ticket 1004" at 0.95), so an older sentence
            # only counts as a duplicate when a kept one also carries all of its key facts.
            if kept_idx:
                sims = vecs[kept_idx] @ vecs[i]
                if any(
                    sim >= self.dedup_similarity and facts[i] <= facts[k]
                    for sim, k in zip(sims.tolist(), kept_idx, strict=True)
                ):
                    continue
            kept_idx.append(i)
            keep.add(i)
        out, i = [], 0
        for p in paras:
            kept = [s for j, s in enumerate(p, start=i) if j in keep]
            i += len(p)
            if kept:
                out.append(kept)
        return out

    def fit(self, paras: list[list[str]]) -> str:
        """Paragraphs (newest first) as chapter text within the budget, oldest dropped."""
        kept: list[list[str]] = []
        used = 0
        for p in paras:
            part: list[str] = []
            for s in p:
                cost = self.count(s) + 1
                if used + cost > self.chapter_tokens:
                    break
                part.append(s)
                used += cost
            if part:
                kept.append(part)
            if len(part) < len(p):
                break
        text = "\n\n".join(" ".join(p) for p in kept)
        while kept and self.count(text) > self.chapter_tokens:  # joins can add a token
            kept[-1].pop()
            kept = [p for p in kept if p]
            text = "\n\n".join(" ".join(p) for p in kept)
        return text


class ArticleOut(BaseModel):
    """The LLM's reply: the three rewritten chapters."""

    bedrock: str
    evolutionary: str
    dynamic: str


class LLMReconstructor:
    """Reconstruction by an OpenAI-compatible model; offline on failure."""

    def __init__(self, client: LLMClient, fallback: OfflineReconstructor) -> None:
        self.client = client
        self.fallback = fallback

    def reconstruct(self, article: Article, stimuli: Sequence[str]) -> Article:
        """The model's rewrite, each chapter cleaned and held to its budget."""
        system = Template(load_prompt("reconstruct")).substitute(
            chapter_tokens=self.fallback.chapter_tokens
        )
        user = dumps({"old_structure": article.model_dump(), "new_stimuli": list(stimuli)})
        try:
            reply = self.client.structured(system, user, ArticleOut)
        except LLMError as exc:
            log.warning("recall: LLM reconstruction failed, using the offline one: %s", exc)
            return self.fallback.reconstruct(article, stimuli)
        chapters = {}
        for name, raw in reply.model_dump().items():
            text = clean_chapter(raw.strip())
            if self.fallback.count(text) > self.fallback.chapter_tokens:
                log.info("recall: LLM chapter %s over budget; oldest sentences dropped", name)
                text = self.fallback.fit(_paragraphs(text))
            chapters[name] = text
        return Article(**chapters)
