"""Bad input gets a clear InputError and leaves the store unchanged."""

from __future__ import annotations

from typing import Any

import pytest

import recall
from recall import InputError


def snapshot(mem: recall.Memory) -> tuple[Any, ...]:
    return (mem._store.counts(), mem._store.version("u1"))


@pytest.fixture
def filled(mem: recall.Memory) -> recall.Memory:
    mem.add("The cache is Redis.", user_id="u1")
    return mem


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"query": ""}, "empty"),
        ({"query": "   \n\t"}, "empty"),
        ({"query": "x" * 10_001}, "max_query_chars"),
        ({"query": "ok", "top_k": 0}, "top_k"),
        ({"query": "ok", "top_k": -3}, "top_k"),
        ({"query": "ok", "top_k": 1001}, "top_k"),
        ({"query": "ok", "top_k": "5"}, "top_k"),
        ({"query": "ok", "user_id": ""}, "user_id"),
        ({"query": "ok", "user_id": 42}, "user_id"),
        ({"query": "ok", "user_id": None}, "user_id"),
        ({"query": "bad\x00query"}, "NUL"),
        ({"query": "ok", "user_id": "u\x001"}, "NUL"),
        ({"query": 123}, "string"),
        ({"query": "ok", "kinds": []}, "kinds"),
        ({"query": "ok", "kinds": ["Not A Kind"]}, "kind"),
        ({"query": "ok", "alpha": 2.0}, "alpha"),
        ({"query": "ok", "fusion": "max"}, "fusion"),
    ],
)
def test_deep_recall_rejects(filled: recall.Memory, kwargs: dict[str, Any], message: str) -> None:
    kwargs = {"user_id": "u1", **kwargs}
    before = snapshot(filled)
    with pytest.raises(InputError, match=message):
        filled.deep_recall(**kwargs)
    assert snapshot(filled) == before


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"text": ""}, "empty"),
        ({"text": "  "}, "empty"),
        ({"text": None}, "string"),
        ({"text": "a\x00b"}, "NUL"),
        ({"text": "ok", "user_id": ""}, "user_id"),
        ({"text": "ok", "user_id": ["u1"]}, "user_id"),
        ({"text": "ok", "kind": "Bad Kind!"}, "kind"),
        ({"text": "ok", "metadata": {"x": object()}}, "JSON"),
        ({"text": "ok", "created_at": "not a date"}, "created_at"),
        ({"text": "x" * 200_001}, "max_text_chars"),
    ],
)
def test_add_rejects(filled: recall.Memory, kwargs: dict[str, Any], message: str) -> None:
    kwargs = {"user_id": "u1", **kwargs}
    before = snapshot(filled)
    with pytest.raises(InputError, match=message):
        filled.add(**kwargs)
    assert snapshot(filled) == before


def test_add_many_is_all_or_nothing(filled: recall.Memory) -> None:
    before = snapshot(filled)
    with pytest.raises(InputError):
        filled.add_many([{"text": "fine"}, {"text": ""}], user_id="u1")
    with pytest.raises(InputError, match="duplicate"):
        filled.add_many([{"text": "a", "id": "x"}, {"text": "b", "id": "x"}], user_id="u1")
    assert snapshot(filled) == before


def test_delete_rejects(filled: recall.Memory) -> None:
    before = snapshot(filled)
    with pytest.raises(InputError):
        filled.delete([""], user_id="u1")
    with pytest.raises(InputError):
        filled.delete(["x"], user_id="")
    assert snapshot(filled) == before


def test_input_error_is_value_error_too() -> None:
    assert issubclass(InputError, ValueError)
