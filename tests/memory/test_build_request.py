"""One request object (issue 34 item 2): ``Memory.build_request`` checks a search once, as
httpx's ``Client.build_request()`` does, and ``deep_recall``/``explain`` run it; the
keyword form keeps working and gives the same hits; the bounds live in one place, and
every face (the library, the tool's schema, the CLI) follows the settings."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest
from click.testing import CliRunner

import recall
from recall.cli import main
from recall.tool import deep_recall_tool

NOW = datetime(2026, 3, 18, 15, 0, tzinfo=UTC)
SAID = [
    ("redis", "We picked Redis for the session cache.", datetime(2026, 1, 10, tzinfo=UTC)),
    ("memcached", "We moved the session cache to Memcached.", datetime(2026, 3, 10, tzinfo=UTC)),
    ("rust", "I started learning Rust with the async book.", datetime(2026, 3, 16, tzinfo=UTC)),
    ("dinner", "Dinner with Ana on Friday at the Thai place.", datetime(2026, 3, 17, tzinfo=UTC)),
]


@pytest.fixture
def filled(tmp_path: Path) -> recall.Memory:
    mem = recall.open(tmp_path / "m")
    mem.add_many([{"id": i, "text": t, "created_at": at} for i, t, at in SAID], user_id="u1")
    return mem


def _ids(hits: list[recall.Hit]) -> list[str]:
    return [h.id for h in hits]


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"top_k": 2},
        {"depth": "recent"},
        {"kinds": ["note"], "since": "2026-03-01"},
        {"until": "2026-03-12", "now": NOW},
    ],
)
def test_a_built_request_gives_the_keyword_forms_hits(
    filled: recall.Memory, options: dict[str, object]
) -> None:
    query = "what did we decide about the session cache last week?"
    req = filled.build_request(query, "u1", **options)  # type: ignore[arg-type]
    assert isinstance(req, recall.RecallRequest)
    keyword = filled.deep_recall(query, user_id="u1", **options)  # type: ignore[arg-type]
    assert keyword, "the keyword form finds the cache"
    assert _ids(filled.deep_recall(req)) == _ids(keyword)
    built = filled.explain(req)
    by_keywords = filled.explain(query, user_id="u1", **options)  # type: ignore[arg-type]
    assert _ids(built.hits) == _ids(by_keywords.hits) == _ids(keyword)
    assert _ids(built.floored) == _ids(by_keywords.floored)


def test_the_request_carries_the_defaults_and_the_window(filled: recall.Memory) -> None:
    req = filled.build_request("what did we talk about last week?", "u1", now=NOW)
    r = filled.settings.retrieval
    assert req.top_k == r.default_top_k
    assert set(req.kinds) == set(r.recall_kinds) | set(r.archive_kinds)  # recall_depth archive
    # "last week" alone is the whole question: a hard window, read against now.
    assert req.since == datetime(2026, 3, 9, tzinfo=UTC)
    assert req.until == datetime(2026, 3, 16, tzinfo=UTC)
    assert set(_ids(filled.deep_recall(req))) <= {"memcached"}


def test_a_built_request_refuses_the_keywords_it_carries(filled: recall.Memory) -> None:
    req = filled.build_request("session cache", "u1")
    with pytest.raises(recall.InputError, match="carries its own since, top_k"):
        filled.deep_recall(req, top_k=3, since="2026-01-01")
    with pytest.raises(recall.InputError, match="carries its own user_id"):
        filled.explain(req, user_id="u2")
    # What the request does not carry stays a per-call option.
    assert filled.deep_recall(req, alpha=1.0, fusion="rrf")


def test_a_string_query_still_needs_a_user(filled: recall.Memory) -> None:
    with pytest.raises(recall.InputError, match="user_id"):
        filled.deep_recall("session cache")


def test_an_unknown_keyword_is_still_a_type_error(filled: recall.Memory) -> None:
    req = filled.build_request("session cache", "u1")
    for query in ("session cache", req):
        with pytest.raises(TypeError, match="'topk'"):
            filled.deep_recall(query, user_id="u1", topk=3)  # type: ignore[call-arg]
        with pytest.raises(TypeError, match="'topk'"):
            filled.explain(query, topk=3)  # type: ignore[call-arg]
    with pytest.raises(TypeError, match="'user_id'"):
        filled.build_request("session cache", "u1", user_id="u2")  # type: ignore[misc]


@pytest.mark.parametrize(
    ("query", "options", "problem"),
    [
        ("x" * 10_001, {}, "max_query_chars=10000"),
        ("cache", {"top_k": 0}, "top_k must be between 1 and 1000"),
        ("cache", {"top_k": 1001}, "top_k must be between 1 and 1000"),
        ("cache", {"since": "2026-03-02", "until": "2026-03-01"}, "must be before until"),
        ("cache", {"depth": "deep"}, "depth must be"),
        ("  ", {}, "query"),
    ],
)
def test_build_request_is_where_the_bounds_are(
    filled: recall.Memory, query: str, options: dict[str, object], problem: str
) -> None:
    with pytest.raises(recall.InputError, match=problem):
        filled.build_request(query, "u1", **options)  # type: ignore[arg-type]
    with pytest.raises(recall.InputError, match=problem):
        filled.deep_recall(query, user_id="u1", **options)  # type: ignore[arg-type]


def test_a_request_built_elsewhere_meets_this_memorys_bounds(
    filled: recall.Memory, tmp_path: Path
) -> None:
    wide = recall.Settings(path=tmp_path / "w", max_query_chars=20_000, max_top_k=2_000)
    with recall.open(settings=wide) as other:
        long = other.build_request("cache " * 2_000, "u1")  # 12,000 characters
        many = other.build_request("cache", "u1", top_k=1_500)
    with pytest.raises(recall.InputError, match="max_query_chars=10000"):
        filled.deep_recall(long)
    with pytest.raises(recall.InputError, match="between 1 and 1000"):
        filled.explain(many)
    by_hand = recall.RecallRequest(query="cache", user_id="u1", top_k=5000, kinds=("note",))
    with pytest.raises(recall.InputError, match="between 1 and 1000"):
        filled.deep_recall(by_hand)


def test_every_face_follows_max_query_chars(tmp_path: Path) -> None:
    """One setting, one bound: the library, the tool's schema and the tool call, the CLI."""
    folder = tmp_path / "m"
    with recall.open(folder) as mem:
        mem.add("We picked Redis for the session cache.", user_id="u1")
    long = "session cache " * 1_500  # 21,000 characters
    for most in (12_000, 20_000):
        s = recall.Settings(path=folder, max_query_chars=most)
        fits = long[:most]
        over = long[: most + 1]
        with recall.open(settings=s) as mem:
            assert mem.build_request(fits, "u1").query == fits
            with pytest.raises(recall.InputError, match=f"max_query_chars={most}"):
                mem.build_request(over, "u1")
            schema = deep_recall_tool(mem.settings)["function"]["parameters"]
            assert schema["properties"]["query"]["maxLength"] == most
            for query, ok in ((fits, True), (over, False)):
                args = json.dumps({"query": query})
                call = {"id": "c1", "type": "function"}
                call["function"] = {"name": "deep_recall", "arguments": args}  # type: ignore[assignment]
                answer = json.loads(mem.handle_tool_call(call, user_id="u1")["content"])
                assert ("error" not in answer) is ok, answer
        runner = CliRunner()
        env = {"RECALL_MAX_QUERY_CHARS": str(most)}
        for command in ("search", "explain"):
            for query, ok in ((fits, True), (over, False)):
                argv = [command, "-", "--user", "u1", "--path", str(folder), "--json"]
                res = runner.invoke(main, argv, input=query, env=env)
                assert (res.exit_code == 0) is ok, res.output
                if not ok:
                    assert f"max_query_chars={most}" in res.output


def test_every_face_follows_top_k_bounds(tmp_path: Path) -> None:
    folder = tmp_path / "m"
    with recall.open(folder) as mem:
        mem.add_many([{"text": f"cache note {i}"} for i in range(4)], user_id="u1")
    s = recall.Settings(path=folder, max_top_k=3, default_top_k=2)
    with recall.open(settings=s) as mem:
        assert mem.build_request("cache", "u1").top_k == 2
        assert len(mem.deep_recall(mem.build_request("cache", "u1", top_k=3))) == 3
        with pytest.raises(recall.InputError, match="between 1 and 3"):
            mem.build_request("cache", "u1", top_k=4)
    env = {"RECALL_MAX_TOP_K": "3", "RECALL_DEFAULT_TOP_K": "2"}
    base = ["search", "cache", "--user", "u1", "--path", str(folder), "--json"]
    runner = CliRunner()
    assert len(json.loads(runner.invoke(main, base, env=env).output)) == 2
    res = runner.invoke(main, [*base, "--top-k", "4"], env=env)
    assert res.exit_code == 1 and "between 1 and 3" in res.output


def test_the_mcp_tools_follow_max_query_chars(tmp_path: Path) -> None:
    """The MCP deep_recall and explain_recall schemas and calls: the memory's bound, not the
    environment's at import (10,000)."""
    import anyio
    from mcp import Client

    from recall.server import AsyncMemory, build_mcp

    s = recall.Settings(path=tmp_path / "m", max_query_chars=12_000)
    mem = recall.open(settings=s)
    mem.add("We picked Redis for the session cache.", user_id="u1")
    long = ("session cache " * 1_000)[:11_000]

    async def run() -> None:
        async with Client(build_mcp(AsyncMemory(mem), tools="all")) as client:
            tools = {t.name: t for t in (await client.list_tools()).tools}
            for name in ("deep_recall", "explain_recall"):
                query = tools[name].input_schema["properties"]["query"]
                assert query["maxLength"] == 12_000
                ok = await client.call_tool(name, {"query": long, "user_id": "u1"})
                assert not ok.is_error, ok.content
                over = await client.call_tool(name, {"query": long * 2, "user_id": "u1"})
                assert over.is_error and "max_query_chars=12000" in str(over.content)

    anyio.run(run)
