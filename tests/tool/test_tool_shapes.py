"""One tool, three APIs: Chat Completions, Responses (Agents SDK) and Anthropic shapes."""

from __future__ import annotations

import json
from typing import Any

import pytest
from openai.types.chat import ChatCompletionMessageToolCall
from openai.types.responses import ResponseFunctionToolCall

import recall
from recall.tool import DEEP_RECALL_TOOL_ANTHROPIC, DEEP_RECALL_TOOL_RESPONSES
from recall.tool_shapes import parse_call


def test_one_schema_yields_the_three_tool_definitions() -> None:
    chat = recall.DEEP_RECALL_TOOL["function"]
    responses, anthropic = DEEP_RECALL_TOOL_RESPONSES, DEEP_RECALL_TOOL_ANTHROPIC
    assert chat["parameters"] == responses["parameters"] == anthropic["input_schema"]
    assert chat["parameters"] == recall.DEEP_RECALL_TOOL["function"]["parameters"]
    assert chat["name"] == responses["name"] == anthropic["name"] == "deep_recall"
    assert chat["description"] == responses["description"] == anthropic["description"]
    assert set(anthropic) == {"name", "description", "input_schema"}
    assert responses["type"] == "function" and responses["strict"] is False
    assert chat["parameters"]["required"] == ["query"]


@pytest.fixture
def remembered(mem: recall.Memory) -> recall.Memory:
    mem.add("We chose Redis for the session cache.", user_id="u1", id="redis")
    mem.add("The deploy runs on Fridays.", user_id="u1", id="deploy")
    return mem


def _content(result: dict[str, Any], key: str) -> dict[str, Any]:
    out: dict[str, Any] = json.loads(result[key])
    return out


def test_chat_completions_call_from_the_openai_sdk(remembered: recall.Memory) -> None:
    call = ChatCompletionMessageToolCall.model_validate(
        {
            "id": "call_1",
            "type": "function",
            "function": {"name": "deep_recall", "arguments": '{"query": "cache", "top_k": 1}'},
        }
    )
    result = remembered.handle_tool_call(call, user_id="u1")
    assert set(result) == {"role", "tool_call_id", "content"}
    assert (result["role"], result["tool_call_id"]) == ("tool", "call_1")
    assert [h["id"] for h in _content(result, "content")["hits"]] == ["redis"]


def test_responses_function_call_item_from_the_openai_sdk(remembered: recall.Memory) -> None:
    item = ResponseFunctionToolCall(
        type="function_call",
        id="fc_9",
        call_id="call_9",
        name="deep_recall",
        arguments='{"query": "when do we deploy", "top_k": 1}',
    )
    result = remembered.handle_tool_call(item, user_id="u1")
    assert result["type"] == "function_call_output" and result["call_id"] == "call_9"
    assert set(result) == {"type", "call_id", "output"}
    assert [h["id"] for h in _content(result, "output")["hits"]] == ["deploy"]
    # Its dict form (what the Agents SDK and raw HTTP hand over) answers the same.
    assert remembered.handle_tool_call(item.model_dump(), user_id="u1") == result


def test_anthropic_tool_use_block(remembered: recall.Memory) -> None:
    block = {
        "type": "tool_use",
        "id": "toolu_01",
        "name": "deep_recall",
        "input": {"query": "cache", "top_k": 1},
    }
    result = remembered.handle_tool_call(block, user_id="u1")
    assert result["type"] == "tool_result" and result["tool_use_id"] == "toolu_01"
    assert "is_error" not in result
    assert [h["id"] for h in _content(result, "content")["hits"]] == ["redis"]


@pytest.mark.parametrize(
    ("call", "key", "flag"),
    [
        (
            {"type": "tool_use", "id": "t", "name": "search", "input": {"query": "x"}},
            "content",
            True,
        ),
        (
            {"type": "function_call", "call_id": "c", "name": "search", "arguments": "{}"},
            "output",
            False,
        ),
    ],
)
def test_a_wrong_tool_is_answered_in_the_callers_shape(
    mem: recall.Memory, call: dict[str, Any], key: str, flag: bool
) -> None:
    result = mem.handle_tool_call(call, user_id="u1")
    assert "unknown tool 'search'" in _content(result, key)["error"]
    assert result.get("is_error", False) is flag


def test_bad_arguments_in_each_shape_come_back_to_the_model(mem: recall.Memory) -> None:
    bad_json = {"type": "function_call", "call_id": "c", "name": "deep_recall", "arguments": "{"}
    assert (
        "not valid JSON"
        in _content(mem.handle_tool_call(bad_json, user_id="u1"), "output")["error"]
    )
    no_query = {"type": "tool_use", "id": "t", "name": "deep_recall", "input": {"top_k": 3}}
    result = mem.handle_tool_call(no_query, user_id="u1")
    assert result["is_error"] is True
    assert "query" in _content(result, "content")["error"]


def test_parse_call_reads_each_shape() -> None:
    assert (
        parse_call({"type": "tool_use", "id": "a", "name": "n", "input": {}}).shape == "anthropic"
    )
    assert parse_call({"type": "function_call", "call_id": "b", "name": "n"}).call_id == "b"
    chat = parse_call({"id": "c", "type": "function", "function": {"name": "n", "arguments": "{}"}})
    assert (chat.shape, chat.call_id, chat.name, chat.arguments) == ("chat", "c", "n", "{}")
    assert parse_call({}).name is None  # nothing to read: the caller words the error
