"""``recall serve --user u1`` pins every surface, on a real server on 127.0.0.1 (issue 35,
item 6): every route of the app that names a user, found in the app's own route table (a
route added later is covered without a change here), refuses any other user with a 403,
whatever the operator key allows, and never reaches that user's memory; the listings (the
inspector's users, /v1/stats, MCP's stats) show the pinned user alone."""

from __future__ import annotations

import json
from collections.abc import Iterator
from urllib.parse import quote

import httpx
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from live_server import live_server
from starlette.applications import Starlette
from starlette.routing import Route

import recall
from recall.server import ApiKeys
from recall.server.corrections import CORRECTION_ENDPOINTS
from recall.server.rest import ENDPOINTS
from recall.testing import HashEmbedder

pytestmark = pytest.mark.slow  # a real server

PIN = "u1"
OTHERS = ["u2", "U1", "u10", "acme:u1", "u1.x"]
SECRET = "the door code is 4471"
OPERATOR = "operator-key-0123456789"
AUTH = {"authorization": f"Bearer {OPERATOR}"}
MCP = {**AUTH, "accept": "application/json, text/event-stream"}


@pytest.fixture(scope="module")
def served(
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[tuple[str, Starlette, recall.Memory]]:
    folder = tmp_path_factory.mktemp("pinned") / "memory"
    mem = recall.open(
        settings=recall.Settings(path=folder, vector_partitions=4), embedder=HashEmbedder()
    )
    mem.add("The pinned user's note about tea.", user_id=PIN)
    for uid in OTHERS:
        mem.add(f"{uid}'s secret: {SECRET}.", user_id=uid)
    # The operator key may touch every user: only the pin refuses them.
    with live_server(mem, keys=ApiKeys([(OPERATOR, "*")]), default_user=PIN) as (url, app):
        yield url, app, mem
    mem.close()


def user_routes(app: Starlette) -> list[tuple[str, str]]:
    """(method, path) of every route of ``app`` whose path names a user."""
    return [
        (method, route.path)
        for route in app.routes
        if isinstance(route, Route) and "user" in route.param_convertors
        for method in sorted((route.methods or {"GET"}) - {"HEAD"})
    ]


def _ask(http: httpx.Client, method: str, path: str, uid: str) -> httpx.Response:
    url = path.replace("{user:path}", quote(uid, safe=":")).replace("{user}", quote(uid, safe=":"))
    url = url.replace("{record_id}", "r1")
    if method != "POST":
        return http.request(method, url)
    if url.startswith("/ui/"):  # the inspector's corrections take its form
        return http.post(url, data={"id": "r1", "csrf": "0" * 64})
    return http.post(url, json={})


def test_the_route_table_is_found(served: tuple[str, Starlette, recall.Memory]) -> None:
    found = user_routes(served[1])
    paths = {p for _, p in found}
    # Every REST and correction route of the tables that names a user is among them, and
    # the inspector's.
    table = {(e.method, e.path) for e in (*ENDPOINTS, *CORRECTION_ENDPOINTS) if "{user}" in e.path}
    assert table <= set(found) and len(found) > len(table), found
    assert {"/v1/users/{user}", "/ui/users/{user:path}", "/ui/forget/{user:path}"} <= paths
    assert ("DELETE", "/v1/users/{user}") in found and ("POST", "/ui/edit/{user:path}") in found


@settings(
    max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(uid=st.from_regex(r"[A-Za-z0-9][A-Za-z0-9:._-]{0,23}", fullmatch=True))
@example(uid="u2")
@example(uid="U1")
@example(uid="u10")
@example(uid="acme:u1")
@example(uid="u1.x")
def test_every_route_refuses_another_user(
    served: tuple[str, Starlette, recall.Memory], uid: str
) -> None:
    if uid == PIN:
        return
    url, app, mem = served
    before = {u: [r.text for r in mem.records(u)] for u in OTHERS}
    with httpx.Client(base_url=url, headers=AUTH, timeout=30) as http:
        for method, path in user_routes(app):
            r = _ask(http, method, path, uid)
            where = f"{method} {path} as {uid!r}: {r.status_code} {r.text[:200]}"
            assert r.status_code == 403, where
            assert SECRET not in r.text, where
            if path.startswith("/v1/"):
                assert r.headers["content-type"] == "application/json", where
                assert f"serves user '{PIN}' only" in r.json()["error"], where
            else:  # the inspector answers a page, with the same words
                assert "serves user" in r.text and "text/html" in r.headers["content-type"]
    # Nothing reached their memory: no write, no erasure.
    assert {u: [r.text for r in mem.records(u)] for u in OTHERS} == before
    assert len(mem.records(PIN)) == 1


def test_the_pinned_user_is_served(served: tuple[str, Starlette, recall.Memory]) -> None:
    with httpx.Client(base_url=served[0], headers=AUTH, timeout=30) as http:
        hits = http.post(f"/v1/users/{PIN}/recall", json={"query": "tea"})
        assert hits.status_code == 200 and "tea" in hits.text
        assert http.get(f"/v1/users/{PIN}/export").status_code == 200
        assert http.get(f"/ui/users/{PIN}").status_code == 200


def test_the_listings_show_the_pinned_user_alone(
    served: tuple[str, Starlette, recall.Memory],
) -> None:
    with httpx.Client(base_url=served[0], headers=AUTH, timeout=30) as http:
        page = http.get("/ui")
        assert page.status_code == 200 and f'href="/ui/users/{PIN}"' in page.text
        for uid in OTHERS:
            assert f"/ui/users/{quote(uid, safe=':')}" not in page.text, uid
        stats = http.get("/v1/stats").json()
        assert stats["users"] == 1 and stats["records"] == 1, stats
        read = {"jsonrpc": "2.0", "id": 1, "method": "resources/read"}
        got = http.post("/mcp", json={**read, "params": {"uri": "recall://stats"}}, headers=MCP)
        assert got.status_code == 200, got.text
        assert json.loads(got.json()["result"]["contents"][0]["text"])["users"] == 1


def test_mcp_over_http_refuses_another_user(
    served: tuple[str, Starlette, recall.Memory],
) -> None:
    call = {"jsonrpc": "2.0", "id": 7, "method": "tools/call"}
    with httpx.Client(base_url=served[0], headers=MCP, timeout=30) as http:
        for uid in OTHERS:
            args = {"query": "door code", "user_id": uid}
            r = http.post(
                "/mcp", json={**call, "params": {"name": "deep_recall", "arguments": args}}
            )
            assert r.status_code == 200 and r.json()["result"]["isError"] is True, r.text
            assert SECRET not in r.text and f"serves user '{PIN}' only" in r.text
