import importlib
import inspect
from pathlib import Path
from types import ModuleType

import pytest

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


def test_the_public_namespace_is_exactly_all() -> None:
    # As httpx does: every public name of the package is in __all__, and nothing else
    # (subpackages aside) leaks into it. The names are imported on first use (PEP 562):
    # each is resolved first, as a user's code would.
    for name in recall.__all__:
        getattr(recall, name)
    public = {
        name
        for name, value in vars(recall).items()
        if not name.startswith("_") and not isinstance(value, ModuleType)
    }
    assert public == set(recall.__all__)


def _modules() -> list[str]:
    root = Path(recall.__file__).parent
    names = []
    for path in sorted(root.rglob("*.py")):
        rel = path.relative_to(root.parent).with_suffix("")
        parts = list(rel.parts)
        if parts[-1] == "__main__":
            continue
        if parts[-1] == "__init__":
            parts = parts[:-1]
        names.append(".".join(parts))
    return names


@pytest.mark.parametrize("name", _modules())
def test_every_module_declares_all_and_it_resolves(name: str) -> None:
    module = importlib.import_module(name)
    exported = getattr(module, "__all__", None)
    assert exported is not None, f"{name} has no __all__"
    assert list(exported) == sorted(exported), f"{name}.__all__ is not sorted"
    for attr in exported:
        assert hasattr(module, attr), f"{name}.__all__ names missing {attr!r}"
    # Every public function or class defined in the module is exported by it.
    defined = {
        attr
        for attr, value in vars(module).items()
        if not attr.startswith("_")
        and getattr(value, "__module__", None) == name
        and (inspect.isfunction(value) or inspect.isclass(value))
    }
    assert defined <= set(exported), f"{name}: public but not in __all__: {defined - set(exported)}"
