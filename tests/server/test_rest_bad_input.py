"""Every bad input to the REST API is a 4xx JSON answer, never a 500 or a traceback.

The real ASGI app over a real memory, spoken to with httpx's ASGITransport: deep and huge
JSON, non-ASCII digits, bytes that are not UTF-8, unknown routes and methods, metadata
nested too deep (refused when written; and when already stored, it no longer breaks a
recall, a listing or MCP's deep_recall). A hypothesis test throws arbitrary bodies and
query strings at every route.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from typing import Any
from urllib.parse import quote

import anyio
import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mcp import Client

import recall
from recall.models import MAX_METADATA_BYTES, MAX_METADATA_DEPTH
from recall.server import AsyncMemory, build_app, build_mcp

U = "/v1/users/u1"
JSON = {"content-type": "application/json"}


def _nest(depth: int, leaf: Any = 1) -> Any:
    value = leaf
    for _ in range(depth):
        value = {"a": value}
    return value


class Api:
    """A blocking face over httpx's ASGITransport (no lifespan: REST needs none)."""

    def __init__(self, mem: recall.Memory) -> None:
        self.app = build_app(mem)

    def request(self, method: str, path: str, **kwargs: Any) -> httpx.Response:
        async def call() -> httpx.Response:
            transport = httpx.ASGITransport(app=self.app)
            async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as c:
                return await c.request(method, path, **kwargs)

        return anyio.run(call)


@pytest.fixture
def api(mem: recall.Memory) -> Api:
    mem.add("the heron stands in the shallow water", user_id="u1")
    return Api(mem)


def _error(r: httpx.Response, status: int) -> str:
    assert r.status_code == status, r.text
    assert r.headers["content-type"].startswith("application/json")
    body = r.json()
    assert set(body) == {"error", "status"} and body["status"] == status
    return str(body["error"])


# --- metadata limits at write time ---------------------------------------------------------
@pytest.mark.parametrize("depth", [MAX_METADATA_DEPTH + 1, 300, 900])
def test_deep_note_metadata_is_refused(api: Api, mem: recall.Memory, depth: int) -> None:
    body = json.dumps({"notes": [{"text": "deep", "metadata": _nest(depth)}]})
    said = _error(api.request("POST", f"{U}/notes", content=body, headers=JSON), 400)
    assert f"more than {MAX_METADATA_DEPTH} levels" in said
    assert mem._store.counts()["u1"] == {"note": 1}  # nothing written


def test_metadata_at_the_limit_is_stored(api: Api) -> None:
    meta = _nest(MAX_METADATA_DEPTH)
    r = api.request("POST", f"{U}/notes", json={"notes": [{"text": "ok", "metadata": meta}]})
    assert r.status_code == 201
    records = api.request("GET", f"{U}/memories").json()["records"]
    assert [m["metadata"] for m in records if m["text"] == "ok"] == [meta]


def test_metadata_over_the_size_limit_is_refused(mem: recall.Memory) -> None:
    big = {"blob": "x" * MAX_METADATA_BYTES}
    with pytest.raises(recall.InputError, match="bytes as JSON"):
        mem.add("big", user_id="u1", metadata=big)
    with pytest.raises(recall.InputError, match="levels deep"):
        mem.add_many([{"text": "deep", "metadata": _nest(5000)}], user_id="u1")


def test_an_import_with_deep_metadata_is_refused(api: Api, mem: recall.Memory) -> None:
    mem.add("plain", user_id="src", metadata={"k": "v"})
    lines = mem.export_user("src")
    row = json.loads(lines[1])
    row["metadata"] = _nest(300)
    body = lines[0] + json.dumps(row) + "\n"
    said = _error(api.request("POST", "/v1/users/dst/import", content=body, headers=JSON), 400)
    assert "levels deep" in said and mem._store.version("dst") == 0


# --- a stored record with deep metadata never breaks a read ---------------------------------
def _plant(mem: recall.Memory, depth: int) -> None:
    """A record whose metadata is nested ``depth`` deep, written past the validation."""
    mem.add("the planted heron record", user_id="u1", id="deep")
    with mem._store._write() as db:
        db.execute(
            "UPDATE records SET metadata = ? WHERE user_id = ? AND id = ?",
            ('{"a": ' * depth + "1" + "}" * depth, "u1", "deep"),
        )
        db.execute("UPDATE users SET version = version + 1 WHERE user_id = ?", ("u1",))


@pytest.mark.parametrize("depth", [300, 900])
def test_stored_deep_metadata_still_reads(
    api: Api, mem: recall.Memory, depth: int, caplog: pytest.LogCaptureFixture
) -> None:
    _plant(mem, depth)
    caplog.set_level(logging.WARNING)
    found = api.request("POST", f"{U}/recall", json={"query": "planted heron"})
    assert found.status_code == 200, found.text
    (hit,) = [h for h in found.json()["hits"] if h["id"] == "deep"]
    assert hit["text"] == "the planted heron record" and "_recall_dropped" in hit["metadata"]
    listed = api.request("GET", f"{U}/memories")
    assert listed.status_code == 200, listed.text
    assert any(r["id"] == "deep" for r in listed.json()["records"])
    assert any("rewrite the record" in m.lower() for m in caplog.messages)
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]

    async def over_mcp() -> None:
        async with Client(build_mcp(AsyncMemory(mem), default_user="u1", tools="all")) as client:
            result = await client.call_tool("deep_recall", {"query": "planted heron"})
            assert not result.is_error, result.content
            assert "deep" in [h["id"] for h in result.structured_content["hits"]]

    anyio.run(over_mcp)


def test_a_stored_deep_record_still_exports(mem: recall.Memory) -> None:
    _plant(mem, 5000)  # past json's own recursion limit
    (record,) = [r for r in mem.records("u1") if r.id == "deep"]
    assert set(record.metadata) == {"_recall_dropped"}
    assert len(mem.export_user("u1")) == 2  # the header and the record


# --- each input that answered 500 -----------------------------------------------------------
DEEP = "[" * 5000 + "]" * 5000
BIG = "9" * 5000


@pytest.mark.parametrize(
    ("method", "path", "body", "says"),
    [
        ("POST", f"{U}/recall", DEEP, "nested too deep"),
        ("POST", f"{U}/notes", '{"notes": ' + DEEP + "}", "nested too deep"),
        ("POST", f"{U}/recall", '{"query": "x", "top_k": ' + BIG + "}", "digit"),
        ("POST", f"{U}/recall", '{"query": "x", "top_k": NaN}', "NaN"),
        ("POST", f"{U}/notes", '{"notes": [{"text": "x", "metadata": {"a": Infinity}}]}', ""),
        ("POST", f"{U}/relevant", "[1, 2]", "JSON object"),
        ("POST", f"{U}/recall", '"query"', "JSON object"),
        ("POST", f"{U}/recall", '{"query": "x", "\\ud800": 1}', "unicode"),
        ("POST", f"{U}/recall", b'{"query": "\xff"}', "UTF-8"),
        ("GET", f"{U}/long-term?version=%C2%B2", None, "version"),  # ²
        ("GET", f"{U}/long-term?version=%D9%A3", None, "version"),  # Arabic-Indic 3
        ("GET", f"{U}/long-term?version={BIG}", None, "version"),
        ("GET", f"{U}/memories?kind=%00", None, "kind"),
        ("GET", f"{U}/memories?kind=Not%20A%20Kind", None, "kind"),
        ("GET", f"{U}/memories?" + "&".join(f"kind=k{i}" for i in range(100)), None, "kinds"),
        ("POST", "/v1/users/u9/import", b"\xff\xfe not utf-8\n", "UTF-8"),
        ("POST", "/v1/users/u9/import", DEEP + "\n", "nested too deep"),
        ("POST", "/v1/users/u9/import", '{"type": ' + BIG + "}\n", "digit"),
        ("DELETE", f"{U}/memories/a%00b", None, "NUL"),
        ("POST", "/v1/users/u%00/notes", '{"notes": [{"text": "x"}]}', "NUL"),
    ],
)
def test_bad_input_is_a_400(
    api: Api,
    method: str,
    path: str,
    body: str | bytes | None,
    says: str,
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.WARNING)
    answer = api.request(method, path, content=body, headers=JSON if body is not None else None)
    assert says in _error(answer, 400)
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]


def test_unknown_routes_and_methods_answer_json(api: Api) -> None:
    said = _error(api.request("GET", "/v1/nothing-here"), 404)
    assert "/openapi.json" in said
    wrong = api.request("GET", f"{U}/notes")
    assert "POST" in _error(wrong, 405) and wrong.headers["allow"] == "POST"


# --- fuzz: nothing a client sends is a 5xx ---------------------------------------------------
_text = st.text(alphabet=st.characters(codec=None, exclude_categories=()), max_size=20)
_leaf = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats()
    | _text
    | st.sampled_from(["note", "u1", "recent", "archive", "heron", "", "x" * 300])
)
_json = st.recursive(
    _leaf,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(_text, inner, max_size=3),
    max_leaves=10,
)
_fields = st.sampled_from(
    ["query", "top_k", "depth", "kinds", "notes", "text", "metadata", "id", "kind",
     "created_at", "summary", "messages", "background", "input", "max_tokens"]
)  # fmt: skip
_object = st.dictionaries(_fields | _text, _json, max_size=4)
_note = st.dictionaries(st.sampled_from(["text", "kind", "id", "metadata", "created_at"]), _json)
_raw = st.sampled_from(
    [DEEP, "{" * 3000, '{"query": ' + BIG + "}", '{"query": NaN}', "{", "", "null", "\x00",
     '{"query": "\\ud800"}', '{"notes": [{"text": "x", "metadata": ' + json.dumps(_nest(500))
     + "}]}"]
)  # fmt: skip


def _quote(value: str) -> str:
    # Lone surrogates too, as the bytes a client could send for them.
    return quote(value.encode("utf-8", "surrogatepass"), safe="")


def _encode(value: Any) -> bytes:
    return json.dumps(value, ensure_ascii=True).encode()


_bodies = (
    _object.map(_encode)
    | st.builds(lambda notes: _encode({"notes": notes}), st.lists(_note, max_size=3))
    | _json.map(_encode)
    | _raw.map(str.encode)
    | st.binary(max_size=40)
)
_posts = st.sampled_from(["recall", "notes", "memories", "relevant", "import"])
_queries = st.lists(
    st.tuples(st.sampled_from(["kind", "version", "x"]), _text | st.integers().map(str)),
    max_size=4,
).map(lambda pairs: "&".join(f"{k}={_quote(v)}" for k, v in pairs))
_fuzz = settings(
    max_examples=50,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


@pytest.fixture
def quiet_api(api: Api, caplog: pytest.LogCaptureFixture) -> Iterator[Api]:
    caplog.set_level(logging.ERROR)
    yield api
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], caplog.text


def _no_5xx(r: httpx.Response) -> None:
    assert r.status_code < 500, r.text
    if r.status_code >= 400:
        body = r.json()
        assert set(body) == {"error", "status"} and body["status"] == r.status_code


@_fuzz
@given(route=_posts, body=_bodies)
def test_fuzzed_bodies_never_answer_5xx(quiet_api: Api, route: str, body: bytes) -> None:
    user = "fuzz" if route == "import" else "u1"
    _no_5xx(quiet_api.request("POST", f"/v1/users/{user}/{route}", content=body, headers=JSON))


@_fuzz
@given(route=st.sampled_from(["memories", "long-term", "export"]), query=_queries)
def test_fuzzed_queries_never_answer_5xx(quiet_api: Api, route: str, query: str) -> None:
    _no_5xx(quiet_api.request("GET", f"{U}/{route}?{query}"))


@pytest.mark.parametrize("when", ["0001-01-01T00:00:00+14:00", "9999-12-31T23:59:59-14:00"])
def test_a_date_outside_utc_years_is_a_400(api: Api, when: str) -> None:
    body = json.dumps({"notes": [{"text": "edge of time", "created_at": when}]})
    said = _error(api.request("POST", f"{U}/notes", content=body, headers=JSON), 400)
    assert "outside the years 1 to 9999" in said
