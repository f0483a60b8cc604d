"""The REST API in process: the real ASGI app (Starlette TestClient) over a real memory."""

from __future__ import annotations

import time
from collections.abc import Iterator

import anyio
import pytest
from starlette.testclient import TestClient

import recall
from recall.server import ApiKeys, AsyncMemory, build_app
from recall.server.corrections import CORRECTION_ENDPOINTS
from recall.server.rest import ENDPOINTS
from recall.server.settings import ServerSettings

KEY, OPERATOR = "acme-key-0123456789", "operator-key-0123456789"
AUTH = {"authorization": f"Bearer {KEY}"}
U = "/v1/users/acme:bob"
LOCAL = "http://localhost"
JSONL = {**AUTH, "content-type": "application/x-ndjson"}


@pytest.fixture
def client(mem: recall.Memory) -> Iterator[TestClient]:
    keys = ApiKeys([(KEY, "acme"), (OPERATOR, "*")])
    settings = ServerSettings().model_copy(update={"max_body_bytes": 4096})
    # The Gate answers only Host names of this server: TestClient's "testserver" is not one.
    with TestClient(build_app(mem, keys=keys, settings=settings), base_url=LOCAL) as c:
        yield c


def test_remember_recall_read_and_forget(client: TestClient) -> None:
    r = client.post(
        f"{U}/memories", json={"summary": "We chose Redis for the cache."}, headers=AUTH
    )
    assert r.status_code == 201 and r.json()["short_term_count"] == 1
    r = client.post(
        f"{U}/notes", json={"notes": [{"text": "Deploys run on Fridays."}]}, headers=AUTH
    )
    assert r.status_code == 201
    (note_id,) = r.json()["ids"]
    r = client.post(f"{U}/recall", json={"query": "which cache", "top_k": 1}, headers=AUTH)
    assert r.status_code == 200
    (hit,) = r.json()["hits"]
    assert hit["text"] == "We chose Redis for the cache." and hit["vector_score"] is not None
    kinds = client.get(f"{U}/memories?kind=note", headers=AUTH).json()["records"]
    assert [m["id"] for m in kinds] == [note_id]
    block = client.post(f"{U}/relevant", json={"input": "cache?"}, headers=AUTH).json()["text"]
    assert "Redis" in block
    assert client.get(f"{U}/long-term", headers=AUTH).json()["version"] == 0
    assert client.delete(f"{U}/memories/{note_id}", headers=AUTH).json() == {"deleted": 1}
    gone = client.delete(f"{U}/memories/{note_id}", headers=AUTH)
    assert gone.status_code == 404 and note_id in gone.json()["error"]


def test_export_import_and_delete_a_user(client: TestClient) -> None:
    client.post(f"{U}/notes", json={"notes": [{"text": "likes green tea"}]}, headers=AUTH)
    export = client.get(f"{U}/export", headers=AUTH)
    assert export.status_code == 200
    assert export.headers["content-type"].startswith("application/x-ndjson")
    clash = client.post(f"{U}/import", content=export.content, headers=JSONL)
    assert clash.status_code == 409 and "already holds memory" in clash.json()["error"]
    moved = client.post("/v1/users/acme:ann/import", content=export.content, headers=JSONL)
    assert moved.status_code == 201 and moved.json()["records"] == 1
    done = client.delete(U, headers=AUTH)
    assert done.status_code == 200 and done.json()["records"] == 1 and done.json()["vectors"] == 1
    assert client.delete(U, headers=AUTH).status_code == 404
    assert client.get(f"{U}/export", headers=AUTH).status_code == 404
    hits = client.post("/v1/users/acme:ann/recall", json={"query": "tea"}, headers=AUTH).json()
    assert [h["text"] for h in hits["hits"]] == ["likes green tea"]


@pytest.mark.parametrize(
    ("method", "path", "body", "status", "says"),
    [
        ("post", f"{U}/recall", {"query": ""}, 400, "query"),
        ("post", f"{U}/recall", {"query": "x", "top_k": 0}, 400, "top_k"),
        ("post", f"{U}/recall", {"qury": "x"}, 400, "Extra inputs"),
        (
            "post",
            f"{U}/memories",
            {"summary": "a", "messages": [{"role": "user"}]},
            400,
            "exactly one",
        ),
        ("get", f"{U}/long-term?version=7", None, 404, "user 'acme:bob' holds no memory here"),
        ("post", f"{U}/recall", {"query": "x"}, 404, "user 'acme:bob' holds no memory here"),
        ("get", f"{U}/memories", None, 404, "user 'acme:bob' holds no memory here"),
        ("get", f"{U}/long-term?version=x", None, 400, "non-negative integer"),
        ("post", "/v1/users/beta:bob/recall", {"query": "x"}, 403, "tenant 'acme'"),
        ("post", "/v1/users/acme/recall", {"query": "x"}, 403, "tenant 'acme'"),
        ("get", "/v1/stats", None, 403, "operator key"),
    ],
)
def test_bad_requests_get_a_fitting_status_and_a_message(
    client: TestClient, method: str, path: str, body: object, status: int, says: str
) -> None:
    r = client.request(method, path, json=body, headers=AUTH)
    assert r.status_code == status, r.text
    assert r.json()["status"] == status and says in r.json()["error"]


def test_not_json_and_too_large_bodies(client: TestClient) -> None:
    as_json = {**AUTH, "content-type": "application/json"}
    r = client.post(f"{U}/recall", content=b"{oops", headers=as_json)
    assert r.status_code == 400 and "not JSON" in r.json()["error"]
    r = client.post(f"{U}/recall", content=b"x" * 5000, headers=as_json)
    assert r.status_code == 413 and "4096 bytes" in r.json()["error"]
    # Refused for its type before its size: the gate reads no body it will refuse anyway.
    assert client.post(f"{U}/recall", content=b"x" * 5000, headers=AUTH).status_code == 415

    def chunks() -> Iterator[bytes]:  # no Content-Length: cut off while streaming
        for _ in range(10):
            yield b"y" * 1000

    r = client.post(f"{U}/import", content=chunks(), headers=JSONL)
    assert r.status_code == 413


def test_keys_are_required_and_checked(client: TestClient) -> None:
    r = client.post(f"{U}/recall", json={"query": "x"})
    assert r.status_code == 401 and r.headers["www-authenticate"] == "Bearer"
    r = client.post(f"{U}/recall", json={"query": "x"}, headers={"x-api-key": "not-a-key-at-all!"})
    assert r.status_code == 401 and r.json()["error"] == "unknown API key"
    assert (
        client.get("/v1/stats", headers={"authorization": f"Bearer {OPERATOR}"}).json()["users"]
        == 0
    )
    assert client.get("/healthz").json()["status"] == "ok"  # liveness needs no key
    assert client.post("/mcp", json={}).status_code == 401  # nor does MCP go around it


def test_no_keys_means_loopback_clients_only(mem: recall.Memory) -> None:
    with TestClient(build_app(mem), client=("203.0.113.9", 40000), base_url=LOCAL) as remote:
        r = remote.post(f"{U}/recall", json={"query": "x"})
        assert r.status_code == 403 and "loopback clients only" in r.json()["error"]
    mem.add("Bob holds memory.", user_id="acme:bob")
    with TestClient(build_app(mem), client=("127.0.0.1", 40000), base_url=LOCAL) as local:
        assert local.post(f"{U}/recall", json={"query": "zzzz"}).json()["hits"] == []


def test_a_store_that_is_down_answers_503(client: TestClient, mem: recall.Memory) -> None:
    mem._store.close()
    r = client.post(f"{U}/recall", json={"query": "x"}, headers=AUTH)
    assert r.status_code == 503 and "SQLite failed" in r.json()["error"]


def test_the_openapi_document_matches_the_routes(client: TestClient) -> None:
    doc = client.get("/openapi.json").json()
    assert doc["openapi"].startswith("3.")
    ops = {(p, m.upper()) for p, methods in doc["paths"].items() for m in methods}
    assert ops == {(e.path, e.method) for e in (*ENDPOINTS, *CORRECTION_ENDPOINTS)}
    recall_op = doc["paths"]["/v1/users/{user}/recall"]["post"]
    body = recall_op["requestBody"]["content"]["application/json"]["schema"]["$ref"]
    schema = doc["components"]["schemas"][body.rsplit("/", 1)[1]]
    assert schema["required"] == ["query"] and schema["properties"]["top_k"]["maximum"] == 50
    assert "ErrorBody" in doc["components"]["schemas"]


def test_the_async_face_keeps_the_loop_free_and_times_out(mem: recall.Memory) -> None:
    ticks = 0

    async def ticker() -> None:
        nonlocal ticks
        while True:
            await anyio.sleep(0.01)
            ticks += 1

    async def main() -> None:
        async with anyio.create_task_group() as tg:
            tg.start_soon(ticker)
            await AsyncMemory(mem).run(time.sleep, 0.3)  # CPU-style blocking work
            tg.cancel_scope.cancel()
        started = time.perf_counter()
        with pytest.raises(TimeoutError):
            await AsyncMemory(mem, timeout_s=0.05).run(time.sleep, 1.0)
        assert time.perf_counter() - started < 0.5  # answered at the timeout, not after

    anyio.run(main)
    assert ticks >= 10  # the loop kept running while the call blocked its thread
