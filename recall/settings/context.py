"""The context builder: budgets, usage warnings, compaction."""

from __future__ import annotations

from typing import ClassVar, Self

from pydantic import Field, model_validator

from .base import _Group

__all__ = ["ContextSettings"]


class ContextSettings(_Group):
    """The context builder: section budgets, compaction, restore, memory injection."""

    group: ClassVar[str] = "context"

    context_window_tokens: int = Field(
        128_000, ge=1_000, description="The model's whole window; never exceeded."
    )
    history_budget_tokens: int | None = Field(
        None, ge=1, description="History budget; unset: all the window the system sections leave."
    )
    compact_threshold_tokens: int | None = Field(
        None, ge=1, description="Also compact history here; unset: at the critical level only."
    )
    compact_target_tokens: int = Field(15_000, ge=1, description="Kept after compaction.")
    soul_budget_tokens: int = Field(3_000, ge=0, description="Soul section; never cut.")
    memory_budget_tokens: int = Field(4_000, ge=0, description="Memory section.")
    memory_chapter_share: float = Field(
        0.5,
        ge=0.0,
        le=1.0,
        description="get_relevant_memories: the most of the room after the Bedrock that "
        "Evolutionary and Dynamic take while short-term summaries need it.",
    )
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
        threshold = self.compact_threshold_tokens
        if threshold is not None and self.compact_target_tokens > threshold:
            raise ValueError("compact_target_tokens must not exceed compact_threshold_tokens")
        return self
