"""The public API under hostile input: only RecallError escapes, and a rejected call
changes nothing.

Every argument of ``add``, ``add_many``, ``delete``, ``deep_recall``, ``update_memory``,
``get_relevant_memories``, ``long_term`` and ``open`` is drawn from arbitrary values: JSON
trees, bytes, lone surrogates, NUL bytes, huge and non-finite numbers, structures nested
thousands deep, integers over 4,300 digits. A call either
succeeds or raises a :class:`~recall.errors.RecallError` subclass; when it raises, the
store's whole content (every row of every table) is what it was before the call.
"""

from __future__ import annotations

import hashlib
import sqlite3
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import recall
from recall.errors import RecallError
from recall.testing import HashEmbedder

# Text with what breaks encoders: lone surrogates, NUL, astral and CJK characters.
_text = st.text(alphabet=st.characters(codec=None, exclude_categories=()), max_size=40)
_scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**80), max_value=2**80)
    | st.floats()
    | _text
    | st.binary(max_size=20)
    | st.sampled_from(["note", "short_term", "recent", "archive", "u1", "x" * 300, ""])
)


def _nest(depth: int) -> Any:
    value: Any = "leaf"
    for i in range(depth):
        value = [value] if i % 2 else {"k": value}
    return value


# What parsers and serializers choke on: nesting past any recursion limit, and integers
# past Python's 4,300-digit str() limit (their repr raises, so a message quoting one fails).
_hostile = st.integers(min_value=9, max_value=3000).map(_nest) | st.sampled_from([1, -1]).map(
    lambda sign: sign * 10**4400
)
_values = st.recursive(
    _scalars | _hostile,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(_text, inner, max_size=4),
    max_leaves=12,
)
# Records that look almost right, so that validation deep inside is reached too.
_items = st.lists(
    st.fixed_dictionaries(
        {"text": _values | _text},
        optional={"kind": _values, "id": _values, "metadata": _values, "created_at": _values},
    )
    | _values,
    max_size=3,
)
_settings = settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


def _snapshot(path: Path) -> str:
    """A hash of every row of every table (WAL frames included: a new connection reads them)."""
    db = sqlite3.connect(path / "recall.sqlite3")
    try:
        return hashlib.sha256("\n".join(db.iterdump()).encode("utf-8", "replace")).hexdigest()
    finally:
        db.close()


@pytest.fixture(scope="module")
def fuzz_mem(tmp_path_factory: pytest.TempPathFactory) -> Iterator[recall.Memory]:
    folder = tmp_path_factory.mktemp("fuzz") / "memory"
    m = recall.open(
        settings=recall.Settings(path=folder, vector_partitions=2), embedder=HashEmbedder()
    )
    m.add("the heron stands in the shallow water", user_id="u1")
    yield m
    m.close()


def _check(mem: recall.Memory, call: Callable[[], Any]) -> None:
    before = _snapshot(mem.path)
    try:
        call()
    except RecallError:
        assert _snapshot(mem.path) == before, "a rejected call changed the store"
    # Anything else propagates and fails the test with its traceback.


@_settings
@given(text=_values | _text, user_id=_values | _text, kind=_values, id=_values, meta=_values)
def test_add(
    fuzz_mem: recall.Memory, text: Any, user_id: Any, kind: Any, id: Any, meta: Any
) -> None:
    _check(fuzz_mem, lambda: fuzz_mem.add(text, user_id=user_id, kind=kind, id=id, metadata=meta))


@_settings
@given(items=_items | _values, user_id=_values)
def test_add_many(fuzz_mem: recall.Memory, items: Any, user_id: Any) -> None:
    _check(fuzz_mem, lambda: fuzz_mem.add_many(items, user_id=user_id))


@_settings
@given(ids=_values, user_id=_values)
def test_delete(fuzz_mem: recall.Memory, ids: Any, user_id: Any) -> None:
    _check(fuzz_mem, lambda: fuzz_mem.delete(ids, user_id=user_id))


@_settings
@given(
    query=_values | _text,
    user_id=_values,
    top_k=_values,
    kinds=_values,
    alpha=_values,
    fusion=_values,
    depth=_values,
)
def test_deep_recall(fuzz_mem: recall.Memory, **kwargs: Any) -> None:
    query = kwargs.pop("query")
    _check(fuzz_mem, lambda: fuzz_mem.deep_recall(query, **kwargs))


@_settings
@given(states=_values | _items, user_id=_values, background=_values, at=_values)
def test_update_memory(fuzz_mem: recall.Memory, states: Any, user_id: Any, **kw: Any) -> None:
    _check(fuzz_mem, lambda: fuzz_mem.update_memory(states, user_id=user_id, **kw))


@_settings
@given(user_input=_values | _text, user_id=_values, max_tokens=_values)
def test_get_relevant_memories(
    fuzz_mem: recall.Memory, user_input: Any, user_id: Any, max_tokens: Any
) -> None:
    _check(
        fuzz_mem,
        lambda: fuzz_mem.get_relevant_memories(user_input, user_id=user_id, max_tokens=max_tokens),
    )


@_settings
@given(user_id=_values, version=_values)
def test_long_term(fuzz_mem: recall.Memory, user_id: Any, version: Any) -> None:
    _check(fuzz_mem, lambda: fuzz_mem.long_term(user_id, version))


@settings(max_examples=40, deadline=None)
@given(path=_values | _text, chroma_url=_values, settings_arg=_values)
def test_open(tmp_path_factory: pytest.TempPathFactory, **kwargs: Any) -> None:
    """open() with arbitrary arguments: a RecallError, or a folder that is then closed."""
    cwd_before = sorted(p.name for p in Path.cwd().iterdir())
    path = kwargs.pop("path")
    if path is None:  # the default, ./memory, is documented to be the current directory's
        path = tmp_path_factory.mktemp("open") / "memory"
    elif isinstance(path, str) and path.strip() and "\x00" not in path:
        path = tmp_path_factory.mktemp("open") / path.strip().replace("/", "_")[:50]
    try:
        m = recall.open(path, chroma_url=kwargs["chroma_url"], settings=kwargs["settings_arg"])
    except RecallError:
        pass
    else:
        m.close()
    assert sorted(p.name for p in Path.cwd().iterdir()) == cwd_before, "open wrote into cwd"
