"""The MCP tools a model is shown (issue 36, item 2): the lean default set, one language
per schema, no ``user_id`` on a pinned server, every input schema strict-compatible, and
one result shape (``hits``) for every face. The real MCP client against the server in
process, and ``recall serve``'s options down to the server it builds."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path
from typing import Any

import anyio
import pytest
from agents.strict_schema import ensure_strict_json_schema
from click.testing import CliRunner
from mcp import Client
from mcp_types import CallToolResult, TextContent, Tool

import recall
import recall.server
from recall.cli import main
from recall.server import AsyncMemory, build_mcp
from recall.server.app import serve_loading
from recall.server.mcp_hints import AGENT_TOOLS, instructions, use_memory
from recall.server.settings import ServerSettings

AGENT = {"deep_recall", "remember", "forget"}
ALL = AGENT | {
    "get_relevant_memories",
    "long_term",
    "forget_fact",
    "edit_fact",
    "rollback",
    "browse_records",
    "article_versions",
    "article_diff",
    "explain_recall",
    "profile",
}
CONFIGS = [
    (tools, lang, pin)
    for tools in ("agent", "all")
    for lang in ("en", "zh")
    for pin in (None, "u1")
]
_CJK = re.compile(r"[\u4e00-\u9fff]")


def _listed(mem: recall.Memory, **options: Any) -> list[Tool]:
    async def run() -> list[Tool]:
        async with Client(build_mcp(AsyncMemory(mem), **options)) as client:
            return (await client.list_tools()).tools

    return anyio.run(run)


def _strict(schema: dict[str, Any]) -> dict[str, Any]:
    # As the Agents SDK converts an MCP tool's schema (agents.mcp.util): open objects refused.
    return ensure_strict_json_schema(copy.deepcopy(schema), _reject_open_objects=True)


def _descriptions(schema: dict[str, Any]) -> list[str]:
    """Every argument's description, nested ones too."""
    found = [schema["description"]] if "description" in schema else []
    for prop in schema.get("properties", {}).values():
        found += _descriptions(prop)
    for branch in (schema.get("items"), *schema.get("anyOf", ())):
        if isinstance(branch, dict):
            found += _descriptions(branch)
    return found


def _text(result: CallToolResult) -> str:
    content = result.content[0]
    assert isinstance(content, TextContent)
    return content.text


def test_the_default_set_is_the_agents_three(mem: recall.Memory) -> None:
    assert {t.name for t in _listed(mem)} == AGENT == set(AGENT_TOOLS)
    assert {t.name for t in _listed(mem, tools="all")} == ALL


@pytest.mark.parametrize(("tools", "lang", "pin"), CONFIGS)
def test_every_schema_is_strict_compatible(
    mem: recall.Memory, tools: str, lang: str, pin: str | None
) -> None:
    listed = _listed(mem, tools=tools, lang=lang, default_user=pin)
    assert {t.name for t in listed} == (AGENT if tools == "agent" else ALL)
    for tool in listed:
        strict = _strict(tool.input_schema)
        assert strict["additionalProperties"] is False, tool.name
        # A pinned server does not advertise user_id; one serving many users asks for it.
        assert ("user_id" in strict["properties"]) == (pin is None), tool.name


def test_remember_takes_closed_messages(mem: recall.Memory) -> None:
    (remember,) = [t for t in _listed(mem) if t.name == "remember"]
    messages = remember.input_schema["properties"]["messages"]["anyOf"][0]
    item = messages["items"]
    assert item["additionalProperties"] is False and item["required"] == ["role", "content"]
    assert set(item["properties"]["role"]["enum"]) == {"user", "assistant", "system", "tool"}
    # The open list of objects it was is what the strict conversion refuses.
    opened = copy.deepcopy(remember.input_schema)
    opened["properties"]["messages"]["anyOf"][0]["items"] = {"type": "object"}
    with pytest.raises(Exception, match="undeclared properties"):
        _strict(opened)


@pytest.mark.parametrize("tools", ["agent", "all"])
def test_one_language_per_schema(mem: recall.Memory, tools: str) -> None:
    for lang in ("en", "zh"):
        for tool in _listed(mem, tools=tools, lang=lang):
            texts = [tool.description or "", *_descriptions(tool.input_schema)]
            for text in texts:
                # zh: Chinese in every text; en: no Chinese anywhere (not both languages).
                assert bool(_CJK.search(text)) == (lang == "zh"), (tool.name, text)
    for lang in ("en", "zh"):
        for text in (instructions(tools, lang), use_memory(tools, lang)):  # type: ignore[arg-type]
            assert bool(_CJK.search(text)) == (lang == "zh")


@pytest.mark.parametrize("tools", ["agent", "all"])
def test_the_instructions_name_only_the_tools_served(tools: str) -> None:
    served = AGENT if tools == "agent" else ALL
    for lang in ("en", "zh"):
        for text in (instructions(tools, lang), use_memory(tools, lang)):  # type: ignore[arg-type]
            named = {name for name in ALL if re.search(rf"\b{name}\b", text)}
            assert named <= served and "deep_recall" in named, (tools, lang, named - served)


def test_a_pinned_server_acts_on_its_user(mem: recall.Memory) -> None:
    mem.add("u2's note: the door code is 4471.", user_id="u2")
    said = [
        {"role": "user", "content": "I moved to Lisbon last month."},
        {"role": "assistant", "content": "Noted: you live in Lisbon now."},
    ]

    async def run() -> None:
        async with Client(build_mcp(AsyncMemory(mem), default_user="u1")) as client:
            done = await client.call_tool("remember", {"messages": said})
            assert not done.is_error, done.content
            found = await client.call_tool("deep_recall", {"query": "door code"})
            assert "4471" not in _text(found)  # u2's memory is not u1's
            # A user_id sent anyway, naming another user, is refused (not silently u1's).
            other = await client.call_tool("deep_recall", {"query": "door", "user_id": "u2"})
            assert other.is_error and "serves user 'u1' only" in _text(other)
            # A message the schema does not allow (an open object) is refused too.
            extra = [{"role": "user", "content": "hi", "name": "x"}]
            bad = await client.call_tool("remember", {"messages": extra})
            assert bad.is_error

    anyio.run(run)
    assert mem.short_term("u1") and not mem.short_term("u2")
    assert any("Lisbon" in r.text for r in mem.short_term("u1"))


def test_handle_tool_call_answers_hits(mem: recall.Memory) -> None:
    rid = mem.add("We chose Redis for the session cache.", user_id="u1")
    call = {
        "id": "c1",
        "type": "function",
        "function": {"name": "deep_recall", "arguments": '{"query": "cache"}'},
    }
    content = json.loads(mem.handle_tool_call(call, user_id="u1")["content"])
    assert "results" not in content and [h["id"] for h in content["hits"]] == [rid]


def test_the_library_tool_speaks_one_language_when_asked() -> None:
    both = recall.tool.deep_recall_tool()["function"]
    zh = recall.tool.deep_recall_tool(lang="zh")["function"]
    en = recall.tool.deep_recall_tool(lang="en")["function"]
    assert _CJK.search(both["description"]) and "explicitly asks" in both["description"]
    assert both == recall.DEEP_RECALL_TOOL["function"]
    assert not _CJK.search(json.dumps(en, ensure_ascii=False))
    assert all(_CJK.search(t) for t in [zh["description"], *_descriptions(zh["parameters"])])


def test_the_served_set_and_language_come_from_the_settings(tmp_path: Path) -> None:
    settings = recall.Settings(path=tmp_path / "m", vector_partitions=4)
    server = ServerSettings(tools="all", lang="zh")
    listed: list[Tool] = []

    async def run(server: Any) -> None:
        async with Client(server) as client:
            listed.extend((await client.list_tools()).tools)

    async def main_() -> None:
        with recall.open(settings=settings) as mem:
            await serve_loading(AsyncMemory(mem), run, settings=server)

    anyio.run(main_)
    assert {t.name for t in listed} == ALL
    assert all(_CJK.search(t.description or "") for t in listed)


def test_recall_serve_passes_tools_and_lang(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[tuple[str, str]] = []

    def fake_stdio(
        memory: recall.Memory,
        *,
        default_user: str | None = None,
        early: object = None,
        settings: ServerSettings | None = None,
    ) -> None:
        assert settings is not None
        seen.append((settings.tools, settings.lang))

    monkeypatch.setattr(recall.server, "serve_stdio", fake_stdio)
    path = str(tmp_path / "m")
    runner = CliRunner()
    for args, want in (([], ("agent", "en")), (["--tools", "all", "--lang", "zh"], ("all", "zh"))):
        done = runner.invoke(main, ["serve", "--path", path, *args])
        assert done.exit_code == 0, done.output
        assert seen.pop() == want
    refused = runner.invoke(main, ["serve", "--path", path, "--tools", "some"])
    assert refused.exit_code == 2 and "'agent', 'all'" in refused.output
