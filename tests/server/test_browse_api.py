"""The read-only views over REST (recall.server.rest_browse): records page by page, the
article's versions and diffs, an explained query; bad parameters answer 4xx JSON, and a
key never reads another tenant's user on any of them."""

from __future__ import annotations

import string
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient

import recall
from recall.server import ApiKeys, build_app
from recall.server.rest_browse import BROWSE_ENDPOINTS

KEY, BETA = "acme-key-0123456789", "beta-key-0123456789"
AUTH = {"authorization": f"Bearer {KEY}"}
U = "/v1/users/acme:bob"
SMALL = {"short_term_capacity": 2, "promote_count": 2, "vector_partitions": 2}


@pytest.fixture
def mem(tmp_path: Path) -> Iterator[recall.Memory]:
    m = recall.open(settings=recall.Settings(path=tmp_path / "memory", **SMALL))
    yield m
    m.close()


@pytest.fixture
def client(mem: recall.Memory) -> Iterator[TestClient]:
    keys = ApiKeys([(KEY, "acme"), (BETA, "beta")])
    with TestClient(build_app(mem, keys=keys), base_url="http://localhost") as c:
        yield c


WORDS = ["", "apple", "birch", "cedar", "dahlia", "elder", "fennel", "ginger"]


def _notes(mem: recall.Memory, user: str) -> list[str]:
    """Seven records said on 2026-03-01..07, a note or a fact by turns; their ids, newest
    said first."""
    items = [
        {
            "id": f"n{day}",
            "text": f"{user} said {WORDS[day]} grows in the garden",
            "kind": "note" if day % 2 else "fact",
            "created_at": datetime(2026, 3, day, 12, tzinfo=UTC),
        }
        for day in range(1, 8)
    ]
    mem.add_many(items, user_id=user)
    return [f"n{day}" for day in range(7, 0, -1)]


def _article(mem: recall.Memory, user: str) -> None:
    """Three updates, so the first two are promoted into article version 1."""
    for i in range(3):
        turns = [
            {"role": "user", "content": f"I work at Quantix in Toronto. Note {i}."},
            {"role": "user", "content": f"My cat Miso likes the window, day {i}."},
        ]
        mem.update_memory(turns, user_id=user)
    assert mem.long_term(user).version == 1


def test_records_page_by_page_by_kind_and_said_date(client: TestClient, mem: recall.Memory) -> None:
    newest_first = _notes(mem, "acme:bob")
    seen: list[str] = []
    offset: int | None = 0
    while offset is not None:
        r = client.get(f"{U}/records?limit=3&offset={offset}", headers=AUTH)
        assert r.status_code == 200, r.text
        page = r.json()
        assert page["total"] == 7 and page["limit"] == 3 and len(page["records"]) <= 3
        seen += [rec["id"] for rec in page["records"]]
        offset = page["next_offset"]
    assert seen == newest_first
    facts = client.get(f"{U}/records?kind=fact", headers=AUTH).json()
    assert [rec["id"] for rec in facts["records"]] == ["n6", "n4", "n2"]
    both = client.get(f"{U}/records?kind=fact&kind=note&limit=1", headers=AUTH).json()
    assert both["total"] == 7 and both["next_offset"] == 1
    window = client.get(f"{U}/records?since=2026-03-03&until=2026-03-05", headers=AUTH).json()
    assert [rec["id"] for rec in window["records"]] == ["n5", "n4", "n3"]  # until: its whole day
    none = client.get("/v1/users/acme:nobody/records", headers=AUTH)  # a user never held
    assert none.status_code == 404 and "holds no memory here" in none.json()["error"]


def test_article_versions_and_the_diff_after_a_correction(
    client: TestClient, mem: recall.Memory
) -> None:
    assert client.get(f"{U}/long-term/versions", headers=AUTH).status_code == 404  # no user yet
    mem.add("A note first.", user_id="acme:bob")
    assert client.get(f"{U}/long-term/versions", headers=AUTH).json()["versions"] == []
    _article(mem, "acme:bob")
    r = client.get(f"{U}/long-term/versions", headers=AUTH)
    assert r.status_code == 200, r.text
    (v1,) = r.json()["versions"]
    assert v1["version"] == 1 and v1["promoted"] == 2 and v1["tokens"] > 0
    edit = {"old": "Miso", "new": "Mochi"}
    assert client.post(f"{U}/long-term/edit", json=edit, headers=AUTH).status_code == 200
    versions = client.get(f"{U}/long-term/versions", headers=AUTH).json()["versions"]
    assert [v["version"] for v in versions] == [2, 1]  # newest first
    for url in (f"{U}/long-term/diff?old=1&new=2", f"{U}/long-term/diff?old=1"):
        r = client.get(url, headers=AUTH)
        assert r.status_code == 200, r.text
        diff = r.json()
        assert (diff["old"], diff["new"], diff["user_id"]) == (1, 2, "acme:bob")
        lines = [line for c in diff["chapters"] if c["changed"] for line in c["lines"]]
        assert any(x.startswith("-") and "Miso" in x for x in lines)
        assert any(x.startswith("+") and "Mochi" in x for x in lines)
    same = client.get(f"{U}/long-term/diff?old=2&new=2", headers=AUTH).json()
    assert not any(c["changed"] for c in same["chapters"])


def test_explain_answers_the_hits_of_recall_and_the_floored(
    client: TestClient, mem: recall.Memory
) -> None:
    _notes(mem, "acme:bob")
    body = {"query": "where does the elder grow", "top_k": 3}
    r = client.post(f"{U}/explain", json=body, headers=AUTH)
    assert r.status_code == 200, r.text
    explained = r.json()
    assert explained["query"] == body["query"] and set(explained) == {"query", "hits", "floored"}
    recalled = client.post(f"{U}/recall", json=body, headers=AUTH).json()["hits"]
    assert [h["id"] for h in explained["hits"]] == [h["id"] for h in recalled]
    assert explained["hits"][0]["id"] == "n5" and "keyword_rank" in explained["hits"][0]
    only = client.post(f"{U}/explain", json={**body, "kinds": ["fact"]}, headers=AUTH).json()
    assert {h["kind"] for h in only["hits"] + only["floored"]} <= {"fact"}


def test_profile_answers_the_librarys_profile(client: TestClient, mem: recall.Memory) -> None:
    for said in ("I live in Lisbon and I work at Quantix.", "I live in Porto now."):
        turns = [{"role": "user", "content": said}, {"role": "assistant", "content": "Noted."}]
        mem.update_memory(turns, user_id="acme:bob")
    expected = mem.profile("acme:bob")
    assert expected.facts, "the user's own words set no attribute"
    r = client.get(f"{U}/profile", headers=AUTH)
    assert r.status_code == 200, r.text
    assert r.headers["content-type"] == "application/json"
    got = r.json()
    assert got == expected.model_dump(mode="json") and set(got["facts"]) == set(expected.now())
    for attribute, history in got["facts"].items():
        assert history[-1]["superseded_by"] is None, attribute  # the newest value holds now
        assert history[-1]["value"] == expected.now()[attribute].value
    none = client.get("/v1/users/acme:nobody/profile", headers=AUTH)
    assert none.status_code == 404 and none.json() == {
        "error": "user 'acme:nobody' holds no memory here",
        "status": 404,
    }
    refused = client.get("/v1/users/beta:eve/profile", headers=AUTH)
    assert refused.status_code == 403 and "tenant" in refused.json()["error"]
    assert client.get(f"{U}/profile").status_code == 401
    foreign = client.get(f"{U}/profile", headers={**AUTH, "host": "evil.example"})
    assert foreign.status_code == 421 and "Lisbon" not in foreign.text
    page = client.get(f"{U}/profile", headers={**AUTH, "origin": "https://evil.example"})
    assert page.status_code == 403 and "Lisbon" not in page.text
    paths = client.get("/openapi.json").json()["paths"]
    op = paths["/v1/users/{user}/profile"]["get"]
    assert op["responses"]["200"]["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/Profile"
    }


BAD: list[tuple[str, str, Any, int, str]] = [
    ("get", f"{U}/records?limit=0", None, 400, "limit"),
    ("get", f"{U}/records?limit=501", None, 400, "limit"),
    ("get", f"{U}/records?limit=ten", None, 400, "limit must be a whole number"),
    ("get", f"{U}/records?offset=-1", None, 400, "offset must be a whole number"),
    ("get", f"{U}/records?offset=%C2%B2", None, 400, "offset"),  # '²'
    ("get", f"{U}/records?offset={'9' * 5000}", None, 400, "offset"),
    ("get", f"{U}/records?kind=Not%20A%20Kind", None, 400, "kind"),
    ("get", f"{U}/records?since=yesterday", None, 400, "ISO 8601"),
    ("get", f"{U}/records?until=9999-12-31", None, 400, "leave until out"),
    ("get", f"{U}/records?since=0001-01-01T00:00%2B05:00", None, 400, "years 1 to 9999"),
    ("get", f"{U}/records?since={'2' * 100}", None, 400, "since"),
    ("get", f"{U}/records?since=2026-03-05&until=2026-03-01", None, 400, "before until"),
    ("get", f"{U}/records?kinds=note", None, 400, "unknown query parameter 'kinds'"),
    ("get", f"{U}/records?limit=1&limit=2", None, 400, "send limit once"),
    ("get", f"{U}/long-term/versions?version=1", None, 400, "takes none"),
    ("get", f"{U}/long-term/diff", None, 400, "old is required"),
    ("get", f"{U}/long-term/diff?old=one", None, 400, "old must be a whole number"),
    ("get", f"{U}/long-term/diff?old=1&new=-2", None, 400, "new must be a whole number"),
    ("get", f"{U}/long-term/diff?old=0", None, 404, "no article version 0"),
    ("get", f"{U}/long-term/diff?old=3", None, 404, "list them with article_versions"),
    ("post", f"{U}/explain", {"query": ""}, 400, "query"),
    ("post", f"{U}/explain", {"query": "x", "top_k": 0}, 400, "top_k"),
    ("post", f"{U}/explain", {"query": "x", "top_k": 51}, 400, "top_k"),
    ("post", f"{U}/explain", {"qury": "x"}, 400, "Extra inputs"),
    ("post", f"{U}/explain", {"query": "x", "until": "9999-12-31"}, 400, "leave until"),
    ("post", f"{U}/explain", {"query": "x", "kinds": ["B A D"]}, 400, "kind"),
    ("post", f"{U}/recall", {"query": "x", "until": "9999-12-31"}, 400, "leave until"),
    ("get", "/v1/users/%20/records", None, 400, "user_id"),
    ("get", f"{U}/profile?attribute=home", None, 400, "takes none"),
    ("get", "/v1/users/%20/profile", None, 400, "user_id"),
]


def test_bad_parameters_answer_4xx_json_never_500(client: TestClient, mem: recall.Memory) -> None:
    mem.add("Bob holds memory: these are bad requests, not an unknown user.", user_id="acme:bob")
    for method, path, body, status, says in BAD:  # one app for all: each setup costs 0.3 s
        r = client.request(method, path, json=body, headers=AUTH)
        assert r.status_code == status, (path, body, r.text)
        assert r.json()["status"] == status and says in r.json()["error"], (path, r.json())


def test_the_openapi_document_lists_the_views_and_their_parameters(client: TestClient) -> None:
    paths = client.get("/openapi.json").json()["paths"]
    records = paths["/v1/users/{user}/records"]["get"]
    assert {p["name"] for p in records["parameters"]} == {
        "user", "kind", "since", "until", "offset", "limit"}  # fmt: skip
    diff = paths["/v1/users/{user}/long-term/diff"]["get"]
    assert {p["name"]: p["required"] for p in diff["parameters"]} == {
        "user": True, "old": True, "new": False}  # fmt: skip
    assert "requestBody" in paths["/v1/users/{user}/explain"]["post"]
    assert "/v1/users/{user}/long-term/versions" in paths


_CALLS: dict[str, tuple[str, str, dict[str, Any] | None]] = {
    "browse": ("get", "/records", None),
    "article_versions": ("get", "/long-term/versions", None),
    "article_diff": ("get", "/long-term/diff?old=1", None),
    "explain": ("post", "/explain", {"query": "secret garden"}),
    "profile": ("get", "/profile", None),
}


def test_a_key_never_reads_another_tenants_user_on_any_view(mem: recall.Memory) -> None:
    # every new route of a user is covered (/v1/ui-token names no user: test_ui.py)
    assert set(_CALLS) == {e.name for e in BROWSE_ENDPOINTS if "{user}" in e.path}
    owned = {"acme": KEY, "beta": BETA}
    for tenant in owned:
        mem.add_many(
            [{"text": f"{tenant} secret garden {i}", "kind": "note"} for i in range(3)],
            user_id=f"{tenant}:bob",
        )
    keys = ApiKeys([(k, t) for t, k in owned.items()])
    with TestClient(build_app(mem, keys=keys), base_url="http://localhost") as client:

        @settings(
            max_examples=60,
            deadline=None,
            suppress_health_check=[HealthCheck.function_scoped_fixture],
        )
        @given(
            st.sampled_from(sorted(_CALLS)),
            st.sampled_from(["acme", "beta", None]),
            st.sampled_from(["acme", "beta", "gamma"]),
            st.sampled_from(["bob", *string.ascii_lowercase[:3]]),
        )
        def check(route: str, key_of: str | None, owner: str, name: str) -> None:
            method, tail, body = _CALLS[route]
            headers = {"authorization": f"Bearer {owned[key_of]}"} if key_of else {}
            r = client.request(method, f"/v1/users/{owner}:{name}{tail}", json=body,
                               headers=headers)  # fmt: skip
            if key_of is None:
                assert r.status_code == 401, r.text
            elif key_of != owner:
                assert r.status_code == 403 and "tenant" in r.json()["error"], r.text
                assert "secret" not in r.text
            else:  # its own user: an answer (a diff of no article is a 404), never the other's
                assert r.status_code in (200, 404), r.text
                other = "beta" if owner == "acme" else "acme"
                assert f"{other} secret" not in r.text

        check()
