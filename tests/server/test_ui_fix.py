"""Corrections from the inspector over the ASGI app: each confirmation page, the POST that
changes memory, and every refusal (a foreign Origin, a missing or wrong form token, another
tenant, bad fields) leaving memory as it was."""

from __future__ import annotations

import re
from collections.abc import Callable, Coroutine, Iterator
from typing import Any

import anyio
import httpx
import pytest
from test_ui_seed import BOB, KEY, OTHER_KEY, keys, seed

import recall
from recall.server import ApiKeys, build_app
from recall.server.auth import UI_COOKIE

LOCAL = "http://127.0.0.1:8765"
AUTH = {"authorization": f"Bearer {KEY}"}
Check = Callable[[httpx.AsyncClient], Coroutine[Any, Any, None]]


@pytest.fixture
def mem(tmp_path: Any) -> Iterator[recall.Memory]:
    m = seed(tmp_path / "memory")
    yield m
    m.close()


def _serve(mem: recall.Memory, check: Check, *, keys: ApiKeys | None = None, **kw: Any) -> None:
    app = build_app(mem, keys=keys)

    async def main() -> None:
        transport = httpx.ASGITransport(app=app, client=("127.0.0.1", 50000))
        async with httpx.AsyncClient(transport=transport, base_url=LOCAL, **kw) as http:
            await check(http)

    anyio.run(main)


def _form(text: str) -> tuple[str, dict[str, str]]:
    """The confirmation page's form: its action and fields (the token among them)."""
    action = re.search(r'<form class="confirm" method="post" action="([^"]+)"', text)
    assert action is not None, text[-1500:]
    fields = dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"', text))
    assert re.fullmatch(r"[0-9a-f]{64}", fields["csrf"])
    return action.group(1), {k: v.replace("&amp;", "&") for k, v in fields.items()}


def _links(text: str, verb: str) -> list[str]:
    return [h.replace("&amp;", "&") for h in re.findall(rf'href="(/ui/{verb}/[^"]+)"', text)]


def _newest(mem: recall.Memory) -> tuple[int, str]:
    art = mem.long_term(BOB)
    return art.version, art.render()


def test_forget_a_record_confirm_then_post(mem: recall.Memory) -> None:
    doomed = next(r for r in mem.records(BOB) if "Priya" in r.text)

    async def check(http: httpx.AsyncClient) -> None:
        page = (await http.get(f"/ui/users/{BOB}", headers=AUTH)).text
        assert f'<input type="hidden" name="id" value="{doomed.id}">' in page
        confirm = await http.get(f"/ui/forget/{BOB}?id={doomed.id}", headers=AUTH)
        assert confirm.status_code == 200 and "Priya owns the on-call rota" in confirm.text
        assert confirm.headers["referrer-policy"] == "same-origin"  # else Origin: null
        assert any(r.id == doomed.id for r in mem.records(BOB))  # a GET changes nothing
        action, fields = _form(confirm.text)
        assert action == f"/ui/forget/{BOB}" and fields["id"] == doomed.id
        done = await http.post(action, data=fields, headers=AUTH)
        assert done.status_code == 303, done.text
        assert done.headers["location"] == f"/ui/users/{BOB}?notice=record-forgotten#records"
        back = await http.get(done.headers["location"], headers=AUTH)
        assert "The record was forgotten" in back.text and "Priya owns" not in back.text
        again = await http.post(action, data=fields, headers=AUTH)
        assert again.status_code == 404 and "forgotten already" in again.text

    _serve(mem, check, keys=keys())
    assert not any(r.id == doomed.id for r in mem.records(BOB))


def test_forget_and_edit_a_sentence_of_the_article(mem: recall.Memory) -> None:
    version, before = _newest(mem)
    assert "amoxicillin" in before

    async def check(http: httpx.AsyncClient) -> None:
        page = (await http.get(f"/ui/users/{BOB}", headers=AUTH)).text
        edit = next(h for h in _links(page, "edit") if "chapter=Bedrock" in h)
        confirm = await http.get(edit, headers=AUTH)
        assert confirm.status_code == 200 and "Edit a sentence" in confirm.text
        action, fields = _form(confirm.text)
        sentence = re.search(r'<textarea name="new"[^>]*>([^<]*)</textarea>', confirm.text)
        assert sentence is not None and sentence.group(1).strip()
        done = await http.post(action, data={**fields, "new": "Goes by Otto."}, headers=AUTH)
        assert done.status_code == 303 and done.headers["location"].endswith("#article")
        # The page moved on a version: the old form is stale, refused and says so.
        stale = await http.post(action, data={**fields, "new": "x"}, headers=AUTH)
        assert stale.status_code == 400 and "version" in stale.text
        page = (await http.get(f"/ui/users/{BOB}", headers=AUTH)).text
        forgets = [h for h in _links(page, "forget") if "chapter=" in h]
        texts = [(await http.get(h, headers=AUTH)).text for h in forgets]
        confirm_text = next(t for t in texts if "amoxicillin" in t)
        assert "Forget a sentence" in confirm_text and "removed" in confirm_text
        action, fields = _form(confirm_text)
        done = await http.post(action, data=fields, headers=AUTH)
        assert done.status_code == 303, done.text
        assert (
            "removed from the article"
            in (await http.get(done.headers["location"], headers=AUTH)).text
        )

    _serve(mem, check, keys=keys())
    after_version, after = _newest(mem)
    assert after_version == version + 2
    assert "Goes by Otto." in after and "amoxicillin" not in after


def test_the_cookie_posts_a_correction_with_its_form_token(mem: recall.Memory) -> None:
    rid = mem.records(BOB)[0].id

    async def check(http: httpx.AsyncClient) -> None:
        action, fields = _form((await http.get(f"/ui/forget/{BOB}?id={rid}")).text)
        assert (await http.post(action, data=fields)).status_code == 303

    _serve(mem, check, keys=keys(), cookies={UI_COOKIE: keys().ui_token(KEY)})
    assert rid not in {r.id for r in mem.records(BOB)}


def test_refusals_leave_memory_as_it_was(mem: recall.Memory) -> None:
    rid = mem.records(BOB)[0].id
    other = {"authorization": f"Bearer {OTHER_KEY}"}

    async def check(http: httpx.AsyncClient) -> None:
        action, fields = _form((await http.get(f"/ui/forget/{BOB}?id={rid}", headers=AUTH)).text)
        cross = await http.post(
            action, data=fields, headers={**AUTH, "origin": "https://evil.example"}
        )
        assert cross.status_code == 403 and "evil.example" in cross.text
        no_token = {k: v for k, v in fields.items() if k != "csrf"}
        for bad in (no_token, {**fields, "csrf": "0" * 64}, {**fields, "csrf": ""}):
            r = await http.post(action, data=bad, headers=AUTH)
            assert r.status_code == 403 and "token" in r.text, r.text
        # Another login's token (the operator's form for the same user) is not this one's.
        r = await http.post(action, data=fields, headers={"x-api-key": "op-key-0123456789012"})
        assert r.status_code == 403 and "token" in r.text
        # Another tenant: refused before its token is even looked at.
        assert (await http.get(f"/ui/forget/{BOB}?id={rid}", headers=other)).status_code == 403
        r = await http.post(action, data=fields, headers=other)
        assert r.status_code == 403 and "tenant" in r.text
        # No key at all, and a cookie POST anywhere but a correction.
        assert (await http.post(action, data=fields)).status_code == 401

    _serve(mem, check, keys=keys())
    assert rid in {r.id for r in mem.records(BOB)}


@pytest.mark.parametrize(
    ("path", "body", "says"),
    [
        ("forget", {"id": ""}, "'id'"),
        ("forget", {"version": "2", "chapter": "Bedrock", "n": "x"}, "n must be"),
        ("forget", {"version": "v2", "chapter": "Bedrock", "n": "0"}, "version must be"),
        ("forget", {"version": "2", "chapter": "Nope", "n": "0"}, "chapter must be one of"),
        ("forget", {"version": "2", "chapter": "Bedrock", "n": "999"}, "n: chapter Bedrock has"),
        ("forget", {"version": "1", "chapter": "Bedrock", "n": "0"}, "version 1 of the article"),
        ("edit", {"version": "2", "chapter": "Bedrock", "n": "0"}, "'new'"),
        (
            "edit",
            {"version": "2", "chapter": "Bedrock", "n": "0", "new": "x" * 2001},
            "new is 2001",
        ),
        ("edit", {"version": "2", "n": "0", "new": "x"}, "chapter"),
    ],
)
def test_bad_fields_are_a_400_page_naming_them(
    mem: recall.Memory, path: str, body: dict[str, str], says: str
) -> None:
    _, before = _newest(mem)

    async def check(http: httpx.AsyncClient) -> None:
        token = _form(
            (await http.get(f"/ui/forget/{BOB}?id={mem.records(BOB)[0].id}", headers=AUTH)).text
        )[1]["csrf"]
        r = await http.post(f"/ui/{path}/{BOB}", data={**body, "csrf": token}, headers=AUTH)
        assert r.status_code == 400, r.text
        assert says in r.text.replace("&#x27;", "'"), r.text[-800:]
        assert r.headers["content-type"] == "text/html; charset=utf-8"
        js = await http.post(f"/ui/{path}/{BOB}", json={**body, "csrf": token}, headers=AUTH)
        assert js.status_code == 400 and "x-www-form-urlencoded" in js.text
        assert (await http.get(f"/ui/{path}/{BOB}?n=x", headers=AUTH)).status_code == 400

    _serve(mem, check, keys=keys())
    assert _newest(mem)[1] == before


def test_without_keys_a_loopback_browser_corrects_with_the_token(mem: recall.Memory) -> None:
    rid = mem.records(BOB)[0].id

    async def check(http: httpx.AsyncClient) -> None:
        action, fields = _form((await http.get(f"/ui/forget/{BOB}?id={rid}")).text)
        assert (await http.post(action, data={**fields, "csrf": "f" * 64})).status_code == 403
        assert (await http.post(action, data=fields)).status_code == 303

    _serve(mem, check)
    assert rid not in {r.id for r in mem.records(BOB)}
