"""Where memory lives, how it is searched, how text is counted."""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar, Literal, Self

from pydantic import Field, model_validator

from .base import _Group

__all__ = ["RetrievalSettings", "StorageSettings", "TextSettings"]


class StorageSettings(_Group):
    """Where memory lives and what a record may hold."""

    group: ClassVar[str] = "storage"

    path: Path = Field(Path("memory"), description="Memory folder (SQLite + embedded Chroma).")
    chroma_url: str | None = Field(
        None, description="Chroma server URL; when set the vector leg uses HttpClient."
    )
    store_url: str | None = Field(
        None,
        description="PostgreSQL URL (postgresql://user@host:port/db) of the store; unset: "
        "the folder's SQLite file. Several processes may share one.",
    )
    store_timeout_s: float = Field(
        10.0, gt=0, description="Timeout for connecting to the PostgreSQL store."
    )
    chroma_timeout_s: float = Field(10.0, gt=0, description="Timeout for a Chroma server call.")
    allow_degraded_open: bool = Field(
        False,
        description="Open even when the Chroma server is down: writes are stored, the index "
        "lags, reads are keyword-only with allow_degraded (False: open raises StoreError).",
    )
    vector_partitions: int = Field(
        64,
        ge=1,
        le=4096,
        description="Chroma collections users are hashed into, per spec; fixed when a "
        "folder is first written.",
    )
    chroma_process: Literal["auto", "on", "off"] = Field(
        "auto",
        description="Run the embedded Chroma store in a child process, so its writes (which "
        "hold Python's interpreter lock in process) run beside other work; a call waits for "
        "the child's answer, so nothing acknowledged changes. auto: on for `recall serve "
        "--transport http`, off elsewhere (a child costs about a second to start). No effect "
        "with chroma_url.",
    )
    max_text_chars: int = Field(200_000, ge=1, description="Longest record text accepted.")


class RetrievalSettings(_Group):
    """deep_recall: the index spec, fusion, candidate pools, caches."""

    group: ClassVar[str] = "retrieval"

    index_spec: str | None = Field(
        None,
        description="Index spec: a name in indexes/ or a path to a .toml file (unset: the "
        "spec the folder was last switched to, else default).",
    )
    alpha: float = Field(0.5, ge=0.0, le=1.0, description="Keyword weight in the fused score.")
    fusion: Literal["linear", "rrf"] = Field("linear", description="Fusion method.")
    rrf_k: int = Field(60, ge=1, description="RRF constant k when fusion='rrf'.")
    candidate_pool: int = Field(
        100, ge=1, le=10_000, description="Top list size taken from each leg before fusion."
    )
    min_similarity: float = Field(
        0.25,
        ge=-1.0,
        le=1.0,
        description="Relevance floor: deep_recall returns nothing unless a hit's raw vector "
        "similarity reaches this, or its keywords reach min_keyword_coverage (-1: no floor).",
    )
    min_similarity_tail: float = Field(
        0.15,
        ge=-1.0,
        le=1.0,
        description="Relevance floor: once a hit passes, the others stay when their "
        "similarity reaches this (at most min_similarity), or their keywords do.",
    )
    min_similarity_support: float = Field(
        0.2,
        ge=-1.0,
        le=1.0,
        description="Relevance floor: a hit that passes on its keywords, or states what the "
        "asked attribute holds now, shows that memory answers the query only when its "
        "similarity also reaches this (USE-scored hits: times min_similarity_cjk / "
        "min_similarity; -1: at any similarity).",
    )
    min_similarity_cjk: float = Field(
        0.125,
        ge=-1.0,
        le=1.0,
        description="min_similarity for a query holding CJK text, which USE-multilingual "
        "scores with lower cosines than MiniLM; a hit holding CJK text that USE scored for "
        "another query is judged at the thresholds times min_similarity_cjk / "
        "min_similarity (-1: no floor for such queries).",
    )
    cross_language_scale: float = Field(
        1.0,
        ge=0.0,
        le=4.0,
        description="Factor on the USE-multilingual similarity that scores a record holding "
        "CJK text for a query without (recall.index.crosslang; 0: such records score 0).",
    )
    cross_language_scale_cjk: float = Field(
        1.0,
        ge=0.0,
        le=4.0,
        description="Factor on the similarity of a record without CJK text for a query "
        "holding CJK text (USE-multilingual rates same-language text nearer).",
    )
    cross_keyword_share: float = Field(
        1.0,
        ge=0.0,
        le=1.0,
        description="Linear fusion: a record in the other language than the query (no word "
        "to share) takes this share of its vector score as keyword score when higher.",
    )
    min_keyword_coverage: float = Field(
        0.5,
        ge=0.0,
        le=1.0,
        description="Relevance floor: share of the query's analyzed terms a hit must hold "
        "to stay on its keywords alone.",
    )
    current_facts: bool = Field(
        True,
        description="A question about the user's present (any asker, any phrasing) gets the "
        "statements of what the asked attribute holds now first (recall.user.now).",
    )
    newest_first: int = Field(
        10,
        ge=0,
        le=50,
        description="A question about what holds now for the user (an attribute, any asker): "
        "its first N hits are re-ordered newest first (the set is kept), each dated by the "
        "newest thing it names as the user first said it. 0 keeps the fused order.",
    )
    neighbour_weight: float = Field(
        0.5,
        ge=0.0,
        le=1.0,
        description="Share of the best thread neighbour's score added to a threaded "
        "record's score in each leg (0 turns it off).",
    )
    neighbour_hops: int = Field(
        2, ge=1, le=8, description="How far along a thread neighbours share their scores."
    )
    thread_key: str = Field(
        "thread", min_length=1, description="Metadata key naming a record's thread."
    )
    default_top_k: int = Field(
        8, ge=1, le=1000, description="Hits deep_recall returns by default (CLI too)."
    )
    max_top_k: int = Field(1000, ge=1, description="Largest top_k the library accepts.")
    tool_max_top_k: int = Field(
        50, ge=1, description="Largest top_k the deep_recall tool lets a model ask for."
    )
    max_query_chars: int = Field(10_000, ge=1, description="Longest query accepted.")
    recall_kinds: tuple[str, ...] = Field(
        ("note", "short_term", "dynamic", "fact"),
        description="The recent tier: kinds deep_recall searches at depth 'recent' ('fact': "
        "what a configured model read of the user, recall.lifecycle.extract).",
    )
    archive_kinds: tuple[str, ...] = Field(
        ("archive", "turn"),
        description="The archive tier (promoted summaries, raw turns): added at depth 'archive'.",
    )
    recall_depth: Literal["recent", "archive"] = Field(
        "archive", description="Tiers a plain deep_recall searches ('archive': both)."
    )
    relative_time: bool = Field(
        True,
        description="Read time expressions in a deep_recall query ('last week', '上个月') "
        "as a soft window on when records were said (recall.text.when).",
    )
    time_prior_boost: float = Field(
        0.5,
        ge=0.0,
        le=1.0,
        description="Added to the fused score of a hit inside the query's own time window "
        "when ranking (0: the window only adds candidates).",
    )
    vector_cache_mb: int = Field(
        1024,
        ge=0,
        description="In-process cache of users' vectors (exact scoring); 0 = always query Chroma.",
    )
    keyword_cache_partitions: int = Field(
        256, ge=1, description="BM25 partitions kept in memory (LRU), one per user and kinds."
    )
    embed_batch_size: int = Field(64, ge=1, description="Texts per embedding batch.")
    query_cache_size: int = Field(
        1024,
        ge=0,
        le=1_000_000,
        description="Query vectors kept per model (LRU, shared by every tenant of the "
        "process): a repeated query embeds nothing; 0 = off. Concurrent queries share one "
        "model call either way.",
    )
    reindex_batch_size: int = Field(
        256, ge=1, description="Records per read/embed/write batch of `recall reindex`."
    )
    embed_device: str | None = Field(
        None, description="torch device for the embedder; None picks CUDA when present."
    )
    embed_threads: int = Field(
        1,
        ge=1,
        le=256,
        description="CPU threads per embedding call (onnxruntime intra-op; torch's too). "
        "1 keeps a query fast on a busy machine; more speeds up bulk ingest.",
    )

    @model_validator(mode="after")
    def _check_order(self) -> Self:
        if self.default_top_k > self.max_top_k:
            raise ValueError("default_top_k must not exceed max_top_k")
        return self


class TextSettings(_Group):
    """Token counting."""

    group: ClassVar[str] = "text"

    encoding: str = Field("cl100k_base", description="tiktoken encoding for exact counts.")
