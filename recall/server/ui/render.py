"""The inspector's pages, each a pure function from what it shows to a whole HTML document.

The server's pages (:mod:`.routes`) and the memory report (``recall memory report``) are
the same renderer: :func:`user_page` for a served page, :func:`report_page` for the
self-contained file (every record, every version listed, no links, no forms).
"""

from __future__ import annotations

from collections.abc import Sequence
from http import HTTPStatus

from .page import document, esc
from .profile import profile_section
from .sections import (
    article_section,
    diff_section,
    query_section,
    records_section,
    short_term_section,
    versions_section,
)
from .view import UserView, user_href

__all__ = [
    "LOGIN_SCRIPT",
    "error_page",
    "login_page",
    "logout_page",
    "report_page",
    "user_page",
    "users_page",
]

#: The one script any page loads: the login form's, served by the app (see routes).
LOGIN_SCRIPT = "/ui/static/login.js"


def _nav(*links: tuple[str, str], auth: bool) -> str:
    items = [f'<a href="{esc(href)}">{esc(text)}</a>' for href, text in links]
    end = '<a class="end" href="/ui/logout">Log out</a>' if auth else ""
    return f'<nav aria-label="sections">{"".join(items)}</nav>{end}'


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" + ("" if n == 1 else "s")


def users_page(users: Sequence[tuple[str, int]], *, auth: bool, everyone: bool) -> str:
    """The users this request may look at, each with its number of records. ``auth``:
    keys are configured (a log-out link); ``everyone``: the list is not a tenant's."""
    where = "This memory" if everyone else "Your API key's tenant"
    if users:
        items = "".join(
            f'<li><a href="{esc(user_href(uid))}">{esc(uid)}</a> '
            f'<span class="muted">{_count(count, "record")}</span></li>'
            for uid, count in users
        )
        listing = f'<ul class="users">{items}</ul>'
    else:
        listing = '<p class="empty">No user holds memory here yet.</p>'
    body = (
        f"<h1>Users</h1><section class='card'><p class='meta'>{where} holds "
        f"{_count(len(users), 'user')}.</p>{listing}</section>"
    )
    return document("recall inspector: users", body, nav=_nav(("/ui", "Users"), auth=auth))


def _sections(view: UserView, *, live: bool) -> str:
    parts = [query_section(view, live=live)] if live or view.explained else []
    parts += [profile_section(view.profile), article_section(view, live=live)]
    if view.diff is not None:
        parts.append(diff_section(view.diff))
    parts += [
        versions_section(view, live=live),
        short_term_section(view),
        records_section(view, live=live),
    ]
    return "".join(parts)


def user_page(view: UserView, *, auth: bool) -> str:
    """One user's inspector page: the query box and its hits, the profile, the article (a
    version of it, a diff), the versions, the short-term summaries, a page of records."""
    uid = view.user_id
    nav = _nav(
        ("/ui", "Users"),
        ("#query", "Query"),
        ("#profile", "Profile"),
        ("#article", "Article"),
        ("#versions", "Versions"),
        ("#short-term", "Short-term"),
        ("#records", "Records"),
        auth=auth,
    )
    body = f"<h1>{esc(uid)}</h1>{_sections(view, live=True)}"
    return document(f"recall inspector: {uid}", body, nav=nav)


def report_page(view: UserView, *, generated: str) -> str:
    """The memory report of one user: one static, self-contained document (no script, no
    link out), ``generated`` saying when and from where."""
    body = (
        f"<h1>{esc(view.user_id)}</h1><p class='meta'>{esc(generated)}</p>"
        f"{_sections(view, live=False)}"
    )
    return document(f"recall memory report: {view.user_id}", body, home=None)


def login_page(*, keys: bool) -> str:
    """The form where a person gives the API key once (its script trades it for a token
    kept in a cookie)."""
    if not keys:
        body = (
            "<h1>No key needed</h1><section class='card'><p>This server has no API keys: it "
            "answers loopback clients only, and they need no key.</p>"
            '<p><a href="/ui">See the users</a></p></section>'
        )
        return document("recall inspector: log in", body)
    body = (
        "<h1>Log in</h1><section class='card'>"
        '<form id="login" class="row" method="get" action="/ui" autocomplete="off">'
        '<label class="grow">API key<input id="key" type="password" required minlength="16" '
        'autocomplete="off" spellcheck="false"></label><button>Log in</button></form>'
        "<p class='error' id='login-error' role='alert'></p>"
        "<p class='meta'>The key is sent once, to this server, for a token that opens only "
        "these read-only pages; the browser keeps the token (never the key) in a cookie for "
        "this host's /ui pages. Log out to remove it; closing the browser does too.</p>"
        "<noscript><p class='error'>Logging in needs JavaScript; tools can send the key "
        "as 'Authorization: Bearer KEY' instead.</p></noscript></section>"
    )
    return document("recall inspector: log in", body, scripts=[LOGIN_SCRIPT])


def logout_page() -> str:
    """What /ui/logout answers, along with the header that removes the cookie."""
    body = (
        "<h1>Logged out</h1><section class='card'><p>This browser no longer holds the "
        "inspector's token.</p>"
        '<p><a href="/ui/login">Log in again</a></p></section>'
    )
    return document("recall inspector: logged out", body)


def error_page(status: int, message: str, *, login: bool = False) -> str:
    """A refusal or a failure as a page: the status, the message (escaped), a way on."""
    hint = (
        '<p><a href="/ui/login">Log in with an API key</a></p>'
        if login
        else '<p><a href="/ui">Back to the users</a></p>'
    )
    try:
        title = f"{status} {HTTPStatus(status).phrase}"
    except ValueError:
        title = str(status)
    body = (
        f"<h1>{esc(title)}</h1><section class='card error'><p class='prose'>{esc(message)}</p>"
        f"{hint}</section>"
    )
    return document(f"recall inspector: {title}", body)
