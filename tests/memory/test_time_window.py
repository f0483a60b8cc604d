"""Time-scoped recall: since/until through the API, the tool, REST, MCP and the CLI; the
query's own time words as a soft window; dates shown where hits are shown."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import anyio
import pytest
from click.testing import CliRunner
from mcp import Client
from starlette.testclient import TestClient

import recall
from recall.cli import main
from recall.server import AsyncMemory, build_app, build_mcp

NOW = datetime(2026, 3, 18, 15, 0, tzinfo=UTC)  # a Wednesday
APRIL_1 = datetime(2026, 4, 1, 12, 0, tzinfo=UTC)  # a Wednesday two weeks on
SAID = [
    ("redis", "We picked Redis for the session cache.", datetime(2026, 1, 10, tzinfo=UTC)),
    ("memcached", "We moved the session cache to Memcached.", datetime(2026, 3, 10, tzinfo=UTC)),
    ("rust", "I started learning Rust with the async book.", datetime(2026, 3, 16, tzinfo=UTC)),
    ("dinner", "Dinner with Ana on Friday at the Thai place.", datetime(2026, 3, 17, tzinfo=UTC)),
]


def _fill(mem: recall.Memory, user: str = "u1") -> None:
    mem.add_many([{"id": i, "text": t, "created_at": at} for i, t, at in SAID], user_id=user)


@pytest.fixture
def filled(mem: recall.Memory) -> recall.Memory:
    _fill(mem)
    return mem


def _ids(hits: list[recall.Hit]) -> list[str]:
    return [h.id for h in hits]


def test_since_until_are_hard_filters(filled: recall.Memory) -> None:
    assert "redis" in _ids(filled.deep_recall("session cache", user_id="u1"))
    assert _ids(filled.deep_recall("session cache", user_id="u1", since="2026-03-01")) == [
        "memcached"
    ]
    # A bare until date keeps its whole day.
    assert _ids(filled.deep_recall("session cache", user_id="u1", until="2026-01-10")) == ["redis"]
    within = filled.deep_recall(
        "cache",
        user_id="u1",
        since=datetime(2026, 3, 1, tzinfo=UTC),
        until=datetime(2026, 3, 12, tzinfo=UTC),
    )
    assert _ids(within) == ["memcached"]
    assert filled.deep_recall("session cache", user_id="u1", since="2027-01-01") == []


@pytest.mark.real_model
def test_a_window_needs_no_words_in_common(filled: recall.Memory) -> None:
    # "what did we talk about" shares no word with what was said: the window decides.
    hits = filled.deep_recall(
        "what did we talk about?", user_id="u1", since="2026-03-15", until="2026-03-17"
    )
    assert set(_ids(hits)) == {"rust", "dinner"}


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"since": "last tuesday"}, "ISO 8601"),
        ({"since": "2026-03-10", "until": "2026-03-01"}, "must be before until"),
        ({"until": ["2026"]}, "until must be"),
        ({"now": "soon"}, "ISO 8601"),
    ],
)
def test_bad_windows_are_input_errors(
    filled: recall.Memory, kwargs: dict[str, Any], match: str
) -> None:
    with pytest.raises(recall.InputError, match=match):
        filled.deep_recall("cache", user_id="u1", **kwargs)


def test_time_words_in_the_query_rank_their_window_first(filled: recall.Memory) -> None:
    hits = filled.deep_recall("what did we talk about yesterday?", user_id="u1", now=NOW)
    assert _ids(hits)[:1] == ["dinner"]
    cache = filled.deep_recall("the session cache last week", user_id="u1", now=NOW)
    assert _ids(cache)[:1] == ["memcached"]
    assert "redis" in _ids(cache)  # a soft window: the rest still counts
    cache = filled.deep_recall("the session cache in January", user_id="u1", now=NOW)
    assert _ids(cache)[:1] == ["redis"]
    # 上周 (last week) and 昨天 (yesterday) in Chinese.
    assert _ids(filled.deep_recall("昨天聊了什么", user_id="u1", now=NOW))[:1] == ["dinner"]


def test_a_question_naming_only_a_time_keeps_to_its_window(filled: recall.Memory) -> None:
    # "What did we talk about yesterday?" has no topic: the time is the whole question, so
    # nothing said on another day is a hit; a question with a topic keeps the soft window.
    assert _ids(filled.deep_recall("what did we talk about yesterday?", user_id="u1", now=NOW)) == [
        "dinner"
    ]
    last_week = filled.deep_recall("上周我们聊了什么？", user_id="u1", now=NOW)
    assert _ids(last_week) == ["memcached"]  # 上周: Monday 9 to Sunday 15 March
    topical = filled.deep_recall("what did I say about Redis yesterday?", user_id="u1", now=NOW)
    assert "redis" in _ids(topical)


def test_an_empty_time_only_window_widens_to_the_nearest_talk(filled: recall.Memory) -> None:
    # On Wednesday 1 April, "last week" (23-29 March) holds nothing; the nearest talk, the
    # dinner of the 17th, lies six days before it, within a week: it answers, not nothing
    # (and only it: "rust", a day further, stays out).
    req = filled.build_request("what did we talk about last week?", "u1", now=APRIL_1)
    assert req.loose and req.since == datetime(2026, 3, 23, tzinfo=UTC)
    assert _ids(filled.deep_recall(req)) == ["dinner"]
    assert _ids(filled.deep_recall("上周我们聊了什么？", user_id="u1", now=APRIL_1)) == ["dinner"]
    # A month on, the nearest talk lies further off than a week: nothing, as before.
    may = datetime(2026, 5, 1, tzinfo=UTC)
    assert filled.deep_recall("what did we talk about last week?", user_id="u1", now=may) == []
    # A window the caller names is exact: it never widens.
    named = filled.build_request(
        "what did we talk about?", "u1", since="2026-03-23", until="2026-03-30"
    )
    assert not named.loose and filled.deep_recall(named) == []


def test_relative_time_can_be_turned_off(settings: recall.Settings) -> None:
    off = settings.replace(relative_time=False)
    with recall.open(settings=off) as m:
        _fill(m)
        hits = m.deep_recall("the session cache in January", user_id="u1", now=NOW)
    # No prior: the words decide, and "January" is in no record.
    assert m.settings.retrieval.relative_time is False and "redis" in _ids(hits)


def test_tool_call_takes_iso_dates(filled: recall.Memory) -> None:
    schema = recall.DEEP_RECALL_TOOL["function"]["parameters"]["properties"]
    assert {"since", "until"} <= set(schema) and "ISO date" in schema["since"]["description"]
    call: dict[str, Any] = {
        "id": "c1",
        "type": "function",
        "function": {
            "name": "deep_recall",
            "arguments": json.dumps({"query": "session cache", "since": "2026-03-01"}),
        },
    }
    content = json.loads(filled.handle_tool_call(call, user_id="u1")["content"])
    assert [(r["id"], r["date"]) for r in content["hits"]] == [("memcached", "2026-03-10")]
    call["function"]["arguments"] = json.dumps({"query": "cache", "since": "March"})
    content = json.loads(filled.handle_tool_call(call, user_id="u1")["content"])
    assert "ISO 8601" in content["error"]


def test_rest_recall_window(filled: recall.Memory) -> None:
    app = build_app(filled)
    with TestClient(app, client=("127.0.0.1", 40000), base_url="http://localhost") as client:
        url = "/v1/users/u1/recall"
        r = client.post(url, json={"query": "session cache", "until": "2026-02-01"})
        assert r.status_code == 200, r.text
        assert [h["id"] for h in r.json()["hits"]] == ["redis"]
        bad = client.post(url, json={"query": "cache", "since": "yesterday-ish"})
        assert bad.status_code == 400 and "ISO 8601" in bad.json()["error"]


def test_mcp_deep_recall_window(filled: recall.Memory) -> None:
    async def run() -> dict[str, Any]:
        async with Client(build_mcp(AsyncMemory(filled), default_user="u1", tools="all")) as client:
            result = await client.call_tool(
                "deep_recall", {"query": "session cache", "since": "2026-03-01"}
            )
            assert not result.is_error, result.content
            out: dict[str, Any] = result.structured_content
            return out

    hits = anyio.run(run)["hits"]
    assert [h["id"] for h in hits] == ["memcached"]


def test_cli_search_since_until(tmp_path: Path, settings: recall.Settings) -> None:
    with recall.open(settings=settings) as m:
        _fill(m)
    path = str(settings.storage.path)
    runner = CliRunner()
    args = ["search", "session cache", "--user", "u1", "--path", path]
    res = runner.invoke(main, [*args, "--since", "2026-03-01", "--json"])
    assert res.exit_code == 0, res.output
    assert [h["id"] for h in json.loads(res.output)] == ["memcached"]
    res = runner.invoke(main, [*args, "--until", "2026-01-31"])
    assert res.exit_code == 0 and "2026-01-10" in res.output and "Redis" in res.output
    res = runner.invoke(main, [*args, "--since", "someday"])
    assert res.exit_code == 1 and "ISO 8601" in res.output


# --- when it was said, through promotion and in the memory block -----------------------------
SMALL = {"short_term_capacity": 2, "promote_count": 2, "vector_partitions": 2}
TOPICS = [
    "my sister Ana moved to Lisbon for a design job",
    "I adopted a grey cat called Miso from the shelter",
    "we repainted the kitchen a pale green colour",
    "I signed up for a pottery class on Tuesdays",
    "my brother Leo bought an old sailing boat",
]


def test_dates_survive_promotion(tmp_path: Path, embedder: recall.Embedder) -> None:
    days = [datetime(2025, 6, 1 + 7 * i, 10, tzinfo=UTC) for i in range(len(TOPICS))]
    settings = recall.Settings(path=tmp_path / "memory", **SMALL)
    with recall.open(settings=settings) as m:
        for topic, day in zip(TOPICS, days, strict=True):
            m.update_memory([{"role": "user", "content": f"Today {topic}."}], user_id="u", at=day)
        assert m.long_term("u").version >= 1
        said = set(days)
        for kind in ("archive", "turn", "short_term"):
            for r in m.records("u", kinds=[kind]):
                assert r.created_at.replace(microsecond=0) in said, (kind, r.created_at)
        dynamic = m.records("u", kinds=["dynamic"])
        assert dynamic
        for r in dynamic:
            # The dates of the statements, never the day the promotion ran.
            assert r.created_at in said, r
            first = datetime.fromisoformat(r.metadata["said_from"])
            assert first in said and first <= r.created_at
        # A window over June 2025's first week reaches what was said then, in every tier.
        hits = m.deep_recall("Ana Lisbon", user_id="u", since="2025-06-01", until="2025-06-07")
        assert hits and all(h.created_at.date().isoformat() == "2025-06-01" for h in hits)
        block = m.get_relevant_memories("what about the pottery class?", user_id="u")
    assert "[2025-06-" in block  # each short-term summary shows the day it was said


def test_messages_own_timestamps_date_turns_and_summary(mem: recall.Memory) -> None:
    messages = [
        {
            "role": "user",
            "content": "I booked the dentist for May.",
            "timestamp": "2025-04-02T09:00Z",
        },
        {"role": "assistant", "content": "Noted.", "created_at": 1743588060},
        {"role": "user", "content": "Also the car goes in for service.", "timestamp": "2025-04-03"},
    ]
    mem.update_memory(messages, user_id="u")
    turns = sorted(r.created_at.isoformat() for r in mem.records("u", kinds=["turn"]))
    assert turns == [
        "2025-04-02T09:00:00+00:00",
        "2025-04-02T10:01:00+00:00",
        "2025-04-03T00:00:00+00:00",
    ]
    # The summary is dated by the newest message it holds.
    (summary,) = mem.short_term("u")
    assert summary.created_at == datetime(2025, 4, 3, tzinfo=UTC)
    # An explicit at= wins over the messages' own times for the summary.
    mem.update_memory(messages[:1], user_id="v", at=datetime(2025, 1, 1, tzinfo=UTC))
    assert mem.short_term("v")[0].created_at == datetime(2025, 1, 1, tzinfo=UTC)
    with pytest.raises(recall.InputError, match="timestamp must be"):
        mem.update_memory([{"role": "user", "content": "x", "timestamp": "soon"}], user_id="u")


def test_windows_without_the_vector_cache(settings: recall.Settings) -> None:
    # vector_cache_mb=0: the vector leg asks Chroma, and the window still holds.
    with recall.open(settings=settings.replace(vector_cache_mb=0)) as m:
        _fill(m)
        hits = m.deep_recall("session cache", user_id="u1", since="2026-03-01")
        assert _ids(hits) == ["memcached"]
        first = m.deep_recall("what did we talk about yesterday?", user_id="u1", now=NOW)
        assert _ids(first)[:1] == ["dinner"]
