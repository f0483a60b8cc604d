"""The inspector's pages, each a pure function from what it shows to a whole HTML document,
rendered from the Jinja2 templates in ``templates/`` (:mod:`.templates`, auto-escaped).

The server's pages (:mod:`.routes`) and the memory report (``recall memory report``) are
the same renderer: :func:`user_page` for a served page, :func:`report_page` for the
self-contained file (every record, every version listed, no links, no forms).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from http import HTTPStatus
from typing import Any

from markupsafe import Markup

from .page import CSS
from .templates import render
from .view import UserView

__all__ = [
    "LOGIN_SCRIPT",
    "error_page",
    "login_page",
    "logout_page",
    "page",
    "report_page",
    "user_page",
    "users_page",
]

#: The one script any page loads: the login form's, served by the app (see routes).
LOGIN_SCRIPT = "/ui/static/login.js"


def page(
    template: str,
    title: str,
    *,
    scripts: Iterable[str] = (),
    home: str | None = "/ui",
    **context: Any,
) -> str:
    """A whole HTML page of ``template``: ``title`` (plain text), the inline style sheet,
    ``scripts`` (same-origin paths), ``home``: where the brand links (None: no link, as in
    a report read from disk)."""
    return render(
        template, title=title, css=Markup(CSS), scripts=list(scripts), home=home, **context
    )


def users_page(users: Sequence[tuple[str, int]], *, auth: bool, everyone: bool) -> str:
    """The users this request may look at, each with its number of records. ``auth``:
    keys are configured (a log-out link); ``everyone``: the list is not a tenant's."""
    return page("users.html", "recall inspector: users", users=users, auth=auth, everyone=everyone)


def user_page(
    view: UserView,
    *,
    auth: bool,
    notice: str | None = None,
    activity: Sequence[Any] | None = None,
    controls: bool = False,
) -> str:
    """One user's inspector page: the query box and its hits, the profile, the article (a
    version of it, a diff), the versions, the short-term summaries, a page of records;
    ``controls``: each sentence of the newest article with its edit and forget links and
    each record with a forget button; ``notice``: what a correction just did;
    ``activity``: the server's log of the user, newest first (None: not shown)."""
    return page(
        "user.html",
        f"recall inspector: {view.user_id}",
        view=view,
        auth=auth,
        notice=notice,
        activity=activity,
        controls=controls,
    )


def report_page(view: UserView, *, generated: str) -> str:
    """The memory report of one user: one static, self-contained document (no script, no
    link out), ``generated`` saying when and from where."""
    return page(
        "report.html",
        f"recall memory report: {view.user_id}",
        home=None,
        view=view,
        generated=generated,
    )


def login_page(*, keys: bool) -> str:
    """The form where a person gives the API key once (its script trades it for a token
    kept in a cookie)."""
    scripts = [LOGIN_SCRIPT] if keys else []
    return page("login.html", "recall inspector: log in", scripts=scripts, keys=keys)


def logout_page() -> str:
    """What /ui/logout answers, along with the header that removes the cookie."""
    return page("logout.html", "recall inspector: logged out")


def error_page(
    status: int,
    message: str,
    *,
    login: bool = False,
    back: tuple[str, str] | None = None,
) -> str:
    """A refusal or a failure as a page: the status, the message (escaped), a way on
    (``back``: its address and words; default the users page)."""
    try:
        heading = f"{status} {HTTPStatus(status).phrase}"
    except ValueError:
        heading = str(status)
    href, text = back or ("/ui", "Back to the users")
    return page(
        "error.html",
        f"recall inspector: {heading}",
        heading=heading,
        message=message,
        login=login,
        back=href,
        back_text=text,
    )
