"""``tool_max_top_k`` bounds the deep_recall tool's ``top_k``: the schema a model is shown
and the arguments it may send, through the environment and through ``Settings``."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from subproc import recall_env

import recall
from recall.models import Hit
from recall.tool import args_model, deep_recall_tool, handle_tool_call

_SCHEMA_PATHS = {
    "chat": ("function", "parameters"),
    "responses": ("parameters",),
    "anthropic": ("input_schema",),
}


def _top_k_schema(tool: dict[str, Any], api: str) -> dict[str, Any]:
    schema = tool
    for key in _SCHEMA_PATHS[api]:
        schema = schema[key]
    return dict(schema["properties"]["top_k"])


def _call(arguments: dict[str, Any]) -> dict[str, Any]:
    function = {"name": "deep_recall", "arguments": json.dumps(arguments)}
    return {"id": "call_1", "type": "function", "function": function}


class _Spy:
    def __init__(self) -> None:
        self.top_k: list[int] = []

    def __call__(self, query: str, *, top_k: int, **_: Any) -> Sequence[Hit]:
        assert query
        self.top_k.append(top_k)
        return []


@pytest.mark.parametrize("api", ["chat", "responses", "anthropic"])
def test_the_schema_shows_the_settings_bound(api: Any) -> None:
    top_k = _top_k_schema(deep_recall_tool(recall.Settings(tool_max_top_k=3), api=api), api)
    assert top_k["maximum"] == 3 and top_k["default"] == 3 and "1-3" in top_k["description"]
    default = _top_k_schema(deep_recall_tool(api=api), api)
    assert default["maximum"] == recall.Settings().retrieval.tool_max_top_k


def test_the_constants_are_the_environment_tool() -> None:
    assert deep_recall_tool() == recall.DEEP_RECALL_TOOL
    assert deep_recall_tool(api="responses") == recall.DEEP_RECALL_TOOL_RESPONSES
    assert deep_recall_tool(api="anthropic") == recall.DEEP_RECALL_TOOL_ANTHROPIC
    assert args_model() is recall.DeepRecallArgs


def test_validation_follows_the_settings_bound() -> None:
    settings = recall.Settings(tool_max_top_k=3, default_top_k=5)
    spy = _Spy()
    over = handle_tool_call(spy, _call({"query": "x", "top_k": 4}), settings=settings)
    assert "top_k" in json.loads(over["content"])["error"] and spy.top_k == []
    handle_tool_call(spy, _call({"query": "x", "top_k": 3}), settings=settings)
    handle_tool_call(spy, _call({"query": "x"}), settings=settings)  # default: at most 3
    handle_tool_call(spy, _call({"query": "x"}), settings=recall.Settings(default_top_k=5))
    assert spy.top_k == [3, 3, 5]
    assert args_model(settings) is args_model(recall.Settings(tool_max_top_k=3, default_top_k=5))


def test_memory_answers_with_its_own_bound(tmp_path: Path, embedder: recall.Embedder) -> None:
    settings = recall.Settings(path=tmp_path / "m", vector_partitions=4, tool_max_top_k=3)
    with recall.open(settings=settings) as mem:
        over = mem.handle_tool_call(_call({"query": "cache", "top_k": 4}), user_id="u1")
        assert "top_k" in json.loads(over["content"])["error"]
        fine = mem.handle_tool_call(_call({"query": "cache", "top_k": 3}), user_id="u1")
        assert "error" not in json.loads(fine["content"])


def test_the_environment_variable_bounds_the_tool(tmp_path: Path) -> None:
    code = (
        "import json, recall\n"
        "from recall.tool import handle_tool_call\n"
        "top_k = recall.DEEP_RECALL_TOOL['function']['parameters']['properties']['top_k']\n"
        "call = {'id': 'c', 'type': 'function', 'function': {'name': 'deep_recall', "
        "'arguments': json.dumps({'query': 'x', 'top_k': 4})}}\n"
        "answer = handle_tool_call(lambda q, **kw: [], call)\n"
        "print(json.dumps([top_k['maximum'], json.loads(answer['content']).get('error', '')]))\n"
    )
    env = {**recall_env(tmp_path), "RECALL_TOOL_MAX_TOP_K": "3"}
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    maximum, error = json.loads(done.stdout)
    assert maximum == 3 and "top_k" in error


def test_rest_answers_with_the_memorys_bound(tmp_path: Path) -> None:
    from starlette.testclient import TestClient

    from recall.server import build_app

    settings = recall.Settings(path=tmp_path / "m", vector_partitions=4, tool_max_top_k=3)
    with (
        recall.open(settings=settings) as mem,
        TestClient(
            build_app(mem), client=("127.0.0.1", 40000), base_url="http://localhost"
        ) as client,
    ):
        mem.add("the cache is cold", user_id="u1")
        url = "/v1/users/u1/recall"
        over = client.post(url, json={"query": "cache", "top_k": 4})
        assert over.status_code == 400
        assert "tool_max_top_k" in over.json()["error"]
        assert client.post(url, json={"query": "cache", "top_k": 3}).status_code == 200
        # No top_k: the schema's default (the environment's), kept within this memory's bound.
        settings2 = recall.Settings(path=tmp_path / "m2", vector_partitions=4, tool_max_top_k=1)
        with recall.open(settings=settings2) as small:
            small.add("the cache is warm", user_id="u1")
            app = build_app(small)
            with TestClient(app, client=("127.0.0.1", 40000), base_url="http://localhost") as c:
                answer = c.post(url, json={"query": "cache"})
                assert answer.status_code == 200 and len(answer.json()["hits"]) == 1
