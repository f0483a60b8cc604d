"""forget / edit / rollback for agents: MCP tools, REST endpoints, CLI commands."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import anyio
import httpx
import pytest
from click.testing import CliRunner
from mcp import Client

import recall
from recall.cli import main
from recall.server import ApiKeys, AsyncMemory, build_app, build_mcp
from recall.server.settings import ServerSettings

pytestmark = pytest.mark.slow

SMALL = {"short_term_capacity": 2, "promote_count": 2, "vector_partitions": 2}
KEY, BETA = "acme-key-0123456789", "beta-key-0123456789"
AUTH = {"authorization": f"Bearer {KEY}"}
U = "/v1/users/acme:bob"


@pytest.fixture
def mem(tmp_path: Path, embedder: recall.Embedder) -> Iterator[recall.Memory]:
    m = recall.open(settings=recall.Settings(path=tmp_path / "memory", **SMALL))
    m._embedder = embedder
    yield m
    m.close()


def fill(mem: recall.Memory, user: str) -> None:
    for i in range(4):
        mem.update_memory(
            [
                {"role": "user", "content": f"I work at Quantix in Toronto. Note {i}."},
                {"role": "user", "content": f"My cat Miso likes the window, day {i}."},
            ],
            user_id=user,
        )
    assert "Quantix" in mem.long_term(user).render()


def holds(mem: recall.Memory, user: str, word: str) -> bool:
    texts = [r.text for r in mem.records(user)]
    texts += [f"{a.bedrock}{a.evolutionary}{a.dynamic}" for a in mem._store.articles(user)]
    return any(word.lower() in t.lower() for t in texts)


# --- MCP ----------------------------------------------------------------------------------
def _ok(result: Any) -> dict[str, Any]:
    assert not result.is_error, result.content
    out: dict[str, Any] = result.structured_content
    return out


def _error(result: Any) -> str:
    assert result.is_error
    return str(result.content[0].text)


def test_mcp_tools_forget_edit_rollback_and_the_pin(mem: recall.Memory) -> None:
    fill(mem, "u1")
    fill(mem, "u2")

    async def run() -> None:
        async with Client(build_mcp(AsyncMemory(mem), default_user="u1", tools="all")) as client:
            names = {t.name for t in (await client.list_tools()).tools}
            assert {"forget_fact", "edit_fact", "rollback", "forget"} <= names
            before = mem.long_term("u1").version
            edited = _ok(await client.call_tool("edit_fact", {"old": "Miso", "new": "Mochi"}))
            assert edited["version"] == before + 1 and "Mochi" in edited["bedrock"] + (
                edited["evolutionary"] + edited["dynamic"]
            )
            back = _ok(await client.call_tool("rollback", {"version": before}))
            assert back["version"] == before + 2 and "Mochi" not in str(back)
            done = _ok(await client.call_tool("forget_fact", {"text": "Quantix"}))
            assert done["rewritten"] and done["version"] == before + 3
            assert "not in the article" in _error(
                await client.call_tool("edit_fact", {"old": "Globex", "new": "x"})
            )
            assert "no long-term version" in _error(
                await client.call_tool("rollback", {"version": 999})
            )
            pinned = _error(
                await client.call_tool("forget_fact", {"text": "Quantix", "user_id": "u2"})
            )
            assert "serves user 'u1' only" in pinned
            assert _error(await client.call_tool("forget_fact", {"text": "Q"}))

    anyio.run(run)
    assert not holds(mem, "u1", "Quantix")
    assert holds(mem, "u2", "Quantix")  # the pin kept u2 out of reach


# --- REST ---------------------------------------------------------------------------------
@asynccontextmanager
async def _client(mem: recall.Memory) -> AsyncIterator[httpx.AsyncClient]:
    keys = ApiKeys([(KEY, "acme"), (BETA, "beta")])
    every = ServerSettings().model_copy(update={"tools": "all"})  # forget_fact over MCP
    app = build_app(mem, keys=keys, settings=every)
    transport = httpx.ASGITransport(app=app)
    async with (
        app.router.lifespan_context(app),  # MCP's session manager runs in it
        httpx.AsyncClient(transport=transport, base_url="http://localhost") as c,
    ):
        yield c


def test_rest_forget_edit_rollback_with_checks(mem: recall.Memory) -> None:
    fill(mem, "acme:bob")
    fill(mem, "beta:eve")

    async def run() -> None:
        async with _client(mem) as c:
            # Another tenant's key cannot touch acme's user.
            r = await c.post(f"{U}/forget", json={"text": "Quantix"}, headers={
                "authorization": f"Bearer {BETA}"})  # fmt: skip
            assert r.status_code == 403 and "tenant" in r.json()["error"]
            r = await c.post(f"{U}/forget", json={"text": "Quantix"})
            assert r.status_code == 401
            # Bad input: 4xx JSON.
            bad: list[dict[str, Any]] = [
                {},
                {"text": "Q"},
                {"text": "Quantix", "extra": 1},
                {"ids": []},
            ]
            for body in bad:
                r = await c.post(f"{U}/forget", json=body, headers=AUTH)
                assert r.status_code == 400, body
                assert r.json()["status"] == 400
            r = await c.post(f"{U}/forget", content=b'{"text": "Quantix"}', headers={
                **AUTH, "content-type": "text/plain"})  # fmt: skip
            assert r.status_code == 415
            r = await c.post(f"{U}/long-term/rollback", json={"version": "1"}, headers=AUTH)
            assert r.status_code == 400
            r = await c.post(f"{U}/long-term/rollback", json={"version": 999}, headers=AUTH)
            assert r.status_code == 404
            r = await c.post(
                f"{U}/long-term/edit", json={"old": "Globex", "new": "x"}, headers=AUTH
            )
            assert r.status_code == 400 and "not in the article" in r.json()["error"]
            # The corrections themselves.
            before = mem.long_term("acme:bob").version
            r = await c.post(
                f"{U}/long-term/edit", json={"old": "Miso", "new": "Mochi"}, headers=AUTH
            )
            assert r.status_code == 200 and r.json()["version"] == before + 1
            r = await c.post(f"{U}/long-term/rollback", json={"version": before}, headers=AUTH)
            assert r.status_code == 200 and "Mochi" not in r.text
            key = {**AUTH, "idempotency-key": "forget-1"}
            r = await c.post(f"{U}/forget", json={"text": "Quantix"}, headers=key)
            assert r.status_code == 200 and r.json()["rewritten"], r.text
            again = await c.post(f"{U}/forget", json={"text": "Quantix"}, headers=key)
            assert again.json() == r.json()  # the remembered answer, nothing redone
            other = await c.post(f"{U}/forget", json={"text": "Toronto"}, headers=key)
            assert other.status_code == 422
            doc = (await c.get("/openapi.json")).json()
            forget_op = doc["paths"][f"{U.replace('acme:bob', '{user}')}/forget"]["post"]
            assert "Idempotency-Key" in {p["name"] for p in forget_op["parameters"]}

    anyio.run(run)
    assert not holds(mem, "acme:bob", "Quantix")
    assert holds(mem, "beta:eve", "Quantix")


def test_mcp_over_http_checks_the_tenant(mem: recall.Memory) -> None:
    fill(mem, "beta:eve")

    async def run() -> None:
        async with _client(mem) as c:
            call = {
                "jsonrpc": "2.0",
                "id": 1,
                "method": "tools/call",
                "params": {
                    "name": "forget_fact",
                    "arguments": {"user_id": "beta:eve", "text": "Quantix"},
                },
            }
            headers = {**AUTH, "accept": "application/json, text/event-stream"}
            r = await c.post("/mcp", json=call, headers=headers)
            assert r.status_code == 200, r.text
            result = r.json()["result"]
            assert result["isError"] and "tenant 'acme'" in result["content"][0]["text"]

    anyio.run(run)
    assert holds(mem, "beta:eve", "Quantix")


# --- CLI ----------------------------------------------------------------------------------
def test_cli_forget_edit_rollback(tmp_path: Path, embedder: recall.Embedder) -> None:
    folder = tmp_path / "memory"
    with recall.open(settings=recall.Settings(path=folder, **SMALL)) as mem:
        mem._embedder = embedder
        fill(mem, "u1")
        note = mem.add("The vault PIN is 9921.", user_id="u1")
        before = mem.long_term("u1").version
    run = CliRunner().invoke
    base = ["--path", str(folder)]
    r = run(main, ["memory", "edit", "Miso", "Mochi", "--user", "u1", *base])
    assert r.exit_code == 0 and f"version {before + 1}" in r.output, r.output
    r = run(main, ["memory", "rollback", str(before), "--user", "u1", *base])
    assert r.exit_code == 0 and f"version {before + 2}" in r.output, r.output
    r = run(main, ["memory", "rollback", "999", "--user", "u1", *base])
    assert r.exit_code == 1 and "error: " in r.output and "no long-term version" in r.output
    r = run(main, ["forget", "Quantix", "--user", "u1", *base])
    assert r.exit_code == 0 and "older versions scrubbed" in r.output, r.output
    r = run(main, ["forget", "--id", note, "--user", "u1", "--json", *base])
    assert r.exit_code == 0 and note in r.output
    r = run(main, ["forget", "Quantix", "--user", "u1", *base])
    assert "nothing held it" in r.output
    r = run(main, ["forget", "--user", "u1", *base])
    assert r.exit_code == 2
    r = run(main, ["forget", "x", "--user", "u1", *base])
    assert r.exit_code == 1 and "at least 2" in r.output
    with recall.open(settings=recall.Settings(path=folder, **SMALL)) as mem:
        assert not holds(mem, "u1", "Quantix") and not holds(mem, "u1", "9921")
