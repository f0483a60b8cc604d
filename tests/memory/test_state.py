"""The facade's account of itself (recall.memory.state): what a service reads instead of
reaching into the store or the index (issue 34)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

import recall
from recall import InputError


def test_users_and_index_state_follow_the_writes(mem: recall.Memory) -> None:
    assert mem.users() == []
    assert mem.index_state().users == []
    mem.add("The cache is Redis.", user_id="ana")
    mem.add("Deploys go through Fly.io.", user_id="ana", kind="fact")
    mem.add("Tea, not coffee.", user_id="bo")
    assert sorted(mem.users()) == ["ana", "bo"]
    state = mem.index_state()
    assert state.spec == mem.stats()["spec"] and state.fingerprint
    rows = {r.user_id: r for r in state.users}
    assert rows["ana"].records == 2 and rows["ana"].kinds == {"fact": 1, "note": 1}
    assert rows["bo"].records == 1 and not rows["bo"].lagging
    assert mem.record_counts() == {"ana": {"fact": 1, "note": 1}, "bo": {"note": 1}}
    only = mem.index_state("bo")
    assert [r.user_id for r in only.users] == ["bo"]
    assert mem.index_state("nobody").users == []


def test_article_version_starts_at_zero_and_rejects_a_bad_user(mem: recall.Memory) -> None:
    mem.add("hello", user_id="ana")
    assert mem.article_version("ana") == 0
    with pytest.raises(InputError):
        mem.article_version("")


def test_a_keyed_write_runs_once(mem: recall.Memory) -> None:
    assert mem.claim_key("ana", "k1", "req-a").state == "new"
    assert mem.claim_key("ana", "k1", "req-a").state == "running"
    assert mem.claim_key("ana", "k1", "req-b").state == "mismatch"
    assert mem.claim_key("bo", "k1", "req-b").state == "new"  # keys are per user
    mem.finish_key("ana", "k1", 201, '{"ok": true}')
    done = mem.claim_key("ana", "k1", "req-a")
    assert (done.state, done.status, done.body) == ("done", 201, '{"ok": true}')
    mem.release_key("bo", "k1")  # a failed write frees its key
    assert mem.claim_key("bo", "k1", "req-c").state == "new"
    mem.release_key("ana", "k1")  # but never a remembered answer
    assert mem.claim_key("ana", "k1", "req-a").state == "done"


def test_no_failed_jobs_on_a_healthy_memory(mem: recall.Memory) -> None:
    chat = [
        {"role": "user", "content": "I moved to Leeds."},
        {"role": "assistant", "content": "Noted."},
    ]
    mem.update_memory(chat, user_id="ana", background=True)
    assert mem.flush(30)
    assert mem.failed_jobs() == []
    # A job that gave up (journaled as the lifecycle's worker does) is listed with its error.
    at = datetime(2026, 11, 1, tzinfo=UTC)
    mem._store.add_job("j9", "ana", at, {"states": []})
    assert not mem._store.record_job_failure("j9", "the summarizer timed out", max_attempts=1)
    (failed,) = mem.failed_jobs()
    assert (failed.job_id, failed.user_id, failed.attempts) == ("j9", "ana", 1)
    assert failed.error == "the summarizer timed out" and failed.created_at == at


def test_each_thing_takes_one_hit_slot(mem: recall.Memory) -> None:
    # Issue 36: a text stored twice, and the asker's own question stored before the search.
    first = mem.add("Noted, the cache stays on Redis.", user_id="ana")
    mem.add("noted,  the cache stays on Redis.", user_id="ana")  # the same words again
    other = mem.add("We compared Redis and Memcached for the cache.", user_id="ana")
    # The agent stored the turn with the question before searching for it.
    mem.update_memory([{"role": "user", "content": "Which cache did we pick?"}], user_id="ana")
    hits = mem.deep_recall("Which cache did we pick?", user_id="ana", top_k=5)
    texts = [" ".join(h.text.casefold().split()) for h in hits]
    assert len(texts) == len(set(texts))
    assert "which cache did we pick?" not in texts
    assert {first, other} <= {h.id for h in hits}
    # A note holding the query's very words is what an exact search looks for: found.
    note = mem.add("Which cache did we pick?", user_id="bo")
    assert mem.deep_recall("which cache did we pick?", user_id="bo", top_k=3)[0].id == note


def test_the_same_conversation_sent_twice_is_stored_once(mem: recall.Memory) -> None:
    chat = [
        {"role": "user", "content": "I moved to Leeds in March."},
        {"role": "assistant", "content": "Noted."},
    ]
    one = mem.update_memory(chat, user_id="ana")
    count = len(mem.records("ana"))
    again = mem.update_memory([dict(m) for m in chat], user_id="ana")
    assert again.duplicate and again.summary_id == one.summary_id and not one.duplicate
    assert len(mem.records("ana")) == count  # nothing new written
    other = mem.update_memory(chat, user_id="bo")  # another user's is their own
    assert not other.duplicate
    changed = mem.update_memory(
        [*chat, {"role": "user", "content": "And got a cat."}], user_id="ana"
    )
    assert not changed.duplicate and len(mem.records("ana")) > count
