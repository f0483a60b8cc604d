"""The context builder: sections in budgets, never over the window."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from recall.context.builder import ContextBuilder
from recall.context.session import Session
from recall.errors import ConfigError, InputError
from recall.models import Hit
from recall.settings import Settings
from recall.text import count_tokens, message_tokens

SOUL = "You are Lark, a careful assistant. 你是灵雀。"


def hit(text: str, score: float, day: int = 1, kind: str = "short_term") -> Hit:
    return Hit(
        id=f"h{score}",
        text=text,
        kind=kind,
        created_at=datetime(2026, 3, day, tzinfo=UTC),
        score=score,
        keyword_score=1.0,
        keyword_norm=score,
        keyword_rank=1,
        vector_score=0.5,
        vector_norm=score,
        vector_rank=1,
    )


def recount(messages: list[dict[str, Any]], settings: Settings) -> int:
    """The context's tokens counted again from the messages alone."""
    return sum(
        message_tokens(m, count_tokens, settings.context.message_overhead_tokens) for m in messages
    )


def test_sections_in_order_with_exact_counts() -> None:
    session = Session(auto_compact=False)
    session.add_user("我们用 Redis 做缓存吧")
    session.add_assistant("好的，用 Redis。")
    b = ContextBuilder()
    built = b.build(
        session=session,
        soul=SOUL,
        user_input="What did we pick for the cache?",
        memory="## Bedrock\n\nThe user prefers Python.",
        daily_log="09:00 deploy\n10:00 review",
        awareness=[{"name": "deep_recall", "description": "Search long-term memory.\nMore."}],
        recall_hits=[hit("We chose Redis.", 0.4, 2), hit("Redis 做会话缓存。", 0.9, 5)],
    )
    system, memory = built.messages[:2]
    assert system["role"] == "system"
    assert system["content"] == (
        f"{SOUL}\n\n"
        "<daily_log>\n09:00 deploy\n10:00 review\n</daily_log>\n\n"
        "<awareness>\n- deep_recall: Search long-term memory.\n</awareness>\n\n"
        "<recall>\n- [short_term · 2026-03-05 · score 0.90] Redis 做会话缓存。\n"
        "- [short_term · 2026-03-02 · score 0.40] We chose Redis.\n</recall>"
    )
    # The memory is a system message of its own, right after the main one.
    assert memory == {
        "role": "system",
        "content": "<memory>\n## Bedrock\n\nThe user prefers Python.\n</memory>",
    }
    assert built.messages[2:] == [
        {"role": "user", "content": "我们用 Redis 做缓存吧"},
        {"role": "assistant", "content": "好的，用 Redis。"},
        {"role": "user", "content": "What did we pick for the cache?"},
    ]
    r = built.report
    overhead = b.settings.context.message_overhead_tokens
    assert r.sections["soul"] == count_tokens(SOUL)
    both = count_tokens(system["content"]) + count_tokens(memory["content"]) + 2 * overhead
    assert r.sections["system"] == both  # the memory counts within the system budget
    assert r.sections["user"] == count_tokens("What did we pick for the cache?") + overhead
    assert r.sections["history"] == session.tokens
    assert r.total_tokens == recount(built.messages, b.settings)
    assert r.budget_tokens == 128_000 and r.level == "normal" and r.cuts == ()
    json.dumps(r.to_dict(), ensure_ascii=False)  # the report is plain data


def test_soul_is_never_cut() -> None:
    b = ContextBuilder(Settings(soul_budget_tokens=50))
    with pytest.raises(ConfigError, match=r"soul has .* over soul_budget_tokens=50"):
        b.build(session=Session(), soul="persona " * 60, user_input="hi")
    with pytest.raises(ConfigError, match="memory_budget_tokens"):
        ContextBuilder({"memory_budget_tokens": -1})
    with pytest.raises(ConfigError, match="soul_budget_tokens=3,000 is over"):
        ContextBuilder(Settings(system_budget_tokens=2_000))


def test_memory_cut_keeps_headings_and_drops_oldest_paragraphs() -> None:
    # A memory text not in the Bedrock/Evolutionary/Dynamic chapters (a MEMORY.md, say)
    # grows at the bottom: its oldest, first paragraphs go. Chapters: see test_bedrock.py.
    paras = [f"Paragraph {i}: the user worked on project {i} with many details." for i in range(12)]
    memory = (
        "## Projects\n\n" + "\n\n".join(paras[:6]) + "\n\n## Notes\n\n" + "\n\n".join(paras[6:])
    )
    b = ContextBuilder(Settings(memory_budget_tokens=90))
    built = b.build(session=Session(), soul=SOUL, user_input="hi", memory=memory)
    text = built.messages[1]["content"]
    assert text.startswith("<memory>\n") and SOUL not in text
    assert "## Projects" in text and "## Notes" in text
    assert paras[-1] in text and paras[0] not in text
    kept = [i for i, p in enumerate(paras) if p in text]
    assert kept == list(range(kept[0], 12)), "the newest paragraphs survive, as a run"
    assert built.report.sections["memory"] <= 90
    (cut,) = built.report.cuts
    assert (
        cut.section == "memory"
        and cut.reason == f"over its budget: dropped {kept[0]} oldest paragraphs"
    )
    assert cut.tokens_before == count_tokens(memory)


def test_daily_log_drops_oldest_lines_and_recall_lowest_hits() -> None:
    log = "\n".join(f"{h:02d}:00 did thing number {h}" for h in range(24))
    hits = [hit(f"memory {i} about the deploy " * 5, 1 - i / 20) for i in range(20)]
    b = ContextBuilder(Settings(daily_log_budget_tokens=60, recall_budget_tokens=120))
    built = b.build(session=Session(), soul=SOUL, user_input="hi", daily_log=log, recall_hits=hits)
    text = built.messages[0]["content"]
    assert "23:00 did thing number 23" in text and "00:00 did thing" not in text
    recall_part = text.split("<recall>\n")[1].split("\n</recall>")[0]
    lines = recall_part.split("\n")
    assert lines[0].startswith("- [short_term · 2026-03-01 · score 1.00] memory 0")
    assert [ln.split("] ")[1].split()[1] for ln in lines] == [str(i) for i in range(len(lines))]
    r = built.report
    assert r.sections["daily_log"] <= 60 and r.sections["recall"] <= 120
    reasons = {c.section: c.reason for c in r.cuts}
    assert "oldest lines" in reasons["daily_log"] and "lowest-ranked hits" in reasons["recall"]


def test_awareness_is_cached_five_minutes() -> None:
    now = [1_000.0]
    calls = []

    def tools() -> list[str]:
        calls.append(now[0])
        return [f"calendar (version {len(calls)})", "exchange_rate"]

    b = ContextBuilder(clock=lambda: now[0])
    first = b.build(session=Session(), soul=SOUL, user_input="hi", awareness=tools)
    now[0] += 299
    again = b.build(session=Session(), soul=SOUL, user_input="hi", awareness=tools)
    assert len(calls) == 1 and first.messages[0] == again.messages[0]
    assert "- calendar (version 1)\n- exchange_rate" in first.messages[0]["content"]
    now[0] += 2
    later = b.build(session=Session(), soul=SOUL, user_input="hi", awareness=tools)
    assert len(calls) == 2 and "version 2" in later.messages[0]["content"]


def test_history_keeps_newest_and_tool_pairs_whole() -> None:
    st_ = Settings(
        history_budget_tokens=400, compact_threshold_tokens=400, compact_target_tokens=200
    )
    s = Session(settings=st_, auto_compact=False)
    for i in range(10):
        s.add_user(f"question {i} " * 10)
        s.add_tool_use("lookup", {"i": i}, f"c{i}")
        s.add_tool_result(f"c{i}", f"result {i} " * 10)
        s.add_assistant(f"answer {i} " * 10)
    built = ContextBuilder(st_).build(session=s, soul=SOUL, user_input="next")
    history = built.messages[1:-1]
    assert history[-1] == s.messages[-1] and history[0]["role"] != "tool"
    assert history == s.messages[len(s) - len(history) :]
    assert built.report.sections["history"] <= 400
    (cut,) = built.report.cuts
    assert cut.section == "history" and "session.compact()" in cut.reason


def test_compaction_summary_and_restored_items_go_in_front_of_history() -> None:
    st_ = Settings(compact_threshold_tokens=3_000, compact_target_tokens=1_000)
    s = Session(settings=st_)  # auto-compacts at the threshold
    for i in range(80):
        s.add_user(f"Please edit src/mod_{i}.py to retry {i} times on TimeoutError.")
        s.add_tool_use("edit_file", {"path": f"src/mod_{i}.py", "new": f"RETRIES = {i}"}, f"e{i}")
        s.add_tool_result(f"e{i}", "ok")
        s.add_assistant(f"Set RETRIES = {i} in src/mod_{i}.py.")
    assert s.compactions and s.summary_message is not None
    built = ContextBuilder(st_).build(session=s, soul=SOUL, user_input="status?")
    assert built.messages[1]["content"].startswith("<conversation_summary>\n## Primary Request")
    assert built.messages[2]["content"].startswith("<restored_items>\n### src/mod_")
    assert built.report.sections["summary"] == s.summary_tokens
    assert built.report.sections["restored"] == s.restored_tokens
    assert built.report.total_tokens == recount(built.messages, st_)


def test_continuing_a_turn_after_tool_results() -> None:
    s = Session(auto_compact=False)
    s.add_user("try to remember the cache choice")
    s.add_tool_use("deep_recall", {"query": "cache choice"}, "r1")
    b = ContextBuilder()
    with pytest.raises(InputError, match="no result yet"):
        b.build(session=s, soul=SOUL, user_input=None)
    s.add_tool_result("r1", json.dumps({"query": "cache choice", "hits": []}))
    built = b.build(session=s, soul=SOUL, user_input=None)
    assert built.messages[-1]["role"] == "tool" and built.report.sections["user"] == 0
    s.add_assistant("Nothing found.")
    with pytest.raises(InputError, match="continues the current turn"):
        b.build(session=s, soul=SOUL, user_input=None)


def test_bad_input() -> None:
    b = ContextBuilder()
    with pytest.raises(InputError, match=r"recall\.Session"):
        b.build(session=[], soul=SOUL, user_input="hi")  # type: ignore[arg-type]
    with pytest.raises(InputError, match="soul must be a string"):
        b.build(session=Session(), soul=None, user_input="hi")  # type: ignore[arg-type]
    with pytest.raises(InputError, match="non-empty string"):
        b.build(session=Session(), soul=SOUL, user_input="  ")
    with pytest.raises(InputError, match="list of facts"):
        b.build(session=Session(), soul=SOUL, user_input="hi", memory=5)  # type: ignore[arg-type]
    with pytest.raises(InputError, match=r"recall\.Hit"):
        b.build(session=Session(), soul=SOUL, user_input="hi", recall_hits=[{"text": "x"}])  # type: ignore[list-item]
    with pytest.raises(InputError, match="awareness items"):
        b.build(session=Session(), soul=SOUL, user_input="hi", awareness=[3])  # type: ignore[list-item]


# --- the invariant: never over the window -----------------------------------------------

WORDS = st.sampled_from(
    ["cache", "Redis", "记忆", "缓存方案", "the", "deploy", "错误", "OOMKilled", "1Gi",
     "\n\n", "## 标题", "## Notes", "\n", "src/app.py", "。", "，", "token", "上下文"]
)  # fmt: skip
TEXT = st.lists(WORDS, max_size=400).map(" ".join)


@st.composite
def histories(draw: st.DrawFn) -> list[tuple[str, str]]:
    kinds = st.sampled_from(["user", "assistant", "tool"])
    return draw(st.lists(st.tuples(kinds, TEXT), max_size=25))


@pytest.mark.slow
@given(
    window=st.integers(1_000, 6_000),
    system=st.integers(50, 3_000),
    history_budget=st.integers(1, 4_000),
    budgets=st.tuples(*(st.integers(0, 1_500) for _ in range(4))),
    soul=st.lists(WORDS, max_size=30).map(" ".join),
    memory=TEXT,
    daily_log=TEXT,
    awareness=st.lists(st.lists(WORDS, min_size=1, max_size=8).map(" ".join), max_size=20),
    hits=st.lists(st.tuples(TEXT, st.floats(0, 1)), max_size=8),
    history=histories(),
    user_input=st.lists(WORDS, min_size=1, max_size=200).map(" ".join),
    auto_compact=st.booleans(),
)
@hsettings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_never_over_the_window(  # type: ignore[no-untyped-def]
    window, system, history_budget, budgets, soul, memory, daily_log, awareness, hits, history,
    user_input, auto_compact,
) -> None:  # fmt: skip
    assume(user_input.strip())
    st_ = Settings(
        context_window_tokens=window,
        system_budget_tokens=system,
        soul_budget_tokens=min(system, 200),
        history_budget_tokens=history_budget,
        compact_threshold_tokens=history_budget,
        compact_target_tokens=max(1, history_budget // 2),
        memory_budget_tokens=budgets[0],
        daily_log_budget_tokens=budgets[1],
        awareness_budget_tokens=budgets[2],
        recall_budget_tokens=budgets[3],
    )
    # With auto_compact the history carries a summary and restored items too.
    session = Session(settings=st_, auto_compact=auto_compact)
    for i, (role, text) in enumerate(history):
        if role == "user":
            session.add_user(text)
        elif role == "assistant":
            session.add_assistant(text)
        else:
            session.add_tool_use("lookup", {"q": text[:40]}, f"c{i}")
            session.add_tool_result(f"c{i}", text)
    b = ContextBuilder(st_)
    try:
        built = b.build(
            session=session,
            soul=soul,
            user_input=user_input,
            memory=memory,
            daily_log=daily_log,
            awareness=awareness,
            recall_hits=[hit(t or "x", s) for t, s in hits],
        )
    except ConfigError:
        assume(False)  # a soul over its budget: refused, never cut (tested above)
        return
    except InputError as exc:
        assert "does not fit" in str(exc)  # the user's turn alone fills the window
        return
    r = built.report
    assert r.total_tokens == recount(built.messages, st_) <= window
    assert r.sections["history"] + r.sections["summary"] <= history_budget
    for name, budget in zip(("memory", "daily_log", "awareness", "recall"), budgets, strict=True):
        assert r.sections[name] <= budget
    assert r.sections["system"] - st_.context.message_overhead_tokens <= system
    content = built.messages[0]["content"]
    assert content.startswith(soul) if soul.strip() else True
    if r.sections["memory"]:  # the memory's own system message, right after the main one
        assert built.messages[1]["role"] == "system"
        assert built.messages[1]["content"].startswith("<memory>\n")
    assert built.messages[-1] == {"role": "user", "content": user_input}
    seen: set[str] = set()
    for m in built.messages:  # no orphan tool results
        seen.update(c["id"] for c in m.get("tool_calls") or ())
        if m["role"] == "tool":
            assert m["tool_call_id"] in seen


def test_memory_as_facts_is_ranked_for_the_conversation() -> None:
    facts = [
        {"content": "Runs Docker for containerization", "confidence": 0.9},
        {"content": "Prefers pytest for testing Python code", "confidence": 0.8},
    ]
    s = Session(auto_compact=False)
    s.add_user("I'm working on a Python project")
    s.add_assistant("Nice.")
    built = ContextBuilder().build(
        session=s, soul=SOUL, user_input="How should I write tests?", memory=facts
    )
    assert built.messages[1]["content"].startswith(
        "<memory>\n- Prefers pytest for testing Python code\n- Runs Docker"
    )


def test_report_names_the_last_compaction() -> None:
    st_ = Settings(compact_threshold_tokens=800, compact_target_tokens=300)
    s = Session(settings=st_)
    for i in range(40):
        s.add_user(f"Step {i}: rename column c{i} in table orders; keep the index.")
        s.add_assistant(f"Renamed c{i}.")
    report = ContextBuilder(st_).build(session=s, soul=SOUL, user_input="done?").report
    assert report.compaction is not None
    assert report.compaction["path"] in ("summary", "retry", "hybrid", "truncate")
    assert report.compaction["score"] == s.compactions[-1].score
    assert report.compaction["stored"] is False  # an unbound session only summarizes


def test_a_hit_already_in_memory_is_not_repeated() -> None:
    summary = "We chose Redis for the session cache because of per-key TTLs."
    built = ContextBuilder().build(
        session=Session(auto_compact=False),
        soul=SOUL,
        user_input="what cache did we pick?",
        memory=f"## Short-term\n\n{summary}",
        recall_hits=[
            hit("  We chose Redis for the session\ncache because of per-key TTLs.", 0.9),
            hit("The dog is called Biscuit.", 0.5),
        ],
    )
    system, memory = (m["content"] for m in built.messages[:2])
    assert memory.count("per-key TTLs") == 1 and "per-key TTLs" not in system
    assert "<recall>\n- [short_term" in system and "Biscuit" in system
    (cut,) = built.report.cuts
    assert cut.section == "recall" and cut.reason.startswith("1 hit(s) already in <memory>")
    assert cut.tokens_before > cut.tokens_after > 0
