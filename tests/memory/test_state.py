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
