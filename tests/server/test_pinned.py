"""``recall serve --user U`` serves U only on every surface (issue 35, item 6): REST, the
inspector and MCP refuse any other user, whatever the key allows (a property over every
REST route that names a user); and the smaller doors of item 7. The real ASGI app
(Starlette TestClient) over a real memory."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from starlette.testclient import TestClient

import recall
from recall.server import ApiKeys, build_app
from recall.server.corrections import CORRECTION_ENDPOINTS
from recall.server.rest import ENDPOINTS
from recall.server.rest_endpoint import Endpoint
from recall.server.settings import ServerSettings

LOCAL = "http://localhost"
OPERATOR = "operator-key-0123456789"
USER_ROUTES = [e for e in (*ENDPOINTS, *CORRECTION_ENDPOINTS) if "{user}" in e.path]


@pytest.fixture
def pinned(mem: recall.Memory) -> Iterator[TestClient]:
    mem.add("The pinned user's note about tea.", user_id="u1")
    mem.add("Someone else's secret: the door code is 4471.", user_id="u2")
    # The operator's key may touch every user: the pin still refuses all but u1.
    keys = ApiKeys([(OPERATOR, "*")])
    app = build_app(mem, keys=keys, default_user="u1")
    with TestClient(app, base_url=LOCAL, headers={"authorization": f"Bearer {OPERATOR}"}) as c:
        yield c


@pytest.mark.parametrize("route", USER_ROUTES, ids=lambda e: f"{e.method} {e.path}")
def test_every_rest_route_refuses_another_user(pinned: TestClient, route: Endpoint) -> None:
    path = route.path.replace("{user}", "u2").replace("{record_id}", "x")
    body: dict[str, object] | None = {} if route.method == "POST" else None
    answer = pinned.request(route.method, path, json=body)
    assert answer.status_code == 403, (path, answer.text)
    assert "serves user 'u1' only" in answer.json()["error"]
    assert "4471" not in answer.text


def test_the_pinned_user_is_served(pinned: TestClient) -> None:
    hits = pinned.post("/v1/users/u1/recall", json={"query": "tea"})
    assert hits.status_code == 200 and "tea" in hits.text
    assert pinned.get("/v1/users/u1/export").status_code == 200


def test_the_inspector_shows_the_pinned_user_only(pinned: TestClient) -> None:
    users = pinned.get("/ui")
    assert users.status_code == 200 and "u1" in users.text and "u2" not in users.text
    other = pinned.get("/ui/users/u2")
    assert other.status_code == 403 and "4471" not in other.text
    assert pinned.get("/ui/users/u1").status_code == 200


# --- smaller doors (issue 35, item 7) ------------------------------------------------------
def test_a_method_no_route_takes_is_405_not_415(pinned: TestClient) -> None:
    for method in ("PUT", "PATCH"):
        answer = pinned.request(method, "/v1/users/u1/recall", content=b"x")
        assert answer.status_code == 405, (method, answer.text)


def test_two_authorization_headers_are_refused(pinned: TestClient) -> None:
    twice = [("authorization", f"Bearer {OPERATOR}"), ("authorization", "Bearer other-key-0000")]
    answer = pinned.get("/v1/users/u1/export", headers=twice)
    assert answer.status_code == 400 and "one Authorization header" in answer.json()["error"]
    keys = [("x-api-key", OPERATOR), ("x-api-key", OPERATOR)]
    assert pinned.get("/v1/users/u1/export", headers=keys).status_code == 400


def test_a_refused_edit_does_not_echo_the_whole_text(pinned: TestClient) -> None:
    old = "z" * 100_000
    answer = pinned.post("/v1/users/u1/long-term/edit", json={"old": old, "new": "y"})
    assert answer.status_code in (400, 404) and len(answer.text) < 2_000, answer.status_code


def test_a_body_that_is_not_utf8_is_refused(pinned: TestClient) -> None:
    body = '{"query": "tea"}'.encode("utf-16")
    answer = pinned.post(
        "/v1/users/u1/recall", content=body, headers={"content-type": "application/json"}
    )
    assert answer.status_code == 400 and "UTF-8" in answer.json()["error"]


def test_the_openapi_document_is_built_once(
    pinned: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    import recall.server.openapi

    first = pinned.get("/openapi.json")
    monkeypatch.setattr(recall.server.openapi, "openapi_document", lambda: {"rebuilt": True})
    again = pinned.get("/openapi.json")
    assert first.status_code == again.status_code == 200 and first.content == again.content
    assert "/v1/users/{user}/recall" in first.json()["paths"]


def test_a_short_request_timeout_does_not_stop_the_start(mem: recall.Memory) -> None:
    # The models load before the port opens, under no request's timeout.
    conf = ServerSettings().model_copy(update={"request_timeout_s": 0.001})
    keys = ApiKeys([(OPERATOR, "*")])
    app = build_app(mem, keys=keys, settings=conf)
    with TestClient(app, base_url=LOCAL) as client:
        assert client.get("/healthz").status_code == 200
