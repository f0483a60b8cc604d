"""The inspector in a real browser: Debian's chromium, headless, driven by playwright,
against the app ``recall serve --transport http`` serves (uvicorn on 127.0.0.1 with its
options, in a thread; the memory embeds with the HashEmbedder).

Each page is rendered and its DOM checked: logging in with the form, the users, a user's
page, a version, a diff, the records' second page of one kind, a query with its hits and
floored hits, logging out. No page may break its Content-Security-Policy or ask for
anything from another origin. Screenshots of the query page at 1280 px and 390 px land in
tests/artifacts/ (gitignored); docs/img/ holds copies for docs/inspector.md.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from live_server import live_server
from playwright.sync_api import Browser, ConsoleMessage, Page, Request, sync_playwright
from test_ui_seed import BOB, KEY, QUERY, SCRIPT, keys, seed

import recall
from recall.server.auth import UI_COOKIE
from recall.server.ui import Params, gather, report_page

pytestmark = pytest.mark.slow  # a browser and a server

CHROMIUM = Path("/usr/bin/chromium")
ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts"
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
os.environ.setdefault("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1")


@pytest.fixture(scope="module")
def mem(tmp_path_factory: pytest.TempPathFactory) -> Iterator[recall.Memory]:
    m = seed(tmp_path_factory.mktemp("ui-browser") / "memory")
    yield m
    m.close()


@pytest.fixture(scope="module")
def base_url(mem: recall.Memory) -> Iterator[str]:
    """The inspector on a real uvicorn server over the seeded memory."""
    with live_server(mem, keys=keys()) as (url, _app):
        yield url


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """Headless chromium (the system's: playwright never downloads one here)."""
    if not CHROMIUM.is_file():
        pytest.skip(f"no {CHROMIUM}: `make system-deps` installs it (apt-get install chromium)")
    with sync_playwright() as p:
        launched = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield launched
        launched.close()


class Watch:
    """What a page did that it must not: CSP violations, requests to other origins."""

    def __init__(self, page: Page, base_url: str) -> None:
        self.problems: list[str] = []
        self.base_url = base_url
        page.on("console", self._console)
        page.on("request", self._request)
        page.on("dialog", lambda d: self.problems.append(f"dialog: {d.message}"))

    def _console(self, msg: ConsoleMessage) -> None:
        if msg.type == "error":
            self.problems.append(f"console: {msg.text}")

    def _request(self, request: Request) -> None:
        if not request.url.startswith(self.base_url):
            self.problems.append(f"request: {request.url}")


@pytest.fixture
def page(browser: Browser, base_url: str) -> Iterator[tuple[Page, Watch]]:
    """A fresh browser context (no cookie yet) at 1280 px, watched."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    tab = context.new_page()
    watch = Watch(tab, base_url)
    yield tab, watch
    context.close()
    assert not watch.problems, watch.problems


def _login(tab: Page, base_url: str) -> None:
    tab.goto(f"{base_url}/ui/login")
    tab.fill("#key", KEY)
    with tab.expect_navigation():
        tab.click("button")
    assert tab.url == f"{base_url}/ui"


def test_log_in_see_the_users_and_log_out(page: tuple[Page, Watch], base_url: str) -> None:
    tab, watch = page
    answer = tab.goto(f"{base_url}/ui")
    assert answer is not None and answer.status == 401
    tab.click("text=Log in with an API key")
    assert tab.url == f"{base_url}/ui/login"
    ARTIFACTS.mkdir(exist_ok=True)
    tab.screenshot(path=str(ARTIFACTS / "ui-login-1280.png"))
    watch.problems = [p for p in watch.problems if "401" not in p]  # the refusal itself
    _login(tab, base_url)
    cookie = next(c for c in tab.context.cookies() if c["name"] == UI_COOKIE)
    assert cookie["path"] == "/ui" and cookie["sameSite"] == "Strict"
    assert KEY not in cookie["value"]  # a token for /ui reads, never the key itself
    assert KEY not in tab.content()
    users = tab.locator("ul.users li a").all_inner_texts()
    assert "acme:bob" in users and "acme:ann" in users and "beta:eve" not in users
    tab.click("text=Log out")
    assert "Logged out" in tab.inner_text("h1")
    assert not [c for c in tab.context.cookies() if c["name"] == UI_COOKIE]


def test_a_user_page_a_version_and_a_diff(page: tuple[Page, Watch], base_url: str) -> None:
    tab, _ = page
    _login(tab, base_url)
    tab.click("text=acme:bob")
    assert tab.inner_text("h1") == BOB
    chapters = tab.locator("#article h3").all_inner_texts()
    assert chapters == ["Bedrock", "Evolutionary", "Dynamic"]
    assert "amoxicillin" in tab.inner_text("#article")
    assert tab.locator("#versions tbody tr").count() == 2
    assert tab.locator("script").count() == 0  # a stored <script> is text, not an element
    assert SCRIPT in tab.inner_text("#records")
    tab.click("#versions a:text('view') >> nth=1")
    assert "Version 1 of 2" in tab.inner_text("#article .meta")
    assert "penicillin" in tab.inner_text("#article")
    tab.click("#versions a:text('diff')")
    assert "diff=1..2" in tab.url
    assert "penicillin" in tab.locator("#diff .del").first.inner_text()
    assert "amoxicillin" in tab.locator("#diff .add").first.inner_text()


def test_records_second_page_of_one_kind(page: tuple[Page, Watch], base_url: str) -> None:
    tab, _ = page
    _login(tab, base_url)
    tab.goto(f"{base_url}/ui/users/{BOB}?limit=5#records")
    tab.select_option("#records select[name=kind]", "note")
    with tab.expect_navigation():
        tab.click("#records button")
    assert "1–5 of 13" in tab.inner_text("#records .pager")
    tab.click("text=Older →")
    assert "offset=5" in tab.url and "kind=note" in tab.url
    assert "6–10 of 13" in tab.inner_text("#records .pager")
    kinds = tab.locator("#records tbody td[data-label=kind]").all_inner_texts()
    assert kinds == ["note"] * 5
    times = tab.locator("#records tbody td[data-label=said] time")
    said = times.evaluate_all("all => all.map(t => t.dateTime)")
    assert said == sorted(said, reverse=True)  # newest said first


def _shoot(tab: Page, name: str) -> None:
    """The screen as a person sees it first (docs/img holds copies), and the whole page."""
    tab.evaluate("window.scrollTo(0, 0)")  # the form's #query anchor scrolled it
    tab.screenshot(path=str(ARTIFACTS / f"{name}.png"))
    tab.screenshot(path=str(ARTIFACTS / f"{name}-full.png"), full_page=True)


def _query(tab: Page, base_url: str) -> None:
    tab.goto(f"{base_url}/ui/users/{BOB}")
    tab.fill("input[name=q]", QUERY)
    with tab.expect_navigation():
        tab.click("#query button")


def test_a_query_with_hits_and_floored_hits_at_two_widths(
    page: tuple[Page, Watch], base_url: str
) -> None:
    tab, _ = page
    _login(tab, base_url)
    _query(tab, base_url)
    tables = tab.locator("#query table.hits")
    assert tables.count() == 2  # the hits, and those the floor removed
    hits, floored = tables.nth(0), tables.nth(1)
    assert hits.locator("tbody tr").count() >= 1 and floored.locator("tbody tr").count() >= 1
    first = hits.locator("tbody tr").first
    for label in ("fused", "keyword raw", "keyword norm", "keyword rank", "vector raw",
                  "vector norm", "vector rank"):  # fmt: skip
        assert first.locator(f"td[data-label='{label}']").inner_text().strip()
    assert tab.input_value("input[name=q]") == QUERY
    ARTIFACTS.mkdir(exist_ok=True)
    _shoot(tab, "ui-query-1280")
    tab.set_viewport_size({"width": 390, "height": 844})
    tab.reload()
    width = tab.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the page is {width} px wide at a 390 px viewport"
    assert tab.locator("#query table.hits thead").first.is_hidden()  # stacked cards
    _shoot(tab, "ui-query-390")
    tab.goto(f"{base_url}/ui")
    tab.screenshot(path=str(ARTIFACTS / "ui-users-390.png"), full_page=True)


def test_the_memory_report_opens_from_disk(
    browser: Browser, mem: recall.Memory, tmp_path: Path
) -> None:
    view = gather(mem, BOB, Params(query=QUERY), report=True)
    report = tmp_path / "report.html"
    report.write_text(report_page(view, generated="Written by the test."), encoding="utf-8")
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    tab = context.new_page()
    watch = Watch(tab, report.as_uri())
    tab.goto(report.as_uri())
    try:
        assert tab.locator("#article h3").all_inner_texts() == [
            "Bedrock",
            "Evolutionary",
            "Dynamic",
        ]
        assert tab.locator("#versions tbody tr").count() == 2
        assert "amoxicillin" in tab.locator("#diff .add").first.inner_text()
        assert tab.locator("#records tbody tr").count() == view.page.total == 20
        assert tab.locator("#query table.hits").count() == 2
        assert tab.locator("a, form, script").count() == 0
        tab.screenshot(path=str(ARTIFACTS / "report-1280.png"), full_page=True)
    finally:
        context.close()
    assert not watch.problems, watch.problems
