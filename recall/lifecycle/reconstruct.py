"""Cognitive reconstruction: old chapters + new stimuli -> the next long-term article.

Two implementations behind one :class:`Reconstructor` protocol:

- :class:`OfflineReconstructor` (the embedded default, deterministic). Each promoted
  summary is read as whole sentences with their speakers (:mod:`.sentences`; a ``;`` never
  ends one), of which the article keeps facts about the user (:mod:`.keep`): not my
  advice, questions, reactions or general knowledge, not the user's questions or bare
  reactions (the archive and turn tiers still hold them all), and a mood said beside a
  durable fact (diet, allergy, health, family, job: :mod:`.durable`) is cut down to the
  fact. Each kept sentence is routed to a chapter by rules (:func:`route`,
  :mod:`.routing`; a durable fact goes to Bedrock), what they leave in Dynamic by the
  nearest labelled examples (:mod:`.examples`), and retold in the AI's first person
  without role labels (:mod:`.voice`; :mod:`.reading` does all this). Then, newest first:

  * a newer statement of a single-valued fact (name, job, employer, city, a preference)
    supersedes the older one wherever it is in the article (:mod:`.article_facts`); the older
    sentence leaves the current article and stays in its earlier versions;
  * passing states (moods, tiredness, illness, and no durable fact beside them) live in
    Dynamic for one promotion: the new batch keeps only its newest one, and the old ones
    are dropped;
  * near-duplicates within a chapter are merged by embedding similarity, the newer wins (a
    sentence with a number, name or path the newer one lacks is not a duplicate);
  * each chapter is held to its token budget by dropping its oldest sentences, durable
    facts last (:mod:`.fitting`).

  Every chapter is written newest first, one paragraph per summary, each paragraph opening
  with the day it was said (``[2026-01-05] I know the user …``: the stimulus's ``at``, see
  :class:`~.said.Dated`; an undated stimulus writes no mark, and an old paragraph keeps
  its own). A chapter that nothing touched stays byte-identical. Advice and questions an
  article written before they were left out still holds go at its next promotion.
- :class:`LLMReconstructor`: the reconstruction prompt with structured output; on
  any LLM failure it falls back to the offline one with a logged reason. The model gets
  the stimuli as plain text.

Stimuli are the promoted short-term summaries, oldest first: plain strings, or
:class:`~.said.Dated` ones (what :mod:`.promote` passes) that also carry when they were said.
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
from ..text import count_tokens
from ..user.article_facts import supersede
from .article import CHAPTERS, Article, clean_chapter
from .examples import ExampleRouter
from .extractive import key_facts
from .fitting import fit_chapter
from .reading import Para, day_of, read_new, read_old
from .routing import is_transient, route
from .said import mark
from .sameness import Sameness, drop_across, load_sameness
from .sentences import split_whole_sentences, utterances
from .voice import core

__all__ = ["ArticleOut", "LLMReconstructor", "OfflineReconstructor", "Reconstructor", "route"]

log = logging.getLogger(__name__)

# Old chapters are read newest first too: Dynamic changes fastest.
_OLD_ORDER = ("Dynamic", "Evolutionary", "Bedrock")
#: Below this cosine no pair of the examples was a paraphrase (benchmarks/train_sameness.py).
_PAIR_FLOOR = 0.5


@runtime_checkable
class Reconstructor(Protocol):
    """Rewrites the long-term article from its old chapters and new stimuli."""

    def reconstruct(self, article: Article, stimuli: Sequence[str]) -> Article:
        """The next article; ``stimuli`` are oldest first."""
        ...


def _paragraphs(text: str) -> list[list[str]]:
    paras = (p.strip() for p in re.split(r"\n\s*\n", text))
    return [s for s in (split_whole_sentences(p) for p in paras if p) if s]


class OfflineReconstructor:
    """Deterministic reconstruction: rules, the AI's voice, supersession, embedding
    dedup, newest-first budgets (see the module docstring)."""

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
        self.router = ExampleRouter(embedder)

    def reconstruct(self, article: Article, stimuli: Sequence[str]) -> Article:
        """Read, route, voice, supersede, dedup and budget (see the module docstring)."""
        batches = read_new(stimuli, self.router)
        days = [day_of(s) for s in reversed(stimuli)]  # newest first, as the batches
        old: dict[str, list[Para]] = {}
        touched = {name: False for name in CHAPTERS}
        legacy = any(
            u.speaker.role for text in article.chapters().values() for u in utterances(text)
        )
        for name, text in article.chapters().items():
            old[name], touched[name] = read_old(text, legacy)
        if stimuli:  # a passing state had its promotion
            kept_ = [(d, [s for s in p if not is_transient(s)]) for d, p in old["Dynamic"]]
            touched["Dynamic"] |= kept_ != old["Dynamic"]
            old["Dynamic"] = [(d, p) for d, p in kept_ if p]
        # Every sentence once, newest first: the new batches, then the old chapters.
        slots: list[tuple[str, list[str], int]] = []
        new: dict[str, list[Para]] = {name: [] for name in CHAPTERS}
        for day, items in zip(days, batches, strict=True):
            for name in CHAPTERS:
                para = [s for c, s in items if c == name]
                if para:
                    new[name].append((day, para))
                    touched[name] = True
                    slots.extend((name, para, i) for i in reversed(range(len(para))))
        for name in _OLD_ORDER:
            for _, para in old[name]:
                slots.extend((name, para, i) for i in reversed(range(len(para))))
        verdicts = supersede([para[i] for _, para, i in slots])
        for (name, para, i), verdict in zip(slots, verdicts, strict=True):
            if verdict is not None:
                para[i] = "\n".join(verdict)  # restated facts, or "" (dropped)
                touched[name] = True
        return self._write(article, new, old, touched)

    def _write(
        self,
        article: Article,
        new: dict[str, list[Para]],
        old: dict[str, list[Para]],
        touched: dict[str, bool],
    ) -> Article:
        """The chapters from their new and old paragraphs, once every sentence is final:
        near-duplicates dropped across chapters, then within each, budgets fitted."""
        chapters = {
            name: [
                (d, [s for ln in p for s in ln.split("\n") if s]) for d, p in new[name] + old[name]
            ]
            for name in CHAPTERS
        }
        # The same fact routed to two chapters: the newer (then the more durable) stays.
        for name in drop_across(chapters, self._keep):
            touched[name] = True
        out = {}
        for name, text in article.chapters().items():
            if not touched[name]:
                out[name.lower()] = text  # an untouched chapter stays exactly as it was
                continue
            paras = [(day, p) for day, p in chapters[name] if p]
            # Each paragraph opens with the day it was said, once its sentences are final.
            dated = [[mark(day) + p[0], *p[1:]] for day, p in self._dedup(paras)]
            out[name.lower()] = self.fit(dated)
        return Article(**out)

    def _vectors(self, sentences: list[str]) -> np.ndarray:
        missing = list(dict.fromkeys(s for s in sentences if s not in self._cache))
        if missing:
            if len(self._cache) + len(missing) > self._cache_size:
                self._cache.clear()
            vecs = self._embedder().embed_documents(missing)
            self._cache.update(zip(missing, vecs, strict=True))
        return np.stack([self._cache[s] for s in sentences])

    def _dedup(self, paras: list[Para]) -> list[Para]:
        keep = self._keep([s for _, p in paras for s in p])
        out: list[Para] = []
        i = 0
        for day, p in paras:
            kept_ = [s for j, s in enumerate(p, start=i) if j in keep]
            i += len(p)
            if kept_:
                out.append((day, kept_))
        return out

    def _same(
        self, model: Sameness | None, cores: list[str], vecs: np.ndarray, k: int, i: int, sim: float
    ) -> bool:
        """Whether the newer sentence ``k`` already says what the older ``i`` says."""
        if model is None:
            return sim >= self.dedup_similarity
        # Pairs this far apart never were paraphrases in the examples: skip the model.
        return sim >= _PAIR_FLOOR and model.same(cores[k], cores[i], (vecs[k], vecs[i]))

    def _keep(self, flat: list[str]) -> set[int]:
        """Positions of ``flat`` (newest first) that say something no newer one says."""
        if not flat:
            return set()
        # Compared without the frame: "I know the user …" would make every pair alike.
        cores = [core(s) for s in flat]
        vecs = self._vectors(cores)
        facts = [key_facts(s) for s in flat]
        model = load_sameness(self._embedder())
        kept_idx: list[int] = []
        keep: set[int] = set()
        for i in range(len(flat)):
            # Earlier = newer, so the first of two near-duplicates is the one kept. Embeddings
            # barely see numbers ("ticket 1003" ~ "ticket 1004" at 0.95), so an older sentence
            # only counts as a duplicate when a kept one also carries all of its key facts;
            # then the learned model decides (recall.lifecycle.sameness), else the threshold.
            if kept_idx:
                sims = vecs[kept_idx] @ vecs[i]
                if any(
                    facts[i] <= facts[k] and self._same(model, cores, vecs, k, i, sim)
                    for sim, k in zip(sims.tolist(), kept_idx, strict=True)
                ):
                    continue
            kept_idx.append(i)
            keep.add(i)
        return keep

    def fit(self, paras: list[list[str]]) -> str:
        """Paragraphs (newest first) as chapter text within the budget: durable facts
        kept first, then the newest of the rest (:mod:`.fitting`)."""
        return fit_chapter(paras, self.chapter_tokens, self.count)


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
