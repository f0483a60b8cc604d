import pytest
from pydantic import ValidationError

from recall import Settings


def test_design_defaults() -> None:
    s = Settings()
    assert s.alpha == 0.5
    assert s.summarize_threshold_tokens == 80_000
    assert (s.short_term_capacity, s.promote_count) == (20, 5)
    assert (s.history_budget_tokens, s.compact_threshold_tokens, s.compact_target_tokens) == (
        40_000,
        30_000,
        15_000,
    )
    assert (s.soul_budget_tokens, s.memory_budget_tokens, s.system_budget_tokens) == (
        3_000,
        4_000,
        15_000,
    )
    assert (s.warning_ratio, s.urgent_ratio, s.critical_ratio) == (0.6, 0.8, 0.92)
    assert s.vector_partitions == 64
    assert s.recall_kinds == ("short_term", "dynamic")


def test_env_prefix(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RECALL_ALPHA", "0.3")
    monkeypatch.setenv("RECALL_VECTOR_PARTITIONS", "8")
    s = Settings()
    assert s.alpha == 0.3 and s.vector_partitions == 8


def test_invalid_values_rejected() -> None:
    with pytest.raises(ValidationError):
        Settings(alpha=1.5)
    with pytest.raises(ValidationError):
        Settings(warning_ratio=0.9, urgent_ratio=0.8)
    with pytest.raises(ValidationError):
        Settings(not_a_setting=1)  # type: ignore[call-arg]


def test_frozen() -> None:
    with pytest.raises(ValidationError):
        Settings().alpha = 0.2  # type: ignore[misc]
