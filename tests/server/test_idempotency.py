"""REST writes sent with an Idempotency-Key run once: a retry gets the first answer and
writes nothing, even after the first request timed out (504) while its write went on.

The real ASGI app over a real memory (httpx's ASGITransport), and the key table itself on
both store backends.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import anyio
import httpx
import pytest

import recall
from recall.server import build_app
from recall.server.settings import ServerSettings
from recall.store import SQLiteStore, idempotency
from recall.store.factory import open_store

U = "/v1/users/u1"
NOTES = {"notes": [{"text": "Deploys run on Fridays."}, {"text": "The cache is Redis."}]}


def _client(mem: recall.Memory, **server: Any) -> Callable[..., httpx.Response]:
    settings = ServerSettings().model_copy(update=server)
    app = build_app(mem, settings=settings)

    def request(method: str, path: str, key: str | None = None, **kw: Any) -> httpx.Response:
        headers = {"content-type": "application/json"}
        if key is not None:
            headers["idempotency-key"] = key

        async def call() -> httpx.Response:
            transport = httpx.ASGITransport(app=app)
            async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as c:
                return await c.request(method, path, headers=headers, **kw)

        return anyio.run(call)

    return request


def _notes(mem: recall.Memory, user: str = "u1") -> int:
    return mem._store.counts().get(user, {}).get("note", 0)


def test_the_same_key_stores_once_and_returns_the_same_ids(mem: recall.Memory) -> None:
    post = _client(mem)
    first = post("POST", f"{U}/notes", key="k-1", json=NOTES)
    assert first.status_code == 201 and len(first.json()["ids"]) == 2
    version = mem._store.version("u1")
    again = post("POST", f"{U}/notes", key="k-1", json=NOTES)
    assert again.status_code == 201 and again.json() == first.json()
    assert again.headers["idempotent-replayed"] == "true"
    assert _notes(mem) == 2 and mem._store.version("u1") == version  # nothing written
    other = post("POST", f"{U}/notes", key="k-2", json=NOTES)
    assert other.status_code == 201 and set(other.json()["ids"]).isdisjoint(first.json()["ids"])
    assert _notes(mem) == 4
    plain = post("POST", f"{U}/notes", json=NOTES)  # no key: every request writes
    assert plain.status_code == 201 and _notes(mem) == 6


def test_a_key_is_per_user_and_per_request(mem: recall.Memory) -> None:
    post = _client(mem)
    assert post("POST", f"{U}/notes", key="k", json=NOTES).status_code == 201
    assert post("POST", "/v1/users/u2/notes", key="k", json=NOTES).status_code == 201
    assert _notes(mem, "u2") == 2
    reused = post("POST", f"{U}/notes", key="k", json={"notes": [{"text": "else"}]})
    assert reused.status_code == 422 and "different request" in reused.json()["error"]
    assert _notes(mem) == 2
    bad = post("POST", f"{U}/notes", key="x" * 300, json=NOTES)
    assert bad.status_code == 400 and "Idempotency-Key" in bad.json()["error"]


def test_update_memory_and_import_take_a_key(mem: recall.Memory) -> None:
    post = _client(mem)
    said = {"summary": "We chose Redis for the cache."}
    first = post("POST", f"{U}/memories", key="m", json=said)
    again = post("POST", f"{U}/memories", key="m", json=said)
    assert first.status_code == again.status_code == 201 and again.json() == first.json()
    assert mem._store.counts()["u1"] == {"short_term": 1}
    export = "".join(mem.export_user("u1"))
    moved = post("POST", "/v1/users/u3/import", key="i", content=export)
    assert moved.status_code == 201
    # Without the key the same import would be a 409 (u3 holds memory now).
    replay = post("POST", "/v1/users/u3/import", key="i", content=export)
    assert replay.status_code == 201 and replay.json() == moved.json()


def test_a_failed_write_frees_its_key(mem: recall.Memory) -> None:
    post = _client(mem)
    mem.add("likes green tea", user_id="src")
    export = "".join(mem.export_user("src"))
    mem.add("already here", user_id="u4")
    clash = post("POST", "/v1/users/u4/import", key="f", content=export)
    assert clash.status_code == 409  # refused inside the write: the key is free again
    mem.delete_user("u4")
    assert post("POST", "/v1/users/u4/import", key="f", content=export).status_code == 201


def test_a_running_write_is_not_run_twice(mem: recall.Memory) -> None:
    post = _client(mem)
    fingerprint_of_other = "x" * 64
    assert idempotency.begin(mem._store, "u1", "busy", fingerprint_of_other).state == "new"
    assert post("POST", f"{U}/notes", key="busy", json=NOTES).status_code == 422
    # The same request while its first run still writes: 409, retry later.
    post("POST", f"{U}/notes", key="run", json=NOTES)
    with mem._store._write() as db:
        db.execute("UPDATE idempotency SET status = NULL WHERE idem_key = 'run'")
    running = post("POST", f"{U}/notes", key="run", json=NOTES)
    assert running.status_code == 409 and "still running" in running.json()["error"]


@pytest.mark.slow
def test_a_timed_out_write_says_so_and_its_retry_writes_nothing(
    mem: recall.Memory, monkeypatch: pytest.MonkeyPatch
) -> None:
    slow_add = mem.add_many

    def add_many(*args: Any, **kwargs: Any) -> list[str]:
        time.sleep(1.0)  # outlives the request timeout below
        return slow_add(*args, **kwargs)

    monkeypatch.setattr(mem, "add_many", add_many)
    post = _client(mem, request_timeout_s=0.2)
    late = post("POST", f"{U}/notes", key="t", json=NOTES)
    assert late.status_code == 504
    assert "may still complete" in late.json()["error"]
    assert "Idempotency-Key" in late.json()["error"]
    deadline = time.monotonic() + 30
    while _notes(mem) < 2:  # the abandoned thread finishes the write
        assert time.monotonic() < deadline
        time.sleep(0.05)
    retry: httpx.Response | None = None
    while retry is None or retry.status_code == 409:  # until the answer is remembered
        assert time.monotonic() < deadline
        time.sleep(0.05)
        retry = post("POST", f"{U}/notes", key="t", json=NOTES)
    assert retry.status_code == 201 and _notes(mem) == 2
    assert sorted(retry.json()["ids"]) == sorted(r.id for r in mem.records("u1"))


def test_answers_live_in_the_store(backend: str | None, tmp_path: Any) -> None:
    """Another connection (another process) sees the answer; erasing the user removes it."""
    one = open_store(tmp_path, backend)
    two = open_store(tmp_path, backend)
    try:
        assert idempotency.begin(one, "u1", "k", "req").state == "new"
        assert idempotency.begin(two, "u1", "k", "req").state == "running"
        assert idempotency.begin(two, "u1", "k", "other").state == "mismatch"
        idempotency.finish(one, "u1", "k", 201, '{"ids": ["a"]}')
        assert idempotency.begin(two, "u1", "k", "req") == idempotency.Claim(
            "done", 201, '{"ids": ["a"]}'
        )
        assert idempotency.begin(two, "u2", "k", "req").state == "new"  # per user
        idempotency.release(two, "u2", "k")
        assert idempotency.begin(one, "u2", "k", "req").state == "new"
        # A reservation a dead process left is taken over once stale; answers expire.
        later = time.time() + idempotency.STALE_S + 1
        assert idempotency.begin(two, "u2", "k", "req", now=later).state == "new"
        expired = time.time() + idempotency.TTL_S + 1
        assert idempotency.begin(two, "u1", "k", "req", now=expired).state == "new"
        assert one.delete_user("u1")["idempotency"] == 1
    finally:
        one.close()
        two.close()


def test_the_table_comes_with_the_schema(tmp_path: Any) -> None:
    store = SQLiteStore(tmp_path / "s.sqlite3")
    try:
        assert store.schema_version() >= 2
        assert idempotency.begin(store, "u1", "k", "r").state == "new"
    finally:
        store.close()


def test_the_openapi_document_names_the_header() -> None:
    from recall.server.openapi import openapi_document

    paths = openapi_document()["paths"]
    for path in ("notes", "memories", "import"):
        params = paths[f"/v1/users/{{user}}/{path}"]["post"]["parameters"]
        assert "Idempotency-Key" in [p["name"] for p in params if p["in"] == "header"]
    assert "parameters" not in paths["/v1/users/{user}/recall"]["post"] or all(
        p["in"] != "header" for p in paths["/v1/users/{user}/recall"]["post"]["parameters"]
    )


def test_a_key_used_again_for_other_notes_never_replaces_the_old_ones(
    mem: recall.Memory,
) -> None:
    post = _client(mem)
    first = post("POST", f"{U}/notes", key="req-1", json=NOTES).json()["ids"]
    with mem._store._write() as db:  # the answer expired (TTL): the key is free again
        db.execute("DELETE FROM idempotency WHERE idem_key = 'req-1'")
    other = {"notes": [{"text": "The office moved to Ghent."}, {"text": "Standup at 9."}]}
    second = post("POST", f"{U}/notes", key="req-1", json=other).json()["ids"]
    assert not set(first) & set(second)
    texts = {r.text for r in mem.records("u1")}
    assert {"Deploys run on Fridays.", "The office moved to Ghent."} <= texts


def test_a_write_that_failed_after_storing_answers_what_it_stored(
    mem: recall.Memory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The summary commits (with its answer), then the promotion fails: the retry gets
    the answer of what was stored and stores nothing; a failure before the commit frees
    the key, so the retry runs."""
    post = _client(mem)
    life = mem._lifecycle()

    def fails(*_args: object, **_kw: object) -> None:
        raise recall.LLMError("the LLM endpoint answered 500")

    monkeypatch.setattr(life, "_promote_all", fails)
    body = {"summary": "We picked Redis for the cache."}
    assert post("POST", f"{U}/memories", key="m1", json=body).status_code == 502
    again = post("POST", f"{U}/memories", key="m1", json=body)
    assert again.status_code == 201 and again.headers["idempotent-replayed"] == "true"
    [summary] = mem.records("u1", ["short_term"])  # stored once
    assert again.json()["summary_id"] == summary.id and not again.json()["promoted"]
    monkeypatch.setattr(life, "_summarize", fails)  # now it fails before anything commits
    other = {"summary": "The office moved to Ghent."}
    assert post("POST", f"{U}/memories", key="m2", json=other).status_code == 502
    monkeypatch.undo()
    retry = post("POST", f"{U}/memories", key="m2", json=other)
    assert retry.status_code == 201 and "idempotent-replayed" not in retry.headers
    assert len(mem.records("u1", ["short_term"])) == 2
