"""Compaction: by tokens, tool pairs whole, the quality gate, restoring items.

Every summary here comes from the real offline summarizer; the "store" is a plain list
that records what compaction sends (what update_memory would receive).
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from recall.context.budget import newest_start
from recall.context.compaction import (
    compact_history,
    context_continuity,
    key_items,
    score_summary,
    summary_states,
    thread_markers,
)
from recall.context.restore import restore_items
from recall.context.session import Session
from recall.lifecycle.summarize import SECTIONS, ExtractiveSummarizer
from recall.settings import Settings
from recall.text import count_tokens

SUMMARIZER = ExtractiveSummarizer()


def conversation(rounds: int, settings: Settings | None = None) -> Session:
    """A coding session: user asks, the assistant reads and edits files, with errors."""
    s = Session(settings=settings or Settings(), auto_compact=False)
    for i in range(rounds):
        s.add_user(
            f"Round {i}: the test tests/test_api_{i}.py fails with TimeoutError after "
            f"{2 + i} s; please raise the timeout to {10 + i} s. 请不要改动其他文件。"
        )
        s.add_tool_use("read_file", {"path": f"src/api_{i}.py"}, f"r{i}")
        s.add_tool_result(f"r{i}", f"TIMEOUT = {2 + i}\ndef call():\n    return fetch(TIMEOUT)\n")
        edit = {"path": f"src/api_{i}.py", "new": f"TIMEOUT = {10 + i}"}
        s.add_tool_use("edit_file", edit, f"e{i}")
        s.add_tool_result(f"e{i}", "ok")
        s.add_assistant(f"Raised TIMEOUT in src/api_{i}.py from {2 + i} to {10 + i} s.")
    return s


def run(session: Session, **overrides: Any) -> tuple[Any, list[Any]]:
    sent: list[Any] = []
    st_ = session.settings.replace(**overrides)
    result = compact_history(
        session.messages,
        session.message_tokens,
        settings=st_,
        summarizer=SUMMARIZER,
        store=sent.append,
        previous_summary=None,
        count=count_tokens,
    )
    return result, sent


@pytest.mark.slow
@given(
    tokens=st.lists(st.integers(1, 400), min_size=1, max_size=40),
    tools=st.lists(st.booleans(), min_size=40, max_size=40),
    budget=st.integers(0, 3_000),
)
@hsettings(max_examples=200, deadline=None)
def test_newest_start_keeps_the_most_newest_without_splitting(tokens, tools, budget) -> None:  # type: ignore[no-untyped-def]
    starts = [True] + [not t for t in tools[1 : len(tokens)]]
    i = newest_start(tokens, starts, budget)
    assert starts[i], "a kept suffix never begins with a tool result"
    last_group = max(j for j in range(len(tokens)) if starts[j])
    if i != last_group:  # beyond the last group, only what fits
        assert sum(tokens[i:]) <= budget
    earlier = [j for j in range(i) if starts[j]]
    if earlier:  # maximal: the previous group would not have fit
        assert sum(tokens[earlier[-1] :]) > budget
    strict = newest_start(tokens, starts, budget, keep_last=False)
    assert strict == len(tokens) or sum(tokens[strict:]) <= budget


@pytest.mark.slow
def test_compaction_is_by_tokens_and_keeps_tool_pairs_whole() -> None:
    s = conversation(40)
    target = 1_500
    result, sent = run(s, compact_target_tokens=target)
    kept = s.messages[result.keep_from :]
    kept_tokens = sum(s.message_tokens[result.keep_from :])
    assert kept_tokens <= target
    # Maximal: the group just before the cut would have pushed it over the target.
    prev = max(j for j in range(result.keep_from) if s.messages[j]["role"] != "tool")
    assert sum(s.message_tokens[prev:]) > target
    assert kept[0]["role"] != "tool"
    ids = {c["id"] for m in kept for c in m.get("tool_calls") or ()}
    assert all(m["tool_call_id"] in ids for m in kept if m["role"] == "tool")
    assert kept[-1] == s.messages[-1]
    assert result.kept_messages == len(kept)
    assert result.tokens_before == s.tokens
    assert sent == [result.summary]  # the summary is what update_memory receives


def test_structured_summary_passes_the_gate_and_reports_its_score() -> None:
    s = conversation(40)
    result, _ = run(s, compact_target_tokens=1_500)
    assert result.path == "summary"
    assert result.score == result.attempts[0].score >= s.settings.context.quality_threshold
    for section in SECTIONS:
        assert f"## {section}" in result.summary
    assert result.tokens_after < result.tokens_before


def test_last_message_is_kept_even_when_over_the_target() -> None:
    s = Session(auto_compact=False)
    s.add_user("short question")
    s.add_assistant("short answer")
    s.add_user("a very long paste: " + "lorem ipsum dolor sit amet " * 300)
    result, _ = run(s, compact_target_tokens=100, compact_threshold_tokens=100)
    assert result.keep_from == 2 and result.kept_messages == 1


def test_nothing_older_means_no_compaction() -> None:
    s = conversation(1)
    result, sent = run(s)
    assert result is None and sent == []


def test_failed_gate_falls_back_to_truncation_keeping_the_newest_30_percent() -> None:
    s = conversation(40)
    # Only compression counts, and no summary can be that small: every attempt fails.
    result, sent = run(
        s, compact_target_tokens=3_000, quality_weights=(0, 0, 0, 1), quality_max_ratio=1e-6
    )
    assert result.path == "truncate"
    threshold = s.settings.context.quality_threshold
    assert [a.score for a in result.attempts] and all(a.score < threshold for a in result.attempts)
    assert len(result.attempts) == 3  # summary, retry, hybrid
    assert result.summary is None
    share = 0.3 * s.tokens
    assert sum(s.message_tokens[result.keep_from :]) <= share + 1
    prev = max(j for j in range(result.keep_from) if s.messages[j]["role"] != "tool")
    assert sum(s.message_tokens[prev:]) > share
    # Nothing is lost: the dropped messages themselves go to the memory.
    assert sent == [s.messages[: result.keep_from]]


def test_retry_then_hybrid_paths_are_taken_when_they_pass() -> None:
    s = conversation(40)
    tight = {
        "compact_target_tokens": 1_500,
        "compact_summary_tokens": 160,
        "quality_weights": (0, 1, 0, 0),  # key information only
    }
    failed, _ = run(s, quality_threshold=1.0, **tight)
    q1, q2, q3 = (a.score for a in failed.attempts)
    assert failed.path == "truncate"
    assert q2 > q1, "a larger budget keeps more key facts"
    assert q3 > q2, "the hybrid puts back original messages holding lost facts"
    retry, _ = run(s, quality_threshold=q2, **tight)
    assert retry.path == "retry" and retry.score == q2
    hybrid, _ = run(s, quality_threshold=q3, **tight)
    assert hybrid.path == "hybrid" and hybrid.score == q3
    assert "## Original key messages" in hybrid.summary


def test_score_summary_parts() -> None:
    msgs = [
        {"role": "user", "content": "Fix src/db.py: it raises KeyError on row 4821."},
        {"role": "assistant", "content": "Fixed the KeyError in src/db.py."},
    ]
    keys = key_items(msgs)
    assert "src/db.py" in keys.files and "4821" in keys.numbers and "keyerror" in keys.errors
    st_ = Settings()
    full = "\n".join(f"## {h}\n- x" for h in SECTIONS) + "\nsrc/db.py KeyError row 4821 Fix raises"
    q = score_summary(full, keys, 1_000, count_tokens, st_)
    assert q.coverage == 1.0 and q.key_info == 1.0 and q.compression == 1.0 and q.score == 1.0
    poor = score_summary("## Current Work\n- something", keys, 1_000, count_tokens, st_)
    assert poor.coverage == 1 / 8 and poor.key_info < 0.5
    assert "src/db.py" in poor.missing and "4821" in poor.missing
    bulky = score_summary(full, keys, 10, count_tokens, st_)
    assert bulky.compression < 1.0
    assert q.continuity == 1.0 and poor.continuity == 0.0
    # The defaults (see docs/design.md): four checks weighted 0.3/0.4/0.2/0.1, pass at 0.8.
    assert st_.context.quality_weights == (0.3, 0.4, 0.2, 0.1)
    assert st_.context.quality_threshold == 0.8
    parts = (poor.coverage, poor.key_info, poor.continuity, poor.compression)
    assert poor.score == round(
        sum(w * p for w, p in zip((0.3, 0.4, 0.2, 0.1), parts, strict=True)), 4
    )


def test_continuity_checks_the_last_request_and_the_current_work() -> None:
    msgs = [
        {"role": "user", "content": "Move the cache to Redis 7 on port 6380."},
        {"role": "assistant", "content": "Done: Redis 7 now listens on 6380."},
        {"role": "user", "content": "Now rotate the logs in /var/log/app daily, keep 14."},
        {"role": "assistant", "content": "Writing /etc/logrotate.d/app with rotate 14."},
        {"role": "tool", "tool_call_id": "x", "content": "ok 99999"},  # data, not work
    ]
    request, work = thread_markers(msgs)
    # Only what the last exchange brought in: "14" is new, "redis" and "6380" are old.
    assert request == {"/var/log/app", "14"}
    assert work == {"/etc/logrotate.d/app", "14"}
    kept = "## Current Work\n- rotating /var/log/app daily, keep 14: /etc/logrotate.d/app"
    assert context_continuity(kept, (request, work)) == 1.0
    lost = "## Current Work\n- Redis 7 on port 6380."
    assert context_continuity(lost, (request, work)) == 0.0
    # Half an end's markers keep it; "14" is a token, not found inside "140".
    assert context_continuity("logs to /var/log/app, 140 files", (request,)) == 1.0
    assert context_continuity("logs, 140 files", (request,)) == 0.0
    assert context_continuity("anything", ()) == 1.0 and thread_markers([]) == ()
    # An end with no new fact falls back to its facts, then to its content words.
    chat = [{"role": "user", "content": "hello there"}, {"role": "assistant", "content": "hi!"}]
    assert thread_markers(chat) == (frozenset({"hello", "there"}),)


class Forgetful:
    """The offline summarizer given all but the last rounds: a summary that lost the thread."""

    def summarize(self, states: Any, *, budget_tokens: int, structured: bool = False) -> str:
        return SUMMARIZER.summarize(states[:-6], budget_tokens=budget_tokens, structured=structured)


def test_a_summary_that_lost_the_thread_fails_and_the_hybrid_restores_it() -> None:
    s = conversation(40)
    st_ = s.settings.replace(compact_target_tokens=1_500)
    kw: dict[str, Any] = {"store": None, "previous_summary": None, "count": count_tokens}
    lost = compact_history(s.messages, s.message_tokens, settings=st_, summarizer=Forgetful(), **kw)
    assert lost is not None and lost.path == "hybrid"
    first, retry, hybrid = lost.attempts
    # Every file and number but the last round's is there: only the thread is gone.
    assert first.key_info > 0.9 and first.continuity == 0.0 and first.score < 0.8
    assert retry.continuity == 0.0 and retry.score < 0.8
    assert hybrid.continuity == 1.0 and hybrid.score >= 0.8
    last = lost.keep_from - 1
    round_ = next(m for m in reversed(s.messages[: last + 1]) if m["role"] == "user")
    assert lost.summary is not None
    assert round_["content"] in lost.summary  # the last request, put back verbatim
    # The real summarizer keeps the thread: it passes at once (as before the fourth check).
    fine = compact_history(s.messages, s.message_tokens, settings=st_, summarizer=SUMMARIZER, **kw)
    assert fine is not None and fine.path == "summary" and fine.attempts[0].continuity == 1.0


def test_chained_summaries_stay_flat() -> None:
    s = conversation(30)
    first, _ = run(s, compact_target_tokens=1_000)
    again = summary_states(first.summary)
    assert again and all(not m["content"].startswith("- ") for m in again)
    chained = compact_history(
        s.messages,
        s.message_tokens,
        settings=s.settings.replace(compact_target_tokens=500),
        summarizer=SUMMARIZER,
        store=None,
        previous_summary=first.summary,
        count=count_tokens,
    )
    assert chained is not None and chained.summary is not None
    assert "- Assistant: - " not in chained.summary and "- User: - " not in chained.summary


def _call(name: str, args: dict[str, Any], cid: str) -> dict[str, Any]:
    fn = {"name": name, "arguments": json.dumps(args)}
    return {"role": "assistant", "content": None, "tool_calls": [{"id": cid, "function": fn}]}


def test_restore_scores_recency_frequency_operation_and_type() -> None:
    msgs: list[dict[str, Any]] = []
    plan = [
        ("read_file", "docs/notes.md", "old notes"),
        ("read_file", "src/app.py", "print('v1')"),
        ("write_file", "src/app.py", "ok"),  # its text is in the input (below)
        ("read_file", "config/app.json", '{"debug": true}'),
        ("search_web", None, "Redis TTL docs"),
        ("read_file", "README.md", "# readme"),
    ]
    for i, (tool, path, result) in enumerate(plan):
        args = {"path": path} if path else {"q": "redis ttl"}
        if tool == "write_file":
            args["content"] = "print('v2')"
        msgs.append(_call(tool, args, f"c{i}"))
        msgs.append({"role": "tool", "tool_call_id": f"c{i}", "content": result})
    items = restore_items(msgs, Settings(), count_tokens)
    keys = [i.key for i in items]
    # Written twice-touched code beats a more recent doc; code beats config beats docs.
    assert keys[0] == "src/app.py"
    assert items[0].operation == "write" and items[0].content == "print('v2')"
    assert keys.index("config/app.json") < keys.index("docs/notes.md")
    assert any(i.kind == "tool" and i.content == "Redis TTL docs" for i in items)
    assert items == sorted(items, key=lambda i: -i.score)
    for item in items:
        assert item.tokens == count_tokens(
            f"### {item.key} ({item.operation}, score {item.score:.0f})\n{item.content}"
        )


def test_restore_limits_items_per_item_and_total() -> None:
    msgs: list[dict[str, Any]] = []
    for i in range(30):
        msgs.append(_call("read_file", {"path": f"src/m{i}.py"}, f"c{i}"))
        body = "x = 1\n" * (400 if i == 29 else 20)  # the newest, best item is too big
        msgs.append({"role": "tool", "tool_call_id": f"c{i}", "content": body})
    st_ = Settings(restore_max_items=5, restore_item_tokens=500, restore_total_tokens=400)
    items = restore_items(msgs, st_, count_tokens)
    assert 0 < len(items) <= 5
    # Over the per-item limit a file comes back cut to it, visibly (here then over the
    # total, so a smaller one takes its place).
    assert all(i.tokens <= 500 for i in items)
    big = restore_items(msgs, Settings(restore_item_tokens=500), count_tokens)
    assert big[0].key == "src/m29.py" and big[0].content.endswith("chars]")
    assert 450 < big[0].tokens <= 500
    assert sum(i.tokens for i in items) <= 400
    many = restore_items(msgs[:-2], Settings(), count_tokens)
    assert len(many) == 20  # the default: at most 20 items


def test_compaction_restores_items_from_the_dropped_part() -> None:
    s = conversation(40)
    result, _ = run(s, compact_target_tokens=1_500)
    dropped = {
        json.loads(c["function"]["arguments"])["path"]
        for m in s.messages[: result.keep_from]
        for c in m.get("tool_calls") or ()
    }
    assert result.restored and {i.key for i in result.restored} <= dropped
    assert len(result.restored) <= 20
