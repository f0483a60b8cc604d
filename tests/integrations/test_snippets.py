"""The agent guide's snippets (docs/agents.md: the OpenAI Agents SDK, LangGraph) run as
written, against a real memory, the real frameworks and the real openai client; only the
model is replaced, by a loopback server that speaks the Chat Completions wire protocol
(tests/chat_server.py)."""

from __future__ import annotations

import ast
import asyncio
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import agents
import pytest
from chat_server import ChatServer, running

import recall

GUIDE = Path(__file__).resolve().parents[2] / "docs" / "agents.md"
CACHE = "We chose Redis for the session cache because it expires keys on its own."
OTHER = "We chose Memcached for the session cache."  # another user's: never recalled
ANSWER = "You picked Redis: it expires keys on its own."


def _snippet(marker: str) -> str:
    blocks = re.findall(r"```python\n(.*?)```", GUIDE.read_text(encoding="utf-8"), re.S)
    [block] = [str(b) for b in blocks if marker in b]
    return block


def _run(source: str, namespace: dict[str, Any]) -> None:
    """Run a snippet as a notebook or an async host would: top-level ``await`` allowed."""
    code = compile(source, str(GUIDE), "exec", flags=ast.PyCF_ALLOW_TOP_LEVEL_AWAIT)
    pending = eval(code, namespace)  # the guide's own code, as written
    if pending is not None:
        asyncio.run(pending)


@pytest.fixture
def model(monkeypatch: pytest.MonkeyPatch) -> Iterator[ChatServer]:
    """The model: it calls deep_recall once, then answers. Nothing leaves the machine."""
    with running() as srv:
        srv.script = [
            {
                "tool_calls": [
                    {
                        "id": "call_1",
                        "type": "function",
                        "function": {
                            "name": "deep_recall",
                            "arguments": json.dumps({"query": "session cache"}),
                        },
                    }
                ]
            },
            ANSWER,
        ]
        monkeypatch.setenv("OPENAI_API_KEY", "test-key")
        monkeypatch.setenv("OPENAI_BASE_URL", srv.url)
        for name in ("LANGSMITH_TRACING", "LANGCHAIN_TRACING_V2", "LANGSMITH_API_KEY"):
            monkeypatch.delenv(name, raising=False)
        yield srv


@pytest.fixture
def filled(mem: recall.Memory) -> recall.Memory:
    mem.add(CACHE, user_id="u1", id="cache")
    mem.add("Lunch on Fridays is at the Thai place.", user_id="u1", id="lunch")
    mem.add(OTHER, user_id="u2", id="other")
    return mem


def _tool_result(srv: ChatServer) -> str:
    """What the host sent back to the model as the deep_recall result."""
    assert len(srv.requests) == 2
    [tool] = [m for m in srv.requests[1]["messages"] if m["role"] == "tool"]
    assert tool["tool_call_id"] == "call_1"
    content = tool["content"]
    return content if isinstance(content, str) else json.dumps(content)


def test_openai_agents_sdk_snippet(filled: recall.Memory, model: ChatServer) -> None:
    agents.set_tracing_disabled(True)  # the SDK would otherwise export traces to OpenAI
    agents.set_default_openai_api("chat_completions")  # what the loopback model speaks
    try:
        namespace: dict[str, Any] = {"mem": filled}
        _run(_snippet("from agents import"), namespace)
    finally:
        agents.set_default_openai_api("responses")
    assert namespace["result"].final_output == ANSWER
    [tool] = model.requests[0]["tools"]
    assert tool["function"]["name"] == "deep_recall"
    assert tool["function"]["description"] == recall.DEEP_RECALL_TOOL_RESPONSES["description"]
    recalled = json.loads(_tool_result(model))
    assert CACHE in json.dumps(recalled, ensure_ascii=False)
    assert OTHER not in json.dumps(recalled, ensure_ascii=False)


@pytest.mark.slow
def test_langgraph_snippet(filled: recall.Memory, model: ChatServer) -> None:
    namespace: dict[str, Any] = {"mem": filled}
    _run(_snippet("from langgraph"), namespace)
    messages = namespace["out"]["messages"]
    assert messages[-1].content == ANSWER
    assert [m.type for m in messages] == ["human", "ai", "tool", "ai"]
    [tool] = model.requests[0]["tools"]
    assert tool["function"]["name"] == "deep_recall"
    assert "explicitly asks you to remember" in tool["function"]["description"]
    recalled = _tool_result(model)
    assert CACHE in recalled and OTHER not in recalled
