"""Model-controlled tool input never raises: whatever the arguments, a readable message.

A misbehaving model writes the arguments of its tool calls; the host's tool loop must get
a tool message back, never an exception (RecursionError, ValueError, UnicodeDecodeError).
"""

from __future__ import annotations

import json
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from recall.lifecycle.answer import parse_answer_with_summary
from recall.models import Hit
from recall.tool import handle_tool_call


def _search(
    query: str,
    *,
    top_k: int,
    depth: str | None = None,
    since: str | None = None,
    until: str | None = None,
) -> Sequence[Hit]:
    return []


def _call(arguments: object) -> dict[str, object]:
    return {
        "id": "c1",
        "type": "function",
        "function": {"name": "deep_recall", "arguments": arguments},
    }


@pytest.mark.parametrize(
    "arguments",
    [
        '{"query": "x", "top_k": ' + "1" * 5000 + "}",  # past Python's int-string limit
        "[" * 100_000 + "]" * 100_000,  # deeper than the JSON decoder recurses
        b'\xff\xfe{"query"}',  # not UTF-8 (read as UTF-16, truncated)
        b"\x80\x81",
        '{"query": "a\\ud800b"}',  # a lone surrogate
        "",
        "null",
        '"just a string"',
    ],
)
def test_hostile_arguments_come_back_as_an_error_message(arguments: object) -> None:
    message = handle_tool_call(_search, _call(arguments))
    body = json.loads(str(message["content"]))
    assert message["role"] == "tool" and message["tool_call_id"] == "c1"
    assert "error" in body or body.get("hits") == []


@settings(max_examples=150, deadline=None)
@given(
    st.one_of(
        st.text(max_size=200),
        st.binary(max_size=200),
        st.recursive(
            st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
            lambda inner: (
                st.lists(inner, max_size=4)
                | st.dictionaries(st.text(max_size=8), inner, max_size=4)
            ),
            max_leaves=20,
        ),
    )
)
def test_any_arguments_give_a_tool_message(arguments: object) -> None:
    message = handle_tool_call(_search, _call(arguments))
    assert message["role"] == "tool"
    json.loads(str(message["content"]))


def test_a_reply_nested_too_deep_degrades_to_plain_text() -> None:
    reply = parse_answer_with_summary("[" * 100_000)
    assert not reply.parsed and reply.answer.startswith("[[[")
