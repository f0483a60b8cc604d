"""The smaller doors of issue 35 (item 7), each on a real server on 127.0.0.1: a wrong
method is a JSON 405 with an ``Allow`` header; a request id no request may have gets a
JSON-RPC Invalid Request over HTTP (and over stdio: a real ``recall serve``); a refused edit
does not echo its input; a body that is not UTF-8 is refused saying so; the inspector's
login expires and a logout revokes it; more than one ``Authorization`` header is refused,
and the gate and the handlers read the same key; a 2 s request timeout starts and serves."""

from __future__ import annotations

import json
import queue
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from live_server import live_server
from starlette.applications import Starlette
from starlette.routing import Route
from subproc import recall_env

import recall
from recall.server import ApiKeys
from recall.server.auth import UI_COOKIE
from recall.server.settings import ServerSettings

pytestmark = pytest.mark.slow  # a real server

OPERATOR = "operator-key-0123456789"
ACME = "acme-key-0123456789abc"
AUTH = {"authorization": f"Bearer {OPERATOR}"}
MCP = {**AUTH, "accept": "application/json, text/event-stream"}
BOB = "acme:bob"


def keys() -> ApiKeys:
    return ApiKeys([(OPERATOR, "*"), (ACME, "acme")])


@pytest.fixture
def served(mem: recall.Memory) -> Iterator[tuple[str, Starlette]]:
    mem.add("Bob's article fact: he likes tea.", user_id=BOB)
    mem.add("Eve's secret: 4471.", user_id="other:eve")
    with live_server(mem, keys=keys()) as got:
        yield got


# --- 405 ---------------------------------------------------------------------------------
def test_a_wrong_method_on_every_v1_route_is_a_json_405_with_allow(
    served: tuple[str, Starlette],
) -> None:
    url, app = served
    taken: dict[str, set[str]] = {}
    for route in app.routes:
        if isinstance(route, Route) and route.path.startswith("/v1/"):
            taken.setdefault(route.path, set()).update(route.methods or ())
    assert len(taken) >= 15
    with httpx.Client(base_url=url, headers=AUTH, timeout=30) as http:
        for path, methods in taken.items():
            concrete = path.replace("{user}", "acme:bob").replace("{record_id}", "r1")
            for method in sorted({"PUT", "PATCH", "GET", "POST", "DELETE"} - methods):
                # a body, typed as JSON or not: the method is what is wrong
                for headers in ({}, {"content-type": "text/plain"}):
                    r = http.request(method, concrete, content=b"{}", headers=headers)
                    where = f"{method} {path} {headers}: {r.status_code} {r.text[:120]}"
                    assert r.status_code == 405, where
                    assert r.headers["content-type"] == "application/json", where
                    assert set(r.headers["allow"].split(", ")) == methods, where
                    assert r.json()["status"] == 405 and method in r.json()["error"]


# --- MCP request ids -----------------------------------------------------------------------
BAD_IDS: list[Any] = [{"a": 1}, [1], 1.5, 1.0, True, False, None]


def test_a_bad_request_id_gets_invalid_request_over_http(served: tuple[str, Starlette]) -> None:
    with httpx.Client(base_url=served[0], headers=MCP, timeout=30) as http:
        for rid in BAD_IDS:
            r = http.post("/mcp", json={"jsonrpc": "2.0", "id": rid, "method": "tools/list"})
            assert r.status_code == 400, (rid, r.status_code, r.text)
            got = r.json()
            assert got["id"] is None and got["error"]["code"] == -32600, (rid, got)
            assert "string or an integer" in got["error"]["message"]
        for rid in ("x", 3):  # good ids are served as before
            r = http.post("/mcp", json={"jsonrpc": "2.0", "id": rid, "method": "tools/list"})
            assert r.status_code == 200 and r.json()["id"] == rid, r.text
        # a notification (no id) is still a notification
        note = {"jsonrpc": "2.0", "method": "notifications/initialized"}
        assert http.post("/mcp", json=note).status_code == 202


def test_a_bad_request_id_gets_invalid_request_over_stdio(tmp_path: Path) -> None:
    args = ["-m", "recall.cli", "serve", "--path", str(tmp_path / "memory")]
    log = tmp_path / "serve.log"
    with log.open("wb") as err:
        proc = subprocess.Popen(
            [sys.executable, *args],
            env=recall_env(tmp_path),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=err,
        )
    assert proc.stdin is not None and proc.stdout is not None
    hello = {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t"}}
    lines = [{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": hello}]
    lines += [{"jsonrpc": "2.0", "id": rid, "method": "tools/list"} for rid in BAD_IDS]
    lines += [{"jsonrpc": "2.0", "id": 9, "method": "ping"}]
    try:
        proc.stdin.write("".join(json.dumps(line) + "\n" for line in lines).encode())
        proc.stdin.flush()
        got: queue.Queue[bytes] = queue.Queue()
        threading.Thread(
            target=lambda: any(got.put(x) for x in proc.stdout or ()),  # type: ignore[func-returns-value]
            daemon=True,
        ).start()
        # A line the server drops would leave this waiting: 60 s, then queue.Empty.
        answers = [json.loads(got.get(timeout=60)) for _ in range(len(BAD_IDS) + 2)]
    finally:
        proc.stdin.close()
        proc.wait(timeout=60)
        proc.stdout.close()
    # Refusals are written as each bad line is read, so one may come before the answer to
    # initialize: the order is not checked, only that every line is answered once.
    by_id = [a["id"] for a in answers]
    assert by_id.count(1) == 1 and {"jsonrpc": "2.0", "id": 9, "result": {}} in answers, answers
    refused = [a for a in answers if a["id"] not in (1, 9)]  # every bad line answered
    assert len(refused) == len(BAD_IDS), answers
    assert all(a["id"] is None and a["error"]["code"] == -32600 for a in refused), refused
    assert "Traceback" not in log.read_text(errors="replace")


# --- echoes, encodings -------------------------------------------------------------------
def test_a_refused_edit_does_not_echo_megabytes(served: tuple[str, Starlette]) -> None:
    old = "z" * 7_000_000
    with httpx.Client(base_url=served[0], headers=AUTH, timeout=60) as http:
        for path, body in (
            (f"/v1/users/{BOB}/long-term/edit", {"old": old, "new": "y"}),
            (f"/v1/users/{BOB}/forget", {"text": old}),
        ):
            r = http.post(path, json=body)  # the edit a 400, the forget "nothing held it"
            assert r.status_code < 500 and len(r.content) < 1_000, (path, len(r.content))
            assert r.headers["content-type"] == "application/json"


def test_a_body_that_is_not_utf8_is_refused(served: tuple[str, Starlette]) -> None:
    as_json = {"content-type": "application/json"}
    with httpx.Client(base_url=served[0], headers=MCP, timeout=30) as http:
        for encoding in ("utf-16", "utf-16-be", "utf-32", "latin-1"):
            query = '{"query": "thé"}'.encode(encoding)
            r = http.post(f"/v1/users/{BOB}/recall", content=query, headers=as_json)
            assert r.status_code == 400 and "UTF-8" in r.json()["error"], (encoding, r.text)
            token = http.post(
                "/v1/ui-token", content='{"x": "é"}'.encode(encoding), headers=as_json
            )
            assert token.status_code == 400 and "UTF-8" in token.json()["error"], encoding
            rpc = '{"jsonrpc": "2.0", "id": 1, "method": "tools/list", "x": "é"}'.encode(encoding)
            r = http.post("/mcp", content=rpc, headers=as_json)
            assert r.status_code == 400 and "UTF-8" in r.json()["error"]["message"], r.text


# --- the inspector's login ---------------------------------------------------------------
def _login(http: httpx.Client) -> str:
    got = http.post("/v1/ui-token", json={}, headers=AUTH)
    assert got.status_code == 200, got.text
    return str(got.json()["token"])


def _page(http: httpx.Client, token: str) -> int:
    return http.get(f"/ui/users/{BOB}", headers={"cookie": f"{UI_COOKIE}={token}"}).status_code


def test_a_login_expires(mem: recall.Memory) -> None:
    mem.add("Bob likes tea.", user_id=BOB)
    with (
        live_server(mem, keys=keys(), inspector_login_s=2.0) as (url, _),
        httpx.Client(base_url=url, timeout=30) as http,
    ):
        token = _login(http)
        assert http.post("/v1/ui-token", json={}, headers=AUTH).json()["expires_in"] == 2
        assert _page(http, token) == 200
        time.sleep(2.5)
        expired = http.get("/ui", headers={"cookie": f"{UI_COOKIE}={token}"})
        assert expired.status_code == 401 and "expired" in expired.text
        assert _page(http, _login(http)) == 200  # a new login works


def test_a_logout_revokes_the_token_in_every_process(mem: recall.Memory) -> None:
    mem.add("Bob likes tea.", user_id=BOB)
    with (
        live_server(mem, keys=keys()) as (one, _),
        live_server(mem, keys=keys()) as (two, _),  # another worker over the same folder
        httpx.Client(base_url=one, timeout=30) as a,
        httpx.Client(base_url=two, timeout=30) as b,
    ):
        token, kept = _login(a), _login(a)
        assert _page(a, token) == 200 and _page(b, token) == 200
        out = a.get("/ui/logout", headers={"cookie": f"{UI_COOKIE}={token}"})
        assert out.status_code == 200 and "Max-Age=0" in out.headers["set-cookie"]
        assert _page(a, token) == 401 and _page(b, token) == 401  # refused after logout
        assert _page(b, kept) == 200  # another login of the same key is its own
        # A tampered token (its time stretched) is no token.
        kid, issued, nonce, mac = kept.split(".")
        assert _page(a, f"{kid}.{int(issued) + 3600}.{nonce}.{mac}") == 401


# --- one reading of Authorization --------------------------------------------------------
def test_one_authorization_header_and_one_reading(served: tuple[str, Starlette]) -> None:
    with httpx.Client(base_url=served[0], timeout=30) as http:
        path = f"/v1/users/{BOB}/memories"
        for name, values in (
            ("authorization", [f"Bearer {OPERATOR}", f"Bearer {ACME}"]),
            ("authorization", [f"Bearer {ACME}", f"Bearer {OPERATOR}"]),
            ("x-api-key", [OPERATOR, ACME]),
            ("cookie", [f"{UI_COOKIE}=a", f"{UI_COOKIE}=b"]),
        ):
            r = http.get(path, headers=[(name, v) for v in values])
            assert r.status_code == 400, (name, r.text)
            assert r.headers["content-type"] == "application/json" and "one" in r.json()["error"]
        # Authorization and X-API-Key both: the gate and the handler read the same one
        both = [("authorization", f"Bearer {ACME}"), ("x-api-key", OPERATOR)]
        assert http.get(f"/v1/users/{BOB}/memories", headers=both).status_code == 200
        eve = http.get("/v1/users/other:eve/export", headers=both)
        assert eve.status_code == 403 and "4471" not in eve.text  # acme's, not the operator's
        assert http.get("/v1/stats", headers=both).status_code == 403


# --- a short request timeout -------------------------------------------------------------
def test_a_two_second_request_timeout_starts_and_serves(tmp_path: Path) -> None:
    from live_server import free_port

    port = free_port()
    env = {**recall_env(tmp_path), "RECALL_SERVER_REQUEST_TIMEOUT_S": "2"}
    args = ["-m", "recall.cli", "serve", "--transport", "http", "--port", str(port)]
    log = tmp_path / "serve.log"
    with log.open("wb") as err:
        proc = subprocess.Popen(
            [sys.executable, *args, "--path", str(tmp_path / "memory")], env=env, stderr=err
        )
    try:
        url = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 120
        while "ready at" not in log.read_text(errors="replace"):
            assert proc.poll() is None, log.read_text(errors="replace")
            assert time.monotonic() < deadline, log.read_text(errors="replace")
            time.sleep(0.2)
        note = {"notes": [{"text": "Bob likes green tea."}]}
        assert httpx.post(f"{url}/v1/users/bob/notes", json=note, timeout=30).status_code == 201
        hits = httpx.post(f"{url}/v1/users/bob/recall", json={"query": "tea"}, timeout=30)
        assert hits.status_code in (200, 504), hits.text  # 504: JSON, within the 2 s
        assert hits.headers["content-type"] == "application/json"
    finally:
        proc.terminate()
        proc.wait(timeout=60)
    assert "Traceback" not in log.read_text(errors="replace")


def test_a_sub_second_request_timeout_still_lets_requests_finish_at_shutdown(
    mem: recall.Memory,
) -> None:
    from recall.server.app import uvicorn_options

    conf = ServerSettings().model_copy(update={"request_timeout_s": 0.5})
    assert uvicorn_options(conf)["timeout_graceful_shutdown"] == 1  # int(0.5) was 0
