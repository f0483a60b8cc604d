import importlib

import recall


def test_all_is_sorted_and_resolves() -> None:
    assert list(recall.__all__) == sorted(recall.__all__)
    for name in recall.__all__:
        assert getattr(recall, name) is not None, name


def test_design_names_are_public() -> None:
    for name in ("open", "Hit", "DEEP_RECALL_TOOL", "wants_deep_recall", "RecallError"):
        assert name in recall.__all__
    for method in ("add", "delete", "deep_recall", "handle_tool_call"):
        assert callable(getattr(recall.Memory, method))


def test_error_hierarchy() -> None:
    for name in ("InputError", "StoreError", "IndexStaleError", "LLMError", "ConfigError"):
        assert issubclass(getattr(recall, name), recall.RecallError)


def test_private_modules_reexported_not_duplicated() -> None:
    memory = importlib.import_module("recall.memory")
    assert recall.open is memory.open


def test_lifecycle_and_context_names_are_public() -> None:
    for name in (
        "Session",
        "ContextBuilder",
        "BuiltContext",
        "count_tokens",
        "format_memory_for_injection",
        "parse_answer_with_summary",
        "UpdateResult",
        "LongTerm",
    ):
        assert name in recall.__all__, name
    for method in ("update_memory", "long_term", "short_term", "should_summarize", "flush"):
        assert callable(getattr(recall.Memory, method))
