"""Session: token-counted history, tool calls first-class, usage levels."""

from __future__ import annotations

import json
from typing import Any

import pytest

from recall.context.budget import progress_bar, rounds_left, truncate_chars, usage_level
from recall.context.session import Session
from recall.errors import ConfigError, InputError
from recall.settings import Settings
from recall.text import count_tokens

OVERHEAD = Settings().context.message_overhead_tokens


def test_each_message_counted_once_exactly() -> None:
    s = Session(auto_compact=False)
    s.add_user("hello world")
    s.add_assistant("你好，世界")
    s.add_user("我们决定用 Redis 做会话缓存。")
    # Exact cl100k counts: 2, 6 and 15 tokens, plus the chat format's per-message overhead.
    assert s.message_tokens == [2 + OVERHEAD, 6 + OVERHEAD, 15 + OVERHEAD]
    assert s.tokens == 23 + 3 * OVERHEAD
    assert [m["role"] for m in s.messages] == ["user", "assistant", "user"]


def test_tool_calls_are_history_and_cut_visibly() -> None:
    s = Session(auto_compact=False)
    s.add_user("convert 100 CNY")
    s.add_tool_use("exchange_rate", {"from": "CNY", "to": "USD", "note": "x" * 600}, "t1")
    s.add_tool_result("t1", '{"rate": 0.137}' + " " * 2_000)
    call = s.messages[1]
    assert call["role"] == "assistant" and call["tool_calls"][0]["id"] == "t1"
    args = call["tool_calls"][0]["function"]["arguments"]
    full = json.dumps({"from": "CNY", "to": "USD", "note": "x" * 600})
    assert args == full[:500] + f"…[truncated {len(full) - 500} chars]"
    result = s.messages[2]
    assert result == {
        "role": "tool",
        "tool_call_id": "t1",
        "content": truncate_chars('{"rate": 0.137}' + " " * 2_000, 1_000),
    }
    assert result["content"].endswith("…[truncated 1015 chars]")
    expected = OVERHEAD + count_tokens("exchange_rate") + count_tokens(args)
    assert s.message_tokens[1] == expected


def test_parallel_calls_join_one_assistant_message() -> None:
    s = Session(auto_compact=False)
    s.add_user("weather in Paris and Rome")
    s.add_assistant("Checking both.")
    s.add_tool_use("weather", {"city": "Paris"}, "a")
    s.add_tool_use("weather", {"city": "Rome"}, "b")
    assert len(s) == 2 and len(s.messages[1]["tool_calls"]) == 2
    assert s.pending_calls == ("a", "b")
    with pytest.raises(InputError, match="no result yet"):
        s.add_user("and Berlin?")
    s.add_tool_result("b", "sunny")
    s.add_tool_result("a", "rain")
    assert not s.pending_calls and len(s) == 4
    # Tokens were recounted when the second call joined the message.
    assert s.message_tokens[1] == OVERHEAD + sum(
        count_tokens(x)
        for x in (
            "Checking both.",
            "weather",
            '{"city": "Paris"}',
            "weather",
            '{"city": "Rome"}',
        )
    )
    assert s.tokens == sum(s.message_tokens)


# "results": a history kept from before the tool answered "hits" is fitted the same way.
@pytest.mark.parametrize("key", ["hits", "results"])
def test_deep_recall_result_is_fitted_to_the_recall_budget(key: str) -> None:
    s = Session(settings=Settings(recall_budget_tokens=120), auto_compact=False)
    s.add_user("try to remember the cache decision")
    s.add_tool_use("deep_recall", {"query": "cache"}, "r1")
    results = [
        {"id": str(i), "text": f"memory number {i} " * 8, "score": 1 - i / 10} for i in range(10)
    ]
    s.add_tool_result("r1", json.dumps({"query": "cache", key: results}))
    content = s.messages[-1]["content"]
    data = json.loads(content)  # still valid JSON: whole hits dropped, worst first
    assert count_tokens(content) <= 120
    assert data[key] == results[: len(data[key])]
    assert data["omitted"] == 10 - len(data[key]) > 0


def test_usage_levels_rounds_and_bar() -> None:
    assert usage_level(0.59, warning=0.6, urgent=0.8, critical=0.92) == "normal"
    assert usage_level(0.60, warning=0.6, urgent=0.8, critical=0.92) == "warning"
    assert usage_level(0.85, warning=0.6, urgent=0.8, critical=0.92) == "urgent"
    assert usage_level(0.92, warning=0.6, urgent=0.8, critical=0.92) == "critical"
    assert rounds_left(20_000, 40_000, critical=0.92, per_round=1_000) == 16
    assert rounds_left(37_000, 40_000, critical=0.92, per_round=1_000) == 0
    assert progress_bar(0.45) == "[" + "█" * 9 + "░" * 11 + "] 45%"
    assert progress_bar(1.3).startswith("[" + "█" * 20 + "]")

    # Usage is measured against the model's window (here the smallest allowed, 1,000).
    s = Session(settings=Settings(context_window_tokens=1_000), auto_compact=False)
    u = s.usage()
    assert (u.used, u.level) == (0, "normal")
    assert u.rounds_left == int(0.92 * 1_000 / (0.0175 * 1_000))  # the default: 1.75% a round
    s.add_user("word " * 300)
    s.add_assistant("ok " * 300)
    u = s.usage()
    expected = count_tokens("word " * 300) + count_tokens("ok " * 300) + 2 * OVERHEAD
    assert u.used == s.tokens == expected == 610  # exact cl100k counts
    assert u.level == "warning" and u.ratio == 0.61
    # One round has cost 610 tokens; 920 - 610 leaves room for no full round more.
    assert u.rounds_left == 0
    assert str(u) == f"{progress_bar(0.61)} warning · 610/1,000 tokens · ~0 rounds left"


def test_bad_input_is_clear() -> None:
    s = Session(auto_compact=False)
    with pytest.raises(InputError, match=r"no tool call with id 'nope'.*add_tool_use"):
        s.add_tool_result("nope", "x")
    with pytest.raises(InputError, match="must be a string, got int"):
        s.add_user(42)  # type: ignore[arg-type]
    with pytest.raises(InputError, match="must be a string, got dict"):
        s.add_assistant({"text": "hi"})  # type: ignore[arg-type]
    s.add_tool_use("search", "q", "x1")
    with pytest.raises(InputError, match="already used"):
        s.add_tool_use("search", "q", "x1")
    with pytest.raises(InputError, match="must be a string"):
        s.add_tool_result("x1", b"bytes")  # type: ignore[arg-type]
    s.add_tool_result("x1", "found")
    with pytest.raises(InputError, match="already has its result"):
        s.add_tool_result("x1", "again")
    with pytest.raises(InputError, match="JSON-serializable"):
        s.add_tool_use("f", {"x": object()}, "x2")
    with pytest.raises(InputError, match="role 'system'"):
        s.add_message({"role": "system", "content": "be nice"})
    with pytest.raises(InputError, match="needs user_id"):
        Session(memory=object())  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match="history_budget_tokens"):
        Session(settings={"history_budget_tokens": -5})


def test_from_messages_round_trips_openai_format() -> None:
    msgs: list[dict[str, Any]] = [
        {"role": "user", "content": "read the config"},
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {
                    "id": "c1",
                    "type": "function",
                    "function": {"name": "read_file", "arguments": '{"path": "app.toml"}'},
                }
            ],
        },
        {"role": "tool", "tool_call_id": "c1", "content": "port = 8080"},
        {"role": "assistant", "content": "The port is 8080."},
    ]
    s = Session.from_messages(msgs)
    assert s.messages == msgs
    assert s.auto_compact is True


def test_compacts_at_threshold_or_critical_level_by_tokens() -> None:
    # The threshold (5,000) is never reached; the critical level (92% of the 1,000-token
    # window) is.
    st_ = Settings(
        context_window_tokens=1_000, compact_threshold_tokens=5_000, compact_target_tokens=300
    )
    s = Session(settings=st_)
    before = 0
    while not s.compactions:
        before = s.tokens
        s.add_user("Please keep the retry limit at 5 for the billing job. " * 3)
    assert before < 0.92 * 1_000
    c = s.compactions[0]
    assert c.tokens_before >= 920 and c.path == "summary"
    assert sum(s.message_tokens) <= 300 and s.summary is not None
    assert s.tokens == sum(s.message_tokens) + s.summary_tokens
    assert s.summary_tokens == count_tokens(s.summary_message["content"]) + OVERHEAD  # type: ignore[index]
