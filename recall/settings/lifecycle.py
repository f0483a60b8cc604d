"""The memory lifecycle (short-term, promotion, the article) and the LLM it may use."""

from __future__ import annotations

from typing import ClassVar, Self

from pydantic import Field, model_validator
from pydantic_settings import SettingsConfigDict

from .base import _ENV, _Group

__all__ = ["LLMSettings", "LifecycleSettings"]


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
    segment_cap: int = Field(
        100,
        ge=1,
        description="Most short-term summaries a user keeps; beyond it the oldest are "
        "archived unpromoted (never deleted).",
    )
    promotions_per_call: int = Field(
        2,
        ge=1,
        description="Promotions one synchronous update_memory runs; the rest go to the "
        "background worker (journaled).",
    )
    keep_turns: bool = Field(
        True,
        description="update_memory with messages also keeps the user and assistant turns "
        "verbatim (kind 'turn', the archive tier).",
    )
    summary_tokens: int = Field(600, ge=16, description="Budget of one offline summary.")
    chapter_tokens: int = Field(1_500, ge=16, description="Budget of one long-term chapter.")
    dedup_similarity: float = Field(
        0.92, ge=0, le=1, description="Near-duplicate cosine, where the learned model does not fit."
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
        if self.short_term_capacity > self.segment_cap:
            raise ValueError("short_term_capacity must not exceed segment_cap")
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
    extract_facts: bool = Field(
        True,
        description="With a model: also ask it what each update_memory's user messages change "
        "in the user's profile (add / update, stored as 'fact' records).",
    )
