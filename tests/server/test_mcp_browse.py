"""The read-only MCP tools, the annotations of every tool, the use_memory prompt, and a
deep_recall result as compact as handle_tool_call's: with the official ``mcp`` client, in
process and over streamable HTTP (the ASGI app, API keys on)."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import anyio
import httpx2
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

import recall
from recall.server import ApiKeys, AsyncMemory, build_app, build_mcp
from recall.server.mcp_hints import USE_MEMORY
from recall.server.settings import ServerSettings

SMALL = {"short_term_capacity": 2, "promote_count": 2, "vector_partitions": 2}
READ_ONLY = {
    "deep_recall",
    "get_relevant_memories",
    "long_term",
    "browse_records",
    "article_versions",
    "article_diff",
    "explain_recall",
    "profile",
}
DESTRUCTIVE = {"forget", "forget_fact", "edit_fact", "rollback"}


@pytest.fixture
def mem(tmp_path: Path) -> Iterator[recall.Memory]:
    m = recall.open(settings=recall.Settings(path=tmp_path / "memory", **SMALL))
    yield m
    m.close()


def _ok(result: Any) -> dict[str, Any]:
    assert not result.is_error, result.content
    out: dict[str, Any] = result.structured_content
    # The text a model reads is the same JSON, on one line.
    assert json.loads(result.content[0].text) == out and "\n" not in result.content[0].text
    return out


def _error(result: Any) -> str:
    assert result.is_error
    return str(result.content[0].text)


def _article(mem: recall.Memory, user: str) -> None:
    """Three updates, so the first two are promoted into article version 1."""
    for i in range(3):
        turns = [
            {"role": "user", "content": f"I work at Quantix in Toronto. Note {i}."},
            {"role": "user", "content": f"My cat Miso likes the window, day {i}."},
        ]
        mem.update_memory(turns, user_id=user)


def test_a_client_browses_forgets_a_fact_and_reads_the_versions_and_diffs(
    mem: recall.Memory,
) -> None:
    _article(mem, "u1")
    stored = {r.id for r in mem.records("u1")}

    async def run() -> None:
        async with Client(build_mcp(AsyncMemory(mem), default_user="u1", tools="all")) as client:
            seen: list[str] = []
            offset: int | None = 0
            while offset is not None:
                page = _ok(await client.call_tool("browse_records", {"offset": offset, "limit": 4}))
                assert page["total"] == len(stored) and len(page["records"]) <= 4
                seen += [r["id"] for r in page["records"]]
                offset = page["next_offset"]
            assert len(seen) == len(set(seen)) and set(seen) == stored
            said = [r.created_at for r in mem.records("u1")]
            shorts = _ok(await client.call_tool("browse_records", {"kinds": ["short_term"]}))
            assert {r["kind"] for r in shorts["records"]} == {"short_term"}
            day = min(said).date().isoformat()
            today = _ok(await client.call_tool("browse_records", {"since": day, "until": day}))
            assert today["total"] == len(stored)
            after = (max(said) + timedelta(days=1)).date().isoformat()
            later = _ok(await client.call_tool("browse_records", {"since": after}))
            assert later["total"] == 0

            versions = _ok(await client.call_tool("article_versions", {}))
            assert [v["version"] for v in versions["versions"]] == [1]
            done = _ok(await client.call_tool("forget_fact", {"text": "Quantix"}))
            assert done["version"] == 2 and done["scrubbed_versions"] == [1]
            versions = _ok(await client.call_tool("article_versions", {}))
            assert [v["version"] for v in versions["versions"]] == [2, 1]
            article = _ok(await client.call_tool("long_term", {}))
            assert article["version"] == 2 and "Quantix" not in json.dumps(article)
            diff = _ok(await client.call_tool("article_diff", {"old": 1}))
            assert (diff["old"], diff["new"]) == (1, 2)
            assert "Quantix" not in json.dumps(diff)  # the older version was scrubbed too
            _ok(await client.call_tool("edit_fact", {"old": "Miso", "new": "Mochi"}))
            diff = _ok(await client.call_tool("article_diff", {"old": 2, "new": 3}))
            lines = [x for c in diff["chapters"] if c["changed"] for x in c["lines"]]
            assert any(x.startswith("-") and "Miso" in x for x in lines)
            assert any(x.startswith("+") and "Mochi" in x for x in lines)

            explained = _ok(await client.call_tool("explain_recall", {"query": "cat window"}))
            assert set(explained) == {"query", "hits", "floored"} and explained["hits"]
            assert "vector_rank" in explained["hits"][0]

            for tool, args, says in (
                ("browse_records", {"limit": 0}, "limit"),
                ("browse_records", {"until": "9999-12-31"}, "leave until out"),
                ("browse_records", {"since": "last week"}, "ISO 8601"),
                ("browse_records", {"kinds": ["Bad Kind"]}, "kind"),
                ("article_diff", {"old": 9}, "no article version 9"),
                ("article_diff", {"old": 0}, "old"),
                ("explain_recall", {"query": "x", "top_k": 0}, "top_k"),
                ("deep_recall", {"query": "x", "until": "9999-12-31"}, "leave until out"),
                ("browse_records", {"user_id": "u2"}, "serves user 'u1' only"),
                ("article_versions", {"user_id": "u2"}, "serves user 'u1' only"),
                ("article_diff", {"user_id": "u2", "old": 1}, "serves user 'u1' only"),
                ("explain_recall", {"user_id": "u2", "query": "x"}, "serves user 'u1' only"),
            ):
                assert says in _error(await client.call_tool(tool, args)), (tool, args)

    anyio.run(run)


def test_every_tool_is_annotated_and_the_prompt_is_served(mem: recall.Memory) -> None:
    async def run() -> None:
        async with Client(build_mcp(AsyncMemory(mem), default_user="u1", tools="all")) as client:
            tools = {t.name: t for t in (await client.list_tools()).tools}
            assert READ_ONLY | DESTRUCTIVE | {"remember"} == set(tools)
            for name, tool in tools.items():
                hints = tool.annotations
                assert hints is not None, name
                assert hints.open_world_hint is False, name
                assert hints.read_only_hint is (name in READ_ONLY), name
                if name in READ_ONLY:
                    assert hints.idempotent_hint is True, name
                else:
                    assert hints.destructive_hint is (name in DESTRUCTIVE), name
            assert tools["forget"].annotations and tools["forget"].annotations.idempotent_hint
            assert "when the user asks" in (tools["browse_records"].description or "")
            (prompt,) = (await client.list_prompts()).prompts
            assert prompt.name == "use_memory" and "forgetting" in (prompt.description or "")
            got = await client.get_prompt("use_memory")
            (message,) = got.messages
            text = getattr(message.content, "text", "")
            assert message.role == "user" and text == USE_MEMORY
            for name in ("get_relevant_memories", "deep_recall", "remember", "forget_fact",
                         "browse_records", "article_diff", "confirm"):  # fmt: skip
                assert name in text, name

    anyio.run(run)


def test_mcp_deep_recall_is_as_compact_as_handle_tool_call(mem: recall.Memory) -> None:
    start = datetime(2026, 3, 1, tzinfo=UTC)
    mem.add_many(
        [
            {
                "text": f"We weighed Redis against Memcached for the session cache of "
                f"service {i}, and settled it after a long talk about latency and memory.",
                "created_at": start + timedelta(days=i),
            }
            for i in range(12)
        ],
        user_id="u1",
    )
    args = {"query": "session cache Redis Memcached", "top_k": 8}
    call = {"id": "c1", "type": "function",
            "function": {"name": "deep_recall", "arguments": json.dumps(args)}}  # fmt: skip
    content = mem.handle_tool_call(call, user_id="u1")["content"]
    results = json.loads(content)["hits"]
    assert len(results) == 8

    async def run() -> Any:
        async with Client(build_mcp(AsyncMemory(mem), default_user="u1", tools="all")) as client:
            return await client.call_tool("deep_recall", args)

    result = anyio.run(run)
    out = _ok(result)
    assert out == json.loads(content)  # one shape: the same hits, each with the same fields
    tokens = recall.count_tokens(content)
    for text in (result.content[0].text, json.dumps(out, ensure_ascii=False)):
        assert abs(recall.count_tokens(text) - tokens) <= 0.1 * tokens, (tokens, text)


def _say(mem: recall.Memory, user: str, *said: str) -> None:
    """Each of ``said`` as a user turn (and a short answer), one update each."""
    for text in said:
        turns = [{"role": "user", "content": text}, {"role": "assistant", "content": "Noted."}]
        mem.update_memory(turns, user_id=user)


def test_profile_answers_the_librarys_profile_and_keeps_the_pin(mem: recall.Memory) -> None:
    _say(mem, "u1", "I live in Lisbon and I work at Quantix.", "I live in Porto now.")
    _say(mem, "u2", "I live in Oslo and my gym is Iron Temple.")
    expected = mem.profile("u1")
    assert expected.facts, "the user's own words set no attribute"

    async def run() -> None:
        async with Client(build_mcp(AsyncMemory(mem), default_user="u1", tools="all")) as client:
            tools = {t.name: t for t in (await client.list_tools()).tools}
            description = tools["profile"].description or ""
            assert description.count(". ") == 0 and len(description) < 120  # one short sentence
            got = _ok(await client.call_tool("profile", {}))
            assert got == expected.model_dump(mode="json")
            now = {a: h[-1]["value"] for a, h in got["facts"].items()}
            assert now == {a: f.value for a, f in expected.now().items()}
            same = _ok(await client.call_tool("profile", {"user_id": "u1"}))
            assert same == got
            denied = _error(await client.call_tool("profile", {"user_id": "u2"}))
            assert "serves user 'u1' only" in denied and "Oslo" not in denied
        async with Client(
            build_mcp(AsyncMemory(mem), tools="all")
        ) as client:  # not pinned: any user
            other = _ok(await client.call_tool("profile", {"user_id": "u2"}))
            assert other == mem.profile("u2").model_dump(mode="json")
            empty = _ok(await client.call_tool("profile", {"user_id": "nobody"}))
            assert empty == {"user_id": "nobody", "facts": {}}
            assert "user_id is required" in _error(await client.call_tool("profile", {}))

    anyio.run(run)


@asynccontextmanager
async def _http_client(mem: recall.Memory, key: str) -> AsyncIterator[Client]:
    """The official client over streamable HTTP to the app in process, with ``key``."""
    every = ServerSettings().model_copy(update={"tools": "all"})
    app = build_app(mem, keys=ApiKeys([("acme-key-0123456789", "acme")]), settings=every)
    transport = httpx2.ASGITransport(app=app)
    headers = {"authorization": f"Bearer {key}"}
    async with (
        app.router.lifespan_context(app),  # MCP's session manager runs in it
        httpx2.AsyncClient(
            transport=transport, base_url="http://localhost", headers=headers
        ) as http,
        Client(streamable_http_client("http://localhost/mcp", http_client=http)) as client,
    ):
        yield client


def test_the_views_over_http_check_the_tenant(mem: recall.Memory) -> None:
    mem.add("acme's note about the garden", user_id="acme:bob")
    mem.add("beta's secret about the garden", user_id="beta:eve")
    _say(mem, "beta:eve", "I live in the secret garden of Nightjar.")

    async def run() -> None:
        async with _http_client(mem, "acme-key-0123456789") as client:
            mine = _ok(await client.call_tool("browse_records", {"user_id": "acme:bob"}))
            assert [r["text"] for r in mine["records"]] == ["acme's note about the garden"]
            own = _ok(await client.call_tool("profile", {"user_id": "acme:bob"}))
            assert own == mem.profile("acme:bob").model_dump(mode="json")
            for tool, args in (
                ("browse_records", {}),
                ("article_versions", {}),
                ("article_diff", {"old": 1}),
                ("explain_recall", {"query": "garden"}),
                ("profile", {}),
            ):
                denied = _error(await client.call_tool(tool, {**args, "user_id": "beta:eve"}))
                assert "tenant 'acme'" in denied and "secret" not in denied, tool

    anyio.run(run)
