"""The deep_recall tool: schema, dispatcher (dict and openai objects), trigger phrases."""

from __future__ import annotations

import json
from typing import Any

import pytest
from openai.types.chat import ChatCompletionMessageFunctionToolCall
from openai.types.chat.chat_completion_message_function_tool_call import Function

import recall
from recall import DEEP_RECALL_TOOL, InputError, wants_deep_recall


def call(arguments: str, name: str = "deep_recall") -> dict[str, Any]:
    return {"id": "call_1", "type": "function", "function": {"name": name, "arguments": arguments}}


def test_schema_is_openai_tools_format() -> None:
    fn = DEEP_RECALL_TOOL["function"]
    assert DEEP_RECALL_TOOL["type"] == "function" and fn["name"] == "deep_recall"
    params = fn["parameters"]
    assert params["type"] == "object" and params["required"] == ["query"]
    assert set(params["properties"]) == {"query", "top_k", "depth", "since", "until"}
    assert params["additionalProperties"] is False
    # Bilingual instructions: call only on explicit request or own proposal.
    assert "try to remember" in fn["description"] and "帮我回忆一下" in fn["description"]
    json.dumps(DEEP_RECALL_TOOL)  # serializable as is


def test_handle_dict_tool_call(mem: recall.Memory) -> None:
    a = mem.add("We chose Redis for the session cache.", user_id="u1")
    msg = mem.handle_tool_call(call('{"query": "cache choice", "top_k": 2}'), user_id="u1")
    assert msg["role"] == "tool" and msg["tool_call_id"] == "call_1"
    content = json.loads(msg["content"])
    assert content["hits"][0]["id"] == a and content["query"] == "cache choice"


def test_handle_openai_object(mem: recall.Memory) -> None:
    mem.add("我们决定下个月去北京旅行", user_id="u1")
    obj = ChatCompletionMessageFunctionToolCall(
        id="call_9",
        type="function",
        function=Function(name="deep_recall", arguments='{"query": "北京"}'),
    )
    msg = mem.handle_tool_call(obj, user_id="u1")
    assert msg["tool_call_id"] == "call_9"
    assert "北京" in json.loads(msg["content"])["hits"][0]["text"]


@pytest.mark.parametrize(
    ("arguments", "needle"),
    [
        ("{not json", "not valid JSON"),
        ('{"top_k": 3}', "query"),
        ('{"query": ""}', "query"),
        ('{"query": "x", "top_k": 0}', "top_k"),
        ('{"query": "x", "top_k": 500}', "top_k"),
        ('{"query": "x", "extra": 1}', "extra"),
        ('{"query": "   "}', "empty"),
        ("[1, 2]", "invalid arguments"),
    ],
)
def test_malformed_arguments_come_back_as_tool_message(
    mem: recall.Memory, arguments: str, needle: str
) -> None:
    before = mem._store.counts()
    msg = mem.handle_tool_call(call(arguments), user_id="u1")
    assert msg["role"] == "tool"
    assert needle in json.loads(msg["content"])["error"]
    assert mem._store.counts() == before


def test_unknown_tool_name(mem: recall.Memory) -> None:
    msg = mem.handle_tool_call(call('{"query": "x"}', name="web_search"), user_id="u1")
    assert "unknown tool" in json.loads(msg["content"])["error"]


def test_bad_user_id_is_host_error(mem: recall.Memory) -> None:
    with pytest.raises(InputError):
        mem.handle_tool_call(call('{"query": "x"}'), user_id="")


@pytest.mark.parametrize(
    "text",
    [
        "你仔细想想，我们上次定的方案是什么？",
        "帮我回忆一下上次的方案",
        "你还记得我的狗叫什么吗",
        "Try to remember what we decided about the cache",
        "Do you remember my dog's name?",
        "can you recall the deployment plan",
        "Think back to our March discussion",
    ],
)
def test_triggers(text: str) -> None:
    assert wants_deep_recall(text)


@pytest.mark.parametrize(
    "text", ["What's the weather today?", "写一个排序函数", "Remember to buy milk", "", "记录一下"]
)
def test_not_triggers(text: str) -> None:
    assert not wants_deep_recall(text)


def test_the_query_bound_follows_max_query_chars(tmp_path: Any) -> None:
    # Issue 34: raising max_query_chars must raise the tool schema's bound with it.
    from recall.tool import args_model, deep_recall_tool

    assert DEEP_RECALL_TOOL["function"]["parameters"]["properties"]["query"]["maxLength"] == (
        recall.Settings().retrieval.max_query_chars
    )
    wide = recall.Settings(path=tmp_path / "m", vector_partitions=2, max_query_chars=20_000)
    schema = deep_recall_tool(wide)["function"]["parameters"]["properties"]["query"]
    assert schema["maxLength"] == 20_000
    long = "cache " * 2_000  # 12,000 characters
    assert args_model(wide).model_validate({"query": long}).query == long
    with recall.open(settings=wide) as mem:
        mem.add("We chose Redis for the session cache.", user_id="u1")
        msg = mem.handle_tool_call(call(json.dumps({"query": long})), user_id="u1")
        assert json.loads(msg["content"])["query"] == long
    narrow = recall.Settings(path=tmp_path / "n", vector_partitions=2, max_query_chars=100)
    with pytest.raises(ValueError):
        args_model(narrow).model_validate({"query": "x" * 101})
