"""Memory tiers: notes stay put, the archive is searchable, the cap and the bounded backlog.

Real parts throughout (SQLite, embedded Chroma, the packaged embedder); every check reads
back through the public API (``records``, ``short_term``, ``long_term``, ``deep_recall``).
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

import recall
from recall.lifecycle.tiers import LIFECYCLE_KINDS

T0 = datetime(2024, 3, 1, tzinfo=UTC)


def _summaries(n: int) -> list[dict[str, object]]:
    return [
        {
            "text": f"Week {i}: the team shipped release {100 + i} of the billing service.",
            "kind": "short_term",
            "id": f"s{i:03d}",
            "created_at": T0 + timedelta(days=i),
        }
        for i in range(n)
    ]


def test_notes_are_never_promoted_and_stay_in_the_recent_tier(
    settings: recall.Settings, embedder: recall.Embedder
) -> None:
    s = settings.replace(short_term_capacity=2, promote_count=2)
    with recall.open(settings=s) as mem:
        note = mem.add("The office wifi password is on the fridge.", user_id="u1")
        for i in range(5):
            mem.update_memory(f"Day {i}: we reviewed pull request {700 + i}.", user_id="u1")
        assert mem.long_term("u1").version >= 1  # promotions ran
        (kept,) = mem.records("u1", kinds=["note"])
        assert kept.id == note and kept.kind == "note"
        assert "note" not in LIFECYCLE_KINDS
        hits = mem.deep_recall("wifi password", user_id="u1", depth="recent", top_k=1)
        assert hits[0].id == note


def test_promoted_summaries_stay_reachable_through_the_archive_tier(
    settings: recall.Settings, embedder: recall.Embedder
) -> None:
    s = settings.replace(short_term_capacity=2, promote_count=2)
    with recall.open(settings=s) as mem:
        first = mem.update_memory("Our VPN gateway moved to vpn2.example.org.", user_id="u1")
        for i in range(4):
            mem.update_memory(f"Day {i}: lunch was ramen number {i}.", user_id="u1")
        assert first.summary_id not in {r.id for r in mem.short_term("u1")}  # promoted
        archived = mem.records("u1", kinds=["archive"])
        assert f"ar-{first.summary_id}" in {r.id for r in archived}
        deep = mem.deep_recall("Where is the VPN gateway?", user_id="u1", depth="archive")
        assert any("vpn2.example.org" in h.text for h in deep)
        # The default depth is the archive tier: a plain call finds it too.
        plain = mem.deep_recall("Where is the VPN gateway?", user_id="u1")
        assert any("vpn2.example.org" in h.text for h in plain)
        recent_kinds = {h.kind for h in mem.deep_recall("VPN", user_id="u1", depth="recent")}
        assert recent_kinds <= {"note", "short_term", "dynamic"}


def test_past_segment_cap_the_oldest_summaries_are_archived_not_deleted(
    settings: recall.Settings, embedder: recall.Embedder
) -> None:
    # Promotion is as slow as it can be (one per call) and the cap low: the backlog of 12
    # hand-written short-term summaries is capped at once, the oldest archived unpromoted.
    s = settings.replace(
        short_term_capacity=3, promote_count=1, segment_cap=5, promotions_per_call=1
    )
    with recall.open(settings=s) as mem:
        mem.add_many(_summaries(12), user_id="u1")
        res = mem.update_memory("Week 12: the billing service moved to Kubernetes.", user_id="u1")
        capped = [r for r in mem.records("u1", kinds=["archive"]) if "capped_at" in r.metadata]
        assert [r.metadata["summary_id"] for r in capped] == [f"s{i:03d}" for i in range(8)]
        assert res.versions == [1]  # one promotion in this call, the rest queued
        assert mem.flush(timeout=60)
        assert len(mem.short_term("u1")) == 3
        total = len(mem.records("u1", kinds=["short_term", "archive"]))
        assert total == 13  # nothing lost: 12 hand-written + 1 update
        hits = mem.deep_recall("release 101 of the billing service", user_id="u1", top_k=3)
        assert any("release 101" in h.text for h in hits)  # a capped summary, still found


def test_one_call_runs_a_bounded_number_of_promotions(
    settings: recall.Settings, embedder: recall.Embedder
) -> None:
    s = settings.replace(short_term_capacity=4, promote_count=2, promotions_per_call=2)
    with recall.open(settings=s) as mem:
        mem.add_many(_summaries(14), user_id="u1")  # a backlog: 15 after the call, capacity 4
        res = mem.update_memory("Week 14: on-call rotation changed to Mondays.", user_id="u1")
        assert res.versions == [1, 2] and res.short_term_count == 11
        assert mem.flush(timeout=60)  # the journaled job finishes the backlog
        assert len(mem.short_term("u1")) == 3
        assert mem.long_term("u1").version == 6
        assert not mem._lifecycle().failed_jobs()


def test_turns_can_be_switched_off(settings: recall.Settings, embedder: recall.Embedder) -> None:
    messages = [{"role": "user", "content": "I moved to Lisbon last spring."}]
    with recall.open(settings=settings.replace(keep_turns=False)) as mem:
        mem.update_memory(messages, user_id="u1")
        assert mem.records("u1", kinds=["turn"]) == []
    with recall.open(settings=settings.replace(path=settings.storage.path / "b")) as mem:
        mem.update_memory(messages, user_id="u1")
        (turn,) = mem.records("u1", kinds=["turn"])
        assert turn.text == "I moved to Lisbon last spring." and turn.metadata["role"] == "user"


@pytest.mark.parametrize("depth", ["shallow", 3, ""])
def test_a_bad_depth_is_an_input_error(mem: recall.Memory, depth: object) -> None:
    with pytest.raises(recall.InputError, match="depth must be 'recent' or 'archive'"):
        mem.deep_recall("anything", user_id="u1", depth=depth)  # type: ignore[arg-type]


def test_the_tool_passes_depth_through(mem: recall.Memory) -> None:
    mem.add("Old archive: the launch was in March.", user_id="u1", kind="archive")
    call = {
        "id": "c1",
        "type": "function",
        "function": {
            "name": "deep_recall",
            "arguments": '{"query": "launch", "depth": "recent"}',
        },
    }
    recent = mem.handle_tool_call(call, user_id="u1")
    assert "March" not in recent["content"]
    call["function"]["arguments"] = '{"query": "launch", "depth": "archive"}'  # type: ignore[index]
    assert "March" in mem.handle_tool_call(call, user_id="u1")["content"]
