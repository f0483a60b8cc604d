"""The inspector at /ui over the ASGI app (httpx): what each page shows, its headers, the
keys and tenants, the login cookie's limits, Host and Origin, bad parameters, escaping."""

from __future__ import annotations

import re
from collections.abc import Callable, Coroutine, Iterator
from typing import Any
from urllib.parse import quote

import anyio
import httpx
import pytest
from test_ui_seed import (
    BOB,
    KEY,
    MARKUP_USER,
    OPERATOR_KEY,
    OTHER_KEY,
    QUERY,
    SCRIPT,
    keys,
    seed,
)

import recall
from recall.models import Profile
from recall.server import ApiKeys, build_app
from recall.server.auth import UI_COOKIE
from recall.server.ui import Params, gather, report_page
from recall.server.ui.page import esc
from recall.server.ui.profile import profile_section

LOCAL = "http://127.0.0.1:8765"
AUTH = {"authorization": f"Bearer {KEY}"}
BOB_PAGE = "/ui/users/acme:bob"
Check = Callable[[httpx.AsyncClient], Coroutine[Any, Any, None]]


@pytest.fixture(scope="module")
def mem(tmp_path_factory: pytest.TempPathFactory) -> Iterator[recall.Memory]:
    m = seed(tmp_path_factory.mktemp("ui") / "memory")
    yield m
    m.close()


def _serve(
    mem: recall.Memory,
    check: Check,
    *,
    keys: ApiKeys | None = None,
    client: tuple[str, int] = ("127.0.0.1", 50000),
    cookies: dict[str, str] | None = None,
) -> None:
    app = build_app(mem, keys=keys)

    async def main() -> None:
        transport = httpx.ASGITransport(app=app, client=client)
        async with httpx.AsyncClient(transport=transport, base_url=LOCAL, cookies=cookies) as http:
            await check(http)

    anyio.run(main)


def _page(r: httpx.Response, status: int = 200, *says: str) -> str:
    assert r.status_code == status, r.text[-2000:]
    assert r.headers["content-type"] == "text/html; charset=utf-8"
    assert "Traceback" not in r.text
    for text in says:
        assert text in r.text, text
    return r.text


def _secure(r: httpx.Response, *, script: bool = False) -> None:
    policy = r.headers["content-security-policy"]
    for part in ("default-src 'none'", "frame-ancestors 'none'", "base-uri 'none'"):
        assert part in policy
    assert "unsafe" not in policy and "http" not in policy
    assert ("script-src 'self'" if script else "script-src 'none'") in policy
    assert re.search(r"style-src 'sha256-[A-Za-z0-9+/=]+'", policy)
    assert r.headers["x-frame-options"] == "DENY"
    assert r.headers["referrer-policy"] == "no-referrer"
    assert r.headers["cache-control"] == "no-store"
    assert r.headers["x-content-type-options"] == "nosniff"


# --- what the pages show ------------------------------------------------------------------
def test_the_user_page_shows_article_summaries_records_and_versions(mem: recall.Memory) -> None:
    async def check(http: httpx.AsyncClient) -> None:
        text = _page(await http.get(BOB_PAGE, headers=AUTH), 200, "Bedrock", "Evolutionary")
        assert "Dynamic" in text and "Version 2 of 2" in text and "amoxicillin" in text
        assert "The staging cluster moved" in text  # a short-term summary
        assert "Priya owns the on-call rota" in text and "1–20 of 20" in text
        # Each link lands on what it names: the diff's card, the article's.
        assert 'href="/ui/users/acme:bob?diff=1..2#diff"' in text
        assert 'href="/ui/users/acme:bob?version=1#article"' in text
        assert '<section class="card" id="diff">' in _page(
            await http.get(f"{BOB_PAGE}?diff=1..2", headers=AUTH)
        )
        old = _page(await http.get(f"{BOB_PAGE}?version=1", headers=AUTH), 200, "Version 1 of 2")
        assert "penicillin" in old and 'href="/ui/users/acme:bob#article">Newest</a>' in old

    _serve(mem, check, keys=keys())


def test_a_diff_marks_what_left_and_what_came(mem: recall.Memory) -> None:
    async def check(http: httpx.AsyncClient) -> None:
        for diff in ("1..2", "1"):
            text = _page(await http.get(f"{BOB_PAGE}?diff={diff}", headers=AUTH))
            assert "Difference v1 → v2" in text
            assert re.search(r'<span class="del">-[^<]*penicillin', text)
            assert re.search(r'<span class="add">\+[^<]*amoxicillin', text)
            assert text.count('<p class="empty">unchanged</p>') == 2

    _serve(mem, check, keys=keys())


def test_records_page_by_kind_and_said_date(mem: recall.Memory) -> None:
    async def check(http: httpx.AsyncClient) -> None:
        text = _page(await http.get(f"{BOB_PAGE}?kind=note&limit=5&offset=5", headers=AUTH))
        assert "6–10 of 13" in text
        assert "?kind=note&amp;limit=5#records" in text  # newer: back to offset 0
        assert "?kind=note&amp;offset=10&amp;limit=5#records" in text
        rows = re.findall(
            r'data-label="kind"><span class="kind">(\w+)<', text.split('id="records"')[1]
        )
        assert rows == ["note"] * 5
        march = _page(await http.get(f"{BOB_PAGE}?kind=fact&since=2026-03-04", headers=AUTH))
        assert "1–2 of 2" in march and "March 5" in march and "March 3" not in march
        past = _page(await http.get(f"{BOB_PAGE}?offset=100000", headers=AUTH))
        assert "none here of 20" in past and 'href="/ui/users/acme:bob#records">First' in past
        window = f"{BOB_PAGE}?kind=fact&since=2026-03-03&until=2026-03-04"
        assert "1–2 of 2" in _page(await http.get(window, headers=AUTH))

    _serve(mem, check, keys=keys())


def test_a_query_shows_both_legs_and_the_floored_hits(mem: recall.Memory) -> None:
    explained = mem.explain(QUERY, user_id=BOB)
    assert explained.hits and explained.floored  # the seed's query has both

    async def check(http: httpx.AsyncClient) -> None:
        text = _page(await http.get(BOB_PAGE, params={"q": QUERY}, headers=AUTH))
        hits, floored = text.split("Removed by the relevance floor")
        hits = hits.split('id="query"')[1]
        assert hits.count('data-label="fused"') == len(explained.hits)
        assert floored.count('data-label="fused"') == len(explained.floored)
        best = explained.hits[0]
        assert f"<b>{best.score:.3f}</b>" in hits
        assert f'data-label="keyword raw">{best.keyword_score:.3f}<' in hits
        assert f'data-label="vector norm">{best.vector_norm:.3f}<' in hits
        assert f'data-label="keyword rank">{best.keyword_rank}<' in hits
        assert f'value="{QUERY}"' in text  # the box keeps the query

    _serve(mem, check, keys=keys())


def _section(text: str, anchor: str) -> str:
    """The card ``anchor`` of a page (its HTML, up to the next card)."""
    return text.split(f'<section class="card" id="{anchor}">', 1)[1].split("</section>", 1)[0]


def test_the_profile_shows_each_attribute_now_and_what_it_replaced(tmp_path: Any) -> None:
    said = (
        "I live in Lisbon & I work at <b>Quantix</b>.",
        "I live in Porto now. My gym is <i>Iron Temple</i>.",
    )
    with recall.open(settings=recall.Settings(path=tmp_path / "profile")) as m:
        for text in said:
            turns = [{"role": "user", "content": text}, {"role": "assistant", "content": "Ok."}]
            m.update_memory(turns, user_id=BOB)
        m.update_memory(
            [{"role": "user", "content": "I live in Nightjar Street in Oslo."}], user_id="beta:eve"
        )
        expected = m.profile(BOB)
        assert expected.facts, "the user's own words set no attribute"

        async def check(http: httpx.AsyncClient) -> None:
            text = _page(await http.get(BOB_PAGE, headers=AUTH), 200, 'href="#profile"')
            card = _section(text, "profile")
            assert "<b>Quantix" not in text and "<i>Iron" not in text  # escaped, never markup
            for attribute, history in expected.facts.items():
                assert f'data-label="attribute">{esc(attribute)}</td>' in card
                for fact in history:
                    assert esc(fact.statement) in card, fact
                    assert esc(fact.value) in card
                now = history[-1]
                assert f'<span class="kind">now</span> <b>{esc(now.value)}</b>' in card
                for past in history[:-1]:
                    assert f'<span class="kind">past</span> {esc(past.value)}<' in card
                    assert f'data-label="replaced by">{esc(past.superseded_by)}<' in card
            rows = card.count('<tr class="now">') + card.count('<tr class="past">')
            assert rows == sum(len(h) for h in expected.facts.values())
            assert card.count('<tr class="now">') == len(expected.now())
            # Another tenant's profile stays behind the same refusal as the rest of its page.
            other = await http.get("/ui/users/beta:eve", headers=AUTH)
            assert other.status_code == 403 and "Nightjar" not in other.text

        _serve(m, check, keys=keys())
        report = report_page(gather(m, BOB, Params(), report=True), generated="now")
        assert _section(report, "profile") == _section(profile_section(expected), "profile")


def test_a_profile_with_no_attribute_says_so() -> None:
    for profile in (None, Profile(user_id=BOB, facts={})):
        card = _section(profile_section(profile), "profile")
        assert "Nothing the user said sets an attribute yet." in card and "<tr" not in card


# --- escaping -----------------------------------------------------------------------------
def test_user_text_renders_as_text(mem: recall.Memory) -> None:
    async def check(http: httpx.AsyncClient) -> None:
        text = _page(await http.get(BOB_PAGE, params={"q": "<script>x</script>"}, headers=AUTH))
        assert "&lt;script&gt;alert(&#x27;pwned&#x27;)&lt;/script&gt; &amp; &lt;b&gt;bold" in text
        assert "<script" not in text and "<b>bold" not in text
        assert 'value="&lt;script&gt;x&lt;/script&gt;"' in text
        users = _page(await http.get("/ui", headers=AUTH))
        assert "&lt;img src=x onerror=alert(1)&gt;" in users and "<img" not in users
        assert 'href="/ui/users/acme:%3Cimg%20src%3Dx%20onerror%3Dalert%281%29%3E"' in users
        own = await http.get("/ui/users/" + quote(MARKUP_USER, safe=":@"), headers=AUTH)
        assert "Whose id is markup." in _page(own) and "<img" not in own.text
        assert SCRIPT not in text

    _serve(mem, check, keys=keys())


# --- headers ------------------------------------------------------------------------------
def test_every_answer_under_ui_sends_the_security_headers(mem: recall.Memory) -> None:
    async def check(http: httpx.AsyncClient) -> None:
        for path in (
            "/ui",
            BOB_PAGE,
            "/ui/logout",
            "/ui/nothing",
            "/ui/users/beta:eve",
            f"{BOB_PAGE}?offset=x",
        ):
            _secure(await http.get(path, headers=AUTH))
        _secure(await http.get("/ui"))  # a 401 page
        _secure(await http.get("/ui/login"), script=True)
        js = await http.get("/ui/static/login.js")
        assert js.headers["content-type"].startswith("text/javascript")
        assert "recall_ui_key" in js.text and "SameSite=Strict" in js.text and "Path=/ui" in js.text
        _secure(js)

    _serve(mem, check, keys=keys())


# --- keys and tenants ---------------------------------------------------------------------
def _listed(text: str) -> set[str]:
    return set(re.findall(r'<li><a href="/ui/users/[^"]+">([^<]+)</a>', text))


def test_the_users_page_lists_what_the_key_may_see(mem: recall.Memory) -> None:
    markup = "acme:&lt;img src=x onerror=alert(1)&gt;"

    async def check(http: httpx.AsyncClient) -> None:
        acme = _page(await http.get("/ui", headers=AUTH), 200, "Log out")
        assert _listed(acme) == {"acme:ann", "acme:bob", markup}
        beta = await http.get("/ui", headers={"x-api-key": OTHER_KEY})
        assert _listed(_page(beta)) == {"beta:eve"}
        every = await http.get("/ui", headers={"authorization": f"Bearer {OPERATOR_KEY}"})
        assert _listed(_page(every)) == {"acme:ann", "acme:bob", "beta:eve", markup}

    _serve(mem, check, keys=keys())

    async def no_keys(http: httpx.AsyncClient) -> None:
        text = _page(await http.get("/ui"), 200, "This memory holds 4 users")
        assert _listed(text) == {"acme:ann", "acme:bob", "beta:eve", markup}
        assert "Log out" not in text
        assert "No key needed" in _page(await http.get("/ui/login"))

    _serve(mem, no_keys)


def test_a_user_outside_the_tenant_is_refused_as_rest_refuses_it(mem: recall.Memory) -> None:
    async def check(http: httpx.AsyncClient) -> None:
        rest = await http.get("/v1/users/beta:eve/memories", headers=AUTH)
        page = await http.get("/ui/users/beta:eve", headers=AUTH)
        assert rest.status_code == page.status_code == 403
        _page(page, 403, rest.json()["error"].replace("'", "&#x27;"))
        assert "Nightjar" not in page.text
        _page(await http.get("/ui/users/acme:nobody", headers=AUTH), 404, "holds no memory")
        none = _page(await http.get(BOB_PAGE), 401, 'href="/ui/login"')
        assert "Priya" not in none
        wrong = "acme-key-wrong-wrong-wrong"
        bad = _page(await http.get(BOB_PAGE, headers={"x-api-key": wrong}), 401, "unknown")
        assert wrong not in bad
        assert bad.count("recall_ui_key") == 0

    _serve(mem, check, keys=keys())


def test_without_keys_only_loopback_clients_get_in(mem: recall.Memory) -> None:
    async def check(http: httpx.AsyncClient) -> None:
        _page(await http.get(BOB_PAGE), 403, "loopback")

    _serve(mem, check, client=("10.1.2.3", 50000))


# --- the login cookie ---------------------------------------------------------------------
def test_the_cookie_opens_ui_reads_and_nothing_else(mem: recall.Memory) -> None:
    before = len(mem.records(BOB))

    async def check(http: httpx.AsyncClient) -> None:
        _page(await http.get("/ui"), 200, "acme:bob")
        _page(await http.get(BOB_PAGE), 200, "Priya")
        head = await http.head(BOB_PAGE)
        assert head.status_code == 200 and head.content == b""
        note = {"notes": [{"text": "written with a cookie"}]}
        r = await http.post(f"/v1/users/{BOB}/notes", json=note)
        assert r.status_code == 401, r.text
        assert (await http.get(f"/v1/users/{BOB}/memories")).status_code == 401
        assert (await http.get(f"/v1/users/{BOB}/export")).status_code == 401
        ping = {"jsonrpc": "2.0", "id": 1, "method": "ping"}
        mcp = {"content-type": "application/json", "accept": "application/json"}
        assert (await http.post("/mcp", json=ping, headers=mcp)).status_code == 401
        # A write under /ui: the cookie does not count, so the Gate refuses before any route.
        _page(await http.post(BOB_PAGE, data={"x": "1"}), 401)
        for method in ("POST", "PUT", "DELETE", "PATCH"):
            r = await http.request(method, BOB_PAGE, headers=AUTH)
            assert r.status_code == 405, (method, r.text)

    _serve(mem, check, keys=keys(), cookies={UI_COOKIE: keys().ui_token(KEY)})
    assert len(mem.records(BOB)) == before


def test_the_cookie_holds_a_token_that_is_no_key(mem: recall.Memory) -> None:
    """/ui/login trades the key for a token: the token opens /ui reads, not /v1 as a key;
    the key itself in the cookie opens nothing."""
    token = keys().ui_token(KEY)
    assert KEY not in token

    async def check(http: httpx.AsyncClient) -> None:
        json_post = {**AUTH, "content-type": "application/json"}
        got = await http.post("/v1/ui-token", content=b"{}", headers=json_post)
        assert got.status_code == 200 and set(got.json()) == {"token", "expires_in"}
        assert KEY not in got.text and got.json()["token"] != token  # each login its own
        assert (await http.post("/v1/ui-token", json={})).status_code == 401  # a key needed
        as_key = {"authorization": f"Bearer {token}"}
        assert (await http.get(f"/v1/users/{BOB}/memories", headers=as_key)).status_code == 401
        _page(await http.get(BOB_PAGE, headers=as_key), 401)  # a header key, and unknown
        _page(await http.get(BOB_PAGE, headers={"cookie": f"{UI_COOKIE}={token}"}), 200, "Priya")
        stale = "unknown or stale inspector login"
        _page(await http.get(BOB_PAGE, headers={"cookie": f"{UI_COOKIE}={KEY}"}), 401, stale)

    _serve(mem, check, keys=keys())


def test_a_url_encoded_cookie_is_read_and_a_header_key_wins(mem: recall.Memory) -> None:
    async def check(http: httpx.AsyncClient) -> None:
        _page(await http.get(BOB_PAGE), 200)
        other = {"x-api-key": OTHER_KEY}
        _page(await http.get(BOB_PAGE, headers=other), 403)  # the header's tenant decides

    token = keys().ui_token(KEY)
    encoded = f"%{ord(token[0]):02X}{token[1:]}"  # the login script URL-encodes the value
    _serve(mem, check, keys=keys(), cookies={UI_COOKIE: encoded})


def test_login_and_logout(mem: recall.Memory) -> None:
    async def check(http: httpx.AsyncClient) -> None:
        login = _page(await http.get("/ui/login"), 200, 'type="password"')
        assert '<script src="/ui/static/login.js" defer></script>' in login
        assert 'name="' not in login.split('id="login"')[1].split("</form>")[0]  # no key in URLs
        out = await http.get("/ui/logout")
        _page(out, 200, "Logged out")
        cookie = out.headers["set-cookie"]
        assert cookie.startswith(f"{UI_COOKIE}=;") and "Max-Age=0" in cookie
        assert "Path=/ui" in cookie and "SameSite=Strict" in cookie
        assert (await http.get("/ui/", headers=AUTH)).headers["location"] == "/ui"

    _serve(mem, check, keys=keys(), cookies={UI_COOKIE: "stale-key-0123456789"})


# --- Host and Origin ----------------------------------------------------------------------
def test_a_foreign_host_or_a_cross_site_page_is_refused(mem: recall.Memory) -> None:
    async def check(http: httpx.AsyncClient) -> None:
        for path in ("/ui", BOB_PAGE, "/ui/login"):
            _page(await http.get(path, headers={"host": "evil.example"}), 421, "evil.example")
            page = {"origin": "https://evil.example"}
            _page(await http.get(path, headers=page), 403, "evil.example")
        _page(await http.get("/ui", headers={"origin": LOCAL}), 200)  # the server's own page

    _serve(mem, check, keys=keys(), cookies={UI_COOKIE: keys().ui_token(KEY)})


# --- bad parameters -----------------------------------------------------------------------
@pytest.mark.parametrize(
    ("query", "status", "says"),
    [
        ("offset=x", 400, "offset"),
        ("offset=-1", 400, "offset"),
        ("offset=%C2%B2", 400, "offset"),
        ("offset=" + "9" * 40, 400, "offset"),
        ("version=abc", 400, "version"),
        ("version=99", 404, "newest is 2"),
        ("version=1&version=2", 400, "once"),
        ("since=yesterday-ish", 400, "since"),
        ("since=2026-05-01&until=2026-04-01", 400, "before"),
        ("until=" + "2" * 60, 400, "until"),
        ("limit=0", 400, "limit"),
        ("limit=1000", 400, "limit"),
        ("diff=a..b", 400, "diff"),
        ("diff=1..9", 404, "versions 1..2"),
        ("kind=Not!A!Kind", 400, "kind"),
        ("q=" + "x" * 1001, 400, "1001 characters"),
    ],
)
def test_bad_parameters_are_a_4xx_page(
    mem: recall.Memory, query: str, status: int, says: str
) -> None:
    async def check(http: httpx.AsyncClient) -> None:
        _page(await http.get(f"{BOB_PAGE}?{query}", headers=AUTH), status, says)

    _serve(mem, check, keys=keys())


def test_params_round_trip_through_their_links() -> None:
    items = [
        ("version", "1"),
        ("diff", "1..2"),
        ("kind", "note"),
        ("kind", "fact"),
        ("since", "2026-01-01"),
        ("offset", "5"),
        ("limit", "5"),
        ("q", "a b&c"),
    ]
    params = Params.parse(items)
    assert params.kinds == ("note", "fact") and params.diff == (1, 2)
    href = params.href("acme:b ob", offset=10)
    assert href.startswith("/ui/users/acme:b%20ob?version=1&diff=1..2&kind=note&kind=fact")
    assert "offset=10" in href and "q=a+b%26c" in href
    assert Params.parse([("kind", ""), ("since", " "), ("q", ""), ("other", "x")]) == Params()
    assert Params().href("u") == "/ui/users/u"


def test_a_user_id_holding_a_slash_has_its_page(tmp_path: Any) -> None:
    """``acme:alice/1`` is a valid user id: the users page links to a page that opens."""
    with recall.open(tmp_path / "slash") as m:
        m.add("Alice keeps the spare keys in the blue drawer.", user_id="acme:alice/1")

        async def check(http: httpx.AsyncClient) -> None:
            users = _page(await http.get("/ui", headers=AUTH))
            href = re.search(r'href="(/ui/users/[^"]*alice[^"]*)"', users)
            assert href is not None
            page = _page(await http.get(href.group(1), headers=AUTH), 200, "blue drawer")
            assert "acme:alice/1" in page

        _serve(m, check, keys=keys())
