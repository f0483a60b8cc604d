"""The benchmark data contract: BEIR's three plain dicts, plus what memory needs.

- ``corpus``: doc id -> ``{"text", optional "title", "user", "created_at", "kind"}``
- ``queries``: query id -> text
- ``qrels``: query id -> {doc id -> relevance (int > 0)}

Memory is per user, so every document names its ``user`` and every query has a
``query_meta`` entry with its ``user`` (and, where the dataset has one, a ``category``).
A dataset whose scored unit is not the retrieved unit (LoCoMo observations: one observation
covers several dialogue turns) also gives ``evidence`` (query id -> evidence ids) and
``covers`` (doc id -> the evidence ids it holds); recall@k then counts evidence ids covered
by the top k documents, the LoCoMo paper's definition.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from ..errors import DatasetError

__all__ = ["DEFAULT_USER", "Dataset", "DatasetError"]

#: The user a document or query belongs to when the dataset has no notion of users.
DEFAULT_USER = "bench"


@dataclass
class Dataset:
    """One benchmark: corpus, queries, qrels (BEIR) with per-user metadata."""

    name: str
    corpus: dict[str, dict[str, Any]]
    queries: dict[str, str]
    qrels: dict[str, dict[str, int]]
    query_meta: dict[str, dict[str, Any]] = field(default_factory=dict)
    evidence: dict[str, set[str]] | None = None
    covers: dict[str, set[str]] | None = None
    #: Counts worth reporting: skipped questions, malformed evidence, haystack sizes...
    stats: dict[str, Any] = field(default_factory=dict)
    #: How the dataset was built (seed, unit, sizes), copied into the results' parameters.
    params: dict[str, Any] = field(default_factory=dict)

    def user_of_doc(self, doc_id: str) -> str:
        """The user whose memory holds ``doc_id``."""
        return str(self.corpus[doc_id].get("user", DEFAULT_USER))

    def user_of_query(self, qid: str) -> str:
        """The user a query is asked for."""
        return str(self.query_meta.get(qid, {}).get("user", DEFAULT_USER))

    def docs_by_user(self) -> dict[str, list[str]]:
        """Doc ids grouped by user, in corpus order."""
        out: dict[str, list[str]] = defaultdict(list)
        for doc_id in self.corpus:
            out[self.user_of_doc(doc_id)].append(doc_id)
        return dict(out)

    def queries_by_user(self) -> dict[str, list[str]]:
        """Query ids grouped by user, in query order."""
        out: dict[str, list[str]] = defaultdict(list)
        for qid in self.queries:
            out[self.user_of_query(qid)].append(qid)
        return dict(out)

    def categories(self) -> list[str]:
        """The distinct query categories, sorted (empty when the dataset has none)."""
        cats = {str(m["category"]) for m in self.query_meta.values() if "category" in m}
        return sorted(cats)

    def doc_text(self, doc_id: str) -> str:
        """The indexed text: title and text joined the way BEIR's dense baselines do."""
        doc = self.corpus[doc_id]
        title = str(doc.get("title") or "").strip()
        text = str(doc["text"]).strip()
        return f"{title}\n{text}" if title else text

    def doc_time(self, doc_id: str) -> datetime | None:
        """The document's ``created_at`` as an aware datetime, if it has one."""
        value = self.corpus[doc_id].get("created_at")
        if value is None:
            return None
        if isinstance(value, datetime):
            return value if value.tzinfo else value.replace(tzinfo=UTC)
        raise DatasetError(f"doc {doc_id}: created_at must be a datetime, got {value!r}")

    def limited(self, limit: int | None) -> Dataset:
        """This dataset with only its first ``limit`` queries (and only their users' docs)."""
        if limit is None or limit >= len(self.queries):
            return self
        if limit < 1:
            raise DatasetError("--limit must be at least 1")
        keep = list(self.queries)[:limit]
        users = {self.user_of_query(q) for q in keep}
        corpus = {d: v for d, v in self.corpus.items() if self.user_of_doc(d) in users}
        return Dataset(
            name=self.name,
            corpus=corpus,
            queries={q: self.queries[q] for q in keep},
            qrels={q: self.qrels[q] for q in keep},
            query_meta={q: self.query_meta[q] for q in keep if q in self.query_meta},
            evidence=None if self.evidence is None else {q: self.evidence[q] for q in keep},
            covers=None if self.covers is None else {d: self.covers[d] for d in corpus},
            stats={**self.stats, "limited_to_queries": limit},
            params={**self.params, "limit": limit},
        )

    def validate(self) -> None:
        """Raise :class:`DatasetError` if the dicts break the contract."""
        if not self.corpus:
            raise DatasetError(f"{self.name}: the corpus is empty")
        if not self.queries:
            raise DatasetError(f"{self.name}: there are no queries to score")
        for doc_id, doc in self.corpus.items():
            if not str(doc.get("text", "")).strip():
                raise DatasetError(f"{self.name}: doc {doc_id} has no text")
        for qid in self.queries:
            rel = self.qrels.get(qid)
            # With evidence ids, a query no document covers is kept (it scores 0).
            if not rel and (self.evidence is None or not self.evidence.get(qid)):
                raise DatasetError(f"{self.name}: query {qid} has no relevant document")
            user = self.user_of_query(qid)
            for doc_id, grade in (rel or {}).items():
                if doc_id not in self.corpus:
                    raise DatasetError(f"{self.name}: qrels of {qid} name unknown doc {doc_id}")
                if self.user_of_doc(doc_id) != user:
                    raise DatasetError(f"{self.name}: {qid} is judged on another user's doc")
                if grade <= 0:
                    raise DatasetError(f"{self.name}: qrels keep only relevant docs (>0)")
        if (self.evidence is None) != (self.covers is None):
            raise DatasetError(f"{self.name}: evidence and covers go together")
