"""The groups of :class:`recall.Settings`, one per stage, each read from ``RECALL_*``."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any, ClassVar, Literal, Self

from pydantic import Field, ValidationError, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from ..errors import ConfigError

__all__ = [
    "ContextSettings",
    "GROUPS",
    "LLMSettings",
    "LifecycleSettings",
    "RetrievalSettings",
    "StorageSettings",
    "TextSettings",
    "env_name",
]

_ENV = "RECALL_"


class _Group(BaseSettings):
    """One group of settings: frozen, unknown names rejected, read from ``RECALL_*``."""

    model_config = SettingsConfigDict(env_prefix=_ENV, frozen=True, extra="forbid")
    #: The attribute of ``Settings`` holding this group.
    group: ClassVar[str]

    def __init__(self, **values: Any) -> None:
        try:
            super().__init__(**values)
        except ValidationError as exc:
            raise _config_error(type(self), exc, values) from None


class StorageSettings(_Group):
    """Where memory lives and what a record may hold."""

    group: ClassVar[str] = "storage"

    path: Path = Field(Path("memory"), description="Memory folder (SQLite + embedded Chroma).")
    chroma_url: str | None = Field(
        None, description="Chroma server URL; when set the vector leg uses HttpClient."
    )
    chroma_timeout_s: float = Field(10.0, gt=0, description="Timeout for a Chroma server call.")
    vector_partitions: int = Field(
        64,
        ge=1,
        le=4096,
        description="Chroma collections users are hashed into, per spec; fixed when a "
        "folder is first written.",
    )
    max_text_chars: int = Field(200_000, ge=1, description="Longest record text accepted.")


class RetrievalSettings(_Group):
    """deep_recall: the index spec, fusion, candidate pools, caches."""

    group: ClassVar[str] = "retrieval"

    index_spec: str = Field(
        "default", description="Index spec: a name in indexes/ or a path to a .toml file."
    )
    alpha: float = Field(0.5, ge=0.0, le=1.0, description="Keyword weight in the fused score.")
    fusion: Literal["linear", "rrf"] = Field("linear", description="Fusion method.")
    rrf_k: int = Field(60, ge=1, description="RRF constant k when fusion='rrf'.")
    candidate_pool: int = Field(
        100, ge=1, le=10_000, description="Top list size taken from each leg before fusion."
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
        ("short_term", "dynamic"), description="Kinds deep_recall searches by default."
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
    reindex_batch_size: int = Field(
        256, ge=1, description="Records per read/embed/write batch of `recall reindex`."
    )
    embed_device: str | None = Field(
        None, description="torch device for the embedder; None picks CUDA when present."
    )

    @model_validator(mode="after")
    def _check_order(self) -> Self:
        if self.default_top_k > self.max_top_k:
            raise ValueError("default_top_k must not exceed max_top_k")
        return self


class LifecycleSettings(_Group):
    """update_memory: summaries, promotion, reconstruction, background jobs."""

    group: ClassVar[str] = "lifecycle"

    summarize_threshold_tokens: int = Field(
        80_000, ge=1, description="Summarize conversation states at this many tokens."
    )
    short_term_capacity: int = Field(
        20, ge=1, description="More short-term summaries than this trigger promotion."
    )
    promote_count: int = Field(5, ge=1, description="Oldest summaries promoted at once.")
    summary_tokens: int = Field(600, ge=16, description="Budget of one offline summary.")
    chapter_tokens: int = Field(1_500, ge=16, description="Budget of one long-term chapter.")
    dedup_similarity: float = Field(
        0.92, ge=0, le=1, description="Sentences this similar are near-duplicates."
    )
    max_states_chars: int = Field(
        2_000_000, ge=1, description="Largest message list update_memory accepts, in chars."
    )
    promote_attempts: int = Field(
        16, ge=1, description="Optimistic promotion retries when another writer wins."
    )
    job_attempts: int = Field(
        3, ge=1, description="Tries of one background job before it is marked failed."
    )
    ingest_chunk_tokens: int = Field(
        4_000,
        ge=16,
        description="`recall ingest`: chat tokens per update_memory call (one summary each).",
    )
    answer_summary_chars: int = Field(
        100,
        ge=1,
        description="Per-turn summary when the model's {answer, summary} JSON has none: "
        "the answer's first this many characters.",
    )
    relevant_cache_size: int = Field(
        4_096,
        ge=0,
        description="get_relevant_memories: summary embeddings cached per process (0 = none).",
    )

    @model_validator(mode="after")
    def _check_order(self) -> Self:
        if self.promote_count > self.short_term_capacity:
            raise ValueError("promote_count must not exceed short_term_capacity")
        return self


class LLMSettings(_Group):
    """The optional OpenAI-compatible model (``OPENAI_API_KEY`` / ``OPENAI_BASE_URL``)."""

    model_config = SettingsConfigDict(env_prefix=_ENV + "LLM_", frozen=True, extra="forbid")
    group: ClassVar[str] = "llm"

    model: str | None = Field(
        None, description="Model for summarizing/reconstruction; None = offline default."
    )
    timeout_s: float = Field(60.0, gt=0, description="Timeout of one LLM call.")


class TextSettings(_Group):
    """Token counting."""

    group: ClassVar[str] = "text"

    encoding: str = Field("cl100k_base", description="tiktoken encoding for exact counts.")


class ContextSettings(_Group):
    """The context builder: section budgets, compaction, restore, memory injection."""

    group: ClassVar[str] = "context"

    context_window_tokens: int = Field(
        128_000, ge=1_000, description="The model's whole window; never exceeded."
    )
    history_budget_tokens: int = Field(40_000, ge=1, description="History budget.")
    compact_threshold_tokens: int = Field(30_000, ge=1, description="Compact history here.")
    compact_target_tokens: int = Field(15_000, ge=1, description="Kept after compaction.")
    soul_budget_tokens: int = Field(3_000, ge=0, description="Soul section; never cut.")
    memory_budget_tokens: int = Field(4_000, ge=0, description="Memory section.")
    daily_log_budget_tokens: int = Field(2_000, ge=0, description="Daily log section.")
    daily_log_entry_tokens: int = Field(120, ge=8, description="Daily log: one entry's line.")
    awareness_budget_tokens: int = Field(2_000, ge=0, description="Awareness section.")
    recall_budget_tokens: int = Field(3_000, ge=0, description="deep_recall results section.")
    system_budget_tokens: int = Field(15_000, ge=1, description="All system sections.")
    awareness_cache_s: float = Field(300.0, ge=0, description="Awareness list cache.")
    tool_input_chars: int = Field(500, ge=1, description="Tool input cut in history.")
    tool_result_chars: int = Field(1_000, ge=1, description="Tool result cut in history.")
    warning_ratio: float = Field(0.60, gt=0, lt=1, description="Usage warning level.")
    urgent_ratio: float = Field(0.80, gt=0, lt=1, description="Usage urgent level.")
    critical_ratio: float = Field(0.92, gt=0, le=1, description="Usage critical: compact now.")
    warning_cooldown_s: float = Field(300.0, ge=0, description="Time before a level warns again.")
    quality_threshold: float = Field(0.8, ge=0, le=1, description="Summary quality gate threshold.")
    truncate_keep_ratio: float = Field(
        0.3, gt=0, le=1, description="Fallback truncation keeps the newest share."
    )
    restore_max_items: int = Field(20, ge=0, description="Items restored after compaction.")
    restore_item_tokens: int = Field(8_192, ge=0, description="Tokens per restored item.")
    restore_total_tokens: int = Field(32_768, ge=0, description="Tokens restored in all.")
    injection_similarity_weight: float = Field(
        0.6, ge=0, le=1, description="Memory injection: weight of similarity."
    )
    injection_recent_turns: int = Field(
        3, ge=1, description="User turns the injection similarity looks at."
    )
    injection_confidence_weight: float = Field(
        0.4, ge=0, le=1, description="Memory injection: weight of confidence."
    )
    injection_max_tokens: int = Field(
        2_000, ge=0, description="Default budget of format_memory_for_injection."
    )
    compact_summary_tokens: int = Field(
        2_000, ge=128, description="Budget of the 8-section compaction summary."
    )
    message_overhead_tokens: int = Field(
        4, ge=0, description="Chat-format tokens each message costs besides its text."
    )
    round_share_estimate: float = Field(
        0.0175, gt=0, le=1, description="Budget share of one round before history exists."
    )
    quality_weights: tuple[float, float, float, float] = Field(
        (0.3, 0.4, 0.2, 0.1), description="Weights: coverage, key info, continuity, compression."
    )
    quality_max_ratio: float = Field(
        0.15, gt=0, le=1, description="Summary/original tokens at or under this scores full."
    )
    restore_weights: tuple[float, float, float, float] = Field(
        (0.35, 0.25, 0.20, 0.20), description="Restore score: recency, frequency, op, type."
    )

    @model_validator(mode="after")
    def _check_order(self) -> Self:
        # Thresholds that only make sense in one order; a wrong order is a config bug.
        if not self.warning_ratio < self.urgent_ratio < self.critical_ratio:
            raise ValueError("need warning_ratio < urgent_ratio < critical_ratio")
        if self.compact_target_tokens > self.compact_threshold_tokens:
            raise ValueError("compact_target_tokens must not exceed compact_threshold_tokens")
        return self


GROUPS: tuple[type[_Group], ...] = (
    StorageSettings,
    RetrievalSettings,
    LifecycleSettings,
    LLMSettings,
    TextSettings,
    ContextSettings,
)


def env_name(group: type[_Group], field: str) -> str:
    """The environment variable that sets ``field`` of ``group`` (``RECALL_ALPHA``)."""
    return f"{group.model_config.get('env_prefix', _ENV)}{field}".upper()


def _config_error(
    group: type[_Group], exc: ValidationError, given: Mapping[str, Any]
) -> ConfigError:
    problems = []
    for err in exc.errors():
        field = str(err["loc"][0]) if err["loc"] else ""
        var = env_name(group, field) if field else f"settings.{group.group}"
        if field and field not in given and var in os.environ:
            where = f"{var}={os.environ[var]!r} (environment)"
        elif field:
            where = f"{field}={given.get(field)!r} ({var})"
        else:
            where = f"settings.{group.group}"
        problems.append(f"{where}: {err['msg']}")
    return ConfigError(
        "invalid settings: " + "; ".join(problems) + ". Fix the value or unset the variable; "
        "`recall settings` lists every setting with its range."
    )
