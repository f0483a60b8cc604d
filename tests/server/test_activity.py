"""The activity log per user (recall.server.activity): each write, recall and correction
through MCP, REST and the inspector recorded with its client and tenant, never the memory's
text, a query or a key; bounded; shown on the user page to its tenant only; deleted with
the user."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Callable, Coroutine, Iterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import anyio
import httpx
import httpx2
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from test_ui_seed import BOB, KEY, OTHER_KEY, QUERY, keys, seed

import recall
from recall.server import AsyncMemory, build_app, build_mcp
from recall.server.activity import ActivityLog, Event
from recall.server.settings import ServerSettings
from recall.server.ui.fix import FormTokens

LOCAL = "http://127.0.0.1:8765"
AUTH = {"authorization": f"Bearer {KEY}"}
#: Words that are in bob's memory or in what the tests send: never in a log file.
SECRETS = ("Priya", "amoxicillin", "Ottoline", "Goes by Otto", "Fridays", "lighthouse", QUERY)
Check = Callable[[httpx.AsyncClient], Coroutine[Any, Any, None]]


@pytest.fixture
def mem(tmp_path: Path) -> Iterator[recall.Memory]:
    m = seed(tmp_path / "memory")
    yield m
    m.close()


def _serve(mem: recall.Memory, check: Check) -> None:
    app = build_app(mem, keys=keys())

    async def main() -> None:
        transport = httpx.ASGITransport(app=app, client=("127.0.0.1", 50000))
        async with httpx.AsyncClient(transport=transport, base_url=LOCAL) as http:
            await check(http)

    anyio.run(main)


def _log_file(mem: recall.Memory, user_id: str) -> Path:
    files = list((mem.path / "server" / "activity").glob("*.jsonl"))
    path = ActivityLog(mem.path)._path(user_id)
    assert path in files and user_id not in path.name
    return path


def _private(raw: bytes) -> None:
    for word in (*SECRETS, KEY, OTHER_KEY):
        assert word.encode() not in raw, word


def _events(mem: recall.Memory, user_id: str = BOB) -> list[tuple[str, str, str | None]]:
    return [(e.action, e.client, e.tenant) for e in ActivityLog(mem.path).recent(user_id)]


def test_rest_records_each_write_recall_and_correction(mem: recall.Memory) -> None:
    async def check(http: httpx.AsyncClient) -> None:
        u = f"/v1/users/{BOB}"
        notes = {"notes": [{"text": "Deploys on Fridays."}, {"text": "The lighthouse key."}]}
        idem = {**AUTH, "idempotency-key": "notes-1"}
        for _ in range(2):  # the retry gets the first answer back: recorded once
            assert (await http.post(f"{u}/notes", json=notes, headers=idem)).status_code == 201
        said = {"summary": "The lighthouse is painted red."}
        assert (await http.post(f"{u}/memories", json=said, headers=AUTH)).status_code == 201
        found = await http.post(f"{u}/recall", json={"query": QUERY}, headers=AUTH)
        hits = len(found.json()["hits"])
        assert (await http.post(f"{u}/explain", json={"query": QUERY}, headers=AUTH)).is_success
        doomed = next(r.id for r in mem.records(BOB) if "Priya" in r.text)
        assert (await http.delete(f"{u}/memories/{doomed}", headers=AUTH)).status_code == 200
        gone = await http.post(f"{u}/forget", json={"text": "Fridays"}, headers=AUTH)
        assert gone.status_code == 200, gone.text
        old = {"old": "amoxicillin", "new": "Goes by Otto"}
        edited = await http.post(f"{u}/long-term/edit", json=old, headers=AUTH)
        assert edited.status_code == 200, edited.text
        version = edited.json()["version"]
        back = await http.post(f"{u}/long-term/rollback", json={"version": 1}, headers=AUTH)
        assert back.status_code == 200, back.text
        refused = await http.post(f"{u}/long-term/rollback", json={"version": 99}, headers=AUTH)
        assert refused.status_code == 404  # a failure is not recorded
        exported = (await http.get(f"{u}/export", headers=AUTH)).content
        nd = {**AUTH, "content-type": "application/x-ndjson"}
        r = await http.post("/v1/users/acme:carl/import", content=exported, headers=nd)
        assert r.status_code == 201, r.text
        await check_details(hits, version)

    async def check_details(hits: int, version: int) -> None:
        events = ActivityLog(mem.path).recent(BOB)
        assert [(e.action, e.client, e.tenant) for e in events] == [
            (a, "rest", "acme")
            for a in (
                "rollback",
                "edit_fact",
                "forget_fact",
                "forget",
                "explain",
                "deep_recall",
                "remember",
                "add",
            )
        ]
        details = {e.action: e.detail for e in events}
        assert details["add"] == "2 records"
        assert details["deep_recall"] == f"{hits} hit{'' if hits == 1 else 's'}"
        assert details["forget"] == "1 record"
        assert details["forget_fact"].startswith("1 record")
        assert details["edit_fact"] == f"version {version}"
        assert details["rollback"] == f"version {version + 1}"
        assert [e.at for e in events] == sorted((e.at for e in events), reverse=True)

    _serve(mem, check)
    carl = ActivityLog(mem.path).recent("acme:carl")
    assert [(e.action, e.client, e.tenant) for e in carl] == [("import", "rest", "acme")]
    assert re.fullmatch(r"\d+ records, \d+ article versions", carl[0].detail)
    _private(_log_file(mem, BOB).read_bytes())


@asynccontextmanager
async def _mcp_over_http(mem: recall.Memory) -> AsyncIterator[Client]:
    every = ServerSettings().model_copy(update={"tools": "all"})
    app = build_app(mem, keys=keys(), settings=every)
    async with (
        app.router.lifespan_context(app),  # MCP's session manager runs in it
        httpx2.AsyncClient(
            transport=httpx2.ASGITransport(app=app), base_url="http://localhost", headers=AUTH
        ) as http,
        Client(streamable_http_client("http://localhost/mcp", http_client=http)) as client,
    ):
        yield client


def test_mcp_records_tool_calls_with_the_keys_tenant(mem: recall.Memory) -> None:
    async def run() -> None:
        async with _mcp_over_http(mem) as client:
            user = {"user_id": BOB}
            for tool, args in (
                ("deep_recall", {"query": QUERY}),
                ("explain_recall", {"query": QUERY}),
                ("remember", {"summary": "The lighthouse is painted red."}),
                ("long_term", {}),  # a read that is neither a recall nor a write
                ("forget_fact", {"text": "Priya owns"}),
                ("edit_fact", {"old": "amoxicillin", "new": "Goes by Otto"}),
                ("rollback", {"version": 1}),
            ):
                result = await client.call_tool(tool, {**args, **user})
                assert not result.is_error, (tool, result)
            denied = await client.call_tool("deep_recall", {"query": "x", "user_id": "beta:eve"})
            assert denied.is_error
            doomed = next(r.id for r in mem.records(BOB) if "Deploys go out" in r.text)
            assert not (await client.call_tool("forget", {"ids": [doomed], **user})).is_error

    anyio.run(run)
    assert _events(mem) == [
        (a, "mcp", "acme")
        for a in (
            "forget",
            "rollback",
            "edit_fact",
            "forget_fact",
            "remember",
            "explain",
            "deep_recall",
        )
    ]
    assert _events(mem, "beta:eve") == []
    assert ActivityLog(mem.path).recent(BOB)[0].detail == "1 record"
    _private(_log_file(mem, BOB).read_bytes())


def test_mcp_without_keys_records_no_tenant(mem: recall.Memory) -> None:
    log = ActivityLog(mem.path)

    async def run() -> None:
        server = build_mcp(AsyncMemory(mem), default_user=BOB, activity=log)
        async with Client(server) as client:
            assert not (await client.call_tool("deep_recall", {"query": QUERY})).is_error

    anyio.run(run)
    assert _events(mem) == [("deep_recall", "mcp", None)]


def test_the_inspector_records_queries_and_corrections_and_shows_them(
    mem: recall.Memory,
) -> None:
    doomed = next(r for r in mem.records(BOB) if "Priya" in r.text)
    token = FormTokens(mem.path).make(keys().identity(KEY), BOB)  # a header key's forms

    async def check(http: httpx.AsyncClient) -> None:
        page = f"/ui/users/{BOB}"
        assert (await http.get(page, params={"q": QUERY}, headers=AUTH)).status_code == 200
        form = {"id": doomed.id, "csrf": token}
        done = await http.post(f"/ui/forget/{BOB}", data=form, headers=AUTH)
        assert done.status_code == 303, done.text
        said = await http.post(f"/v1/users/{BOB}/recall", json={"query": "x"}, headers=AUTH)
        assert said.is_success
        shown = await http.get(page, headers=AUTH)
        assert shown.status_code == 200
        section = shown.text.split('id="activity"', 1)[1]
        rows = re.findall(r'<span class="kind">([a-z_]+)</span>', section)
        assert rows == ["deep_recall", "forget", "query"]  # newest first
        assert "rest <span" in section and "inspector <span" in section
        assert '<a href="#activity"' in shown.text
        other = await http.get(page, headers={"authorization": f"Bearer {OTHER_KEY}"})
        assert other.status_code == 403
        assert 'id="activity"' not in other.text and "deep_recall" not in other.text

    _serve(mem, check)
    assert _events(mem) == [
        ("deep_recall", "rest", "acme"),
        ("forget", "inspector", "acme"),
        ("query", "inspector", "acme"),
    ]
    _private(_log_file(mem, BOB).read_bytes())


def test_deleting_the_user_deletes_its_log(mem: recall.Memory) -> None:
    async def check(http: httpx.AsyncClient) -> None:
        u = f"/v1/users/{BOB}"
        assert (await http.post(f"{u}/recall", json={"query": QUERY}, headers=AUTH)).is_success
        assert ActivityLog(mem.path)._path(BOB).exists()
        assert (await http.delete(u, headers=AUTH)).status_code == 200

    _serve(mem, check)
    assert not ActivityLog(mem.path)._path(BOB).exists()
    assert ActivityLog(mem.path).recent(BOB) == []


def test_the_log_is_bounded_and_skips_torn_lines(tmp_path: Path) -> None:
    log = ActivityLog(tmp_path, keep=3)
    path = log._path("u1")
    for n in range(6):
        log.record("u1", "remember", f"{n} records", "rest", None)
    assert len(path.read_bytes().splitlines()) == 6  # not past 2 * keep: appended
    log.record("u1", "remember", "6 records", "rest", None)
    assert len(path.read_bytes().splitlines()) == 3  # past it: the newest keep remain
    assert [e.detail for e in log.recent("u1")] == ["6 records", "5 records", "4 records"]
    with path.open("ab") as out:
        out.write(b'{"at": "torn\n')
    log.record("u1", "forget", "1 record", "mcp", "acme")
    newest = log.recent("u1")[0]
    assert isinstance(newest, Event) and newest.at.tzinfo is not None
    assert (newest.action, newest.client, newest.tenant) == ("forget", "mcp", "acme")
    assert log.recent("u2") == []
    log.drop("u1")
    log.drop("u1")  # gone already: no error
    assert not path.exists()


def test_a_log_that_cannot_be_written_never_fails_the_call(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    (tmp_path / "server").write_text("a file where the log's folder would be")
    log = ActivityLog(tmp_path)
    log.record("u1", "remember", "1 record", "rest", None)  # no exception: the call succeeded
    assert log.recent("u1") == []
    assert "activity log was not written" in caplog.text
