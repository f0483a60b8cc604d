"""The inspector's routes: ``/ui`` (the users a key may see), ``/ui/users/{user}`` (one
user's memory), ``/ui/login`` and ``/ui/logout``, the login script, and the corrections
``/ui/forget/{user}`` and ``/ui/edit/{user}`` (:mod:`.fix`).

Every page is a GET (and HEAD) and calls only the facade's read-only views; the two
correction addresses alone take a POST, and only a POST changes memory, carrying the
confirmation page's ``csrf`` token. Keys and tenants are the REST API's: a key sees its
tenant's users (the operator key ``*`` every user; with no keys configured, every user,
since the server then answers loopback clients only), and a user outside the key's tenant
is refused 403 as REST does. The key comes in the REST headers or in the login page's
cookie, which the Gate accepts for reads under ``/ui`` and the corrections' POSTs only
(:func:`recall.server.auth.ui_token`).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import anyio
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import Route

from ...errors import InputError
from ...models import require_user_id
from ..activity import ActivityLog, describe
from ..aio import AsyncMemory
from ..auth import OPERATOR, UI_COOKIE, ApiKeys, check_pinned, key_from_headers, ui_token
from ..errors import NotFoundError
from .answers import html_error, html_response, script_response
from .fix import (
    MAX_NEW_CHARS,
    NOTICES,
    FormTokens,
    Target,
    act_href,
    done_href,
    holding,
    read_form,
    record_of,
)
from .render import LOGIN_SCRIPT, login_page, logout_page, page, user_page, users_page
from .view import Params, gather, user_href, visible_users

__all__ = ["InspectorUi", "PUBLIC_PATHS"]

#: Answered without a key: the login form and its script, and logging out (a person whose
#: key is wrong or withdrawn must still be able to remove it). None shows any memory.
PUBLIC_PATHS = frozenset({"/ui/login", "/ui/logout", LOGIN_SCRIPT})

_Handler = Callable[[Request], Awaitable[Response]]


class InspectorUi:
    """The inspector's pages over one memory and one key set (see the module docs)."""

    def __init__(
        self,
        amem: AsyncMemory,
        keys: ApiKeys | None,
        pinned: str | None = None,
        activity: ActivityLog | None = None,
    ) -> None:
        self.amem = amem
        self.keys = keys
        self.pinned = pinned  # a server started with --user shows that user only
        self.tokens = FormTokens(amem.memory.path)
        self.activity = activity  # the user pages show it; queries and corrections go in

    def _log(self, request: Request, uid: str, action: str, answer: Any) -> None:
        if self.activity is not None:
            tenant = None if self.keys is None else self._tenant(request)
            detail = describe(action, answer.model_dump(mode="json"))
            self.activity.record(uid, action, detail, "inspector", tenant)

    def routes(self) -> list[Route]:
        """The Starlette routes, GET (and so HEAD) only but for the corrections' POSTs;
        any failure answers a page."""
        table: list[tuple[str, _Handler, list[str]]] = [
            ("/ui", self.users, ["GET"]),
            ("/ui/", self.home, ["GET"]),
            ("/ui/login", self.login, ["GET"]),
            ("/ui/logout", self.logout, ["GET"]),
            (LOGIN_SCRIPT, self.script, ["GET"]),
            ("/ui/users/{user:path}", self.user, ["GET"]),  # a user id may hold "/"
            ("/ui/forget/{user:path}", self.forget, ["GET", "POST"]),
            ("/ui/edit/{user:path}", self.edit, ["GET", "POST"]),
            ("/ui/{rest:path}", self.unknown, ["GET"]),
        ]
        return [Route(path, self._wrap(fn), methods=m) for path, fn, m in table]

    @staticmethod
    def _wrap(fn: _Handler) -> _Handler:
        async def endpoint(request: Request) -> Response:
            try:
                return await fn(request)
            except Exception as exc:
                return html_error(exc)

        return endpoint

    def _tenant(self, request: Request) -> str:
        if self.keys is None:
            return OPERATOR  # loopback clients only (the Gate): the machine's own user
        return self.keys.tenant(key_from_headers(request.headers), ui=self._token(request))

    @staticmethod
    def _token(request: Request) -> str | None:
        return ui_token(request.headers, request.method, request.url.path)

    def _checked(self, request: Request) -> str:
        """The request's user, checked as the user page checks it (key, tenant, pin)."""
        uid = require_user_id(request.path_params["user"])
        if self.keys is not None:
            self.keys.check(key_from_headers(request.headers), uid, ui=self._token(request))
        check_pinned(self.pinned, uid)
        return uid

    def _identity(self, request: Request) -> str:
        """Whose forms these are: the login's inspector token (a header key's own token),
        or ``loopback`` on a server without keys."""
        if self.keys is None:
            return "loopback"
        key = key_from_headers(request.headers)
        return self.keys.identity(key) if key else (self._token(request) or "")

    # --- pages ---------------------------------------------------------------------------
    async def users(self, request: Request) -> Response:
        """GET /ui: the users the request's key may see."""
        tenant = self._tenant(request)
        users = await self.amem.run(visible_users, self.amem.memory, tenant)
        users = [u for u in users if self.pinned is None or u[0] == self.pinned]
        page = users_page(users, auth=self.keys is not None, everyone=tenant == OPERATOR)
        return html_response(page)

    async def user(self, request: Request) -> Response:
        """GET /ui/users/{user}: the article (?version=N, ?diff=OLD..NEW), the short-term
        summaries, a page of records (?kind=&since=&until=&offset=&limit=), a query (?q=)."""
        uid = self._checked(request)
        params = Params.parse(request.query_params.multi_items())
        view = await self.amem.run_for(uid, gather, self.amem.memory, uid, params)
        if view.explained is not None:
            self._log(request, uid, "query", view.explained)
        notice = NOTICES.get(request.query_params.get("notice", ""))
        log = None if self.activity is None else self.activity.recent(uid)
        auth = self.keys is not None
        shown = user_page(view, auth=auth, notice=notice, activity=log, controls=True)
        return html_response(shown)

    # --- corrections (fix.py) ------------------------------------------------------------
    def _confirm(self, request: Request, uid: str, **context: Any) -> Response:
        action = act_href(uid, str(context.pop("verb")))
        csrf = self.tokens.make(self._identity(request), uid)
        html = page(
            "confirm.html",
            f"recall inspector: {context['heading']}",
            user_id=uid,
            back=user_href(uid),
            action=action,
            csrf=csrf,
            auth=self.keys is not None,
            max_new=MAX_NEW_CHARS,
            # A browser sends "Origin: null" for a form posted under "no-referrer", and the
            # Gate refuses that; "same-origin" names this origin to this origin only.
            referrer="same-origin",
            **{"edit": None, "fields": [], "shown": [], **context},
        )
        return html_response(html, headers={"referrer-policy": "same-origin"})

    async def _posted(self, request: Request, uid: str) -> dict[str, str]:
        form = read_form(await request.body(), request.headers.get("content-type"))
        self.tokens.check(form.get("csrf"), self._identity(request), uid)
        return form.fields

    async def _article(self, uid: str) -> tuple[dict[str, str], int]:
        await self._held(uid)
        art = await self.amem.long_term(uid)
        return art.chapters(), art.version

    async def _held(self, uid: str) -> None:
        if not await self.amem.holds(uid):
            raise NotFoundError(f"user {uid!r} holds no memory here")

    async def forget(self, request: Request) -> Response:
        """GET /ui/forget/{user}?id=ID (a record) or ?version=&chapter=&n= (a sentence of
        the article): what will go; POST the same with the page's token: it goes."""
        uid = self._checked(request)
        posted = request.method == "POST"
        got = await self._posted(request, uid) if posted else dict(request.query_params)
        if "id" in got:
            record_id = got["id"].strip()
            if not record_id:
                raise InputError("the form needs the field 'id' (the record to forget)")
            await self._held(uid)
            record = record_of(list(await self.amem.records(uid)), record_id)
            if posted:
                self._log(request, uid, "forget", await self.amem.forget(uid, ids=[record_id]))
                return RedirectResponse(
                    done_href(user_href(uid), "record-forgotten", "records"), status_code=303
                )
            return self._confirm(
                request,
                uid,
                verb="forget",
                heading="Forget a record",
                explain="This record is deleted from the store, the keyword index and the "
                "vectors. Nothing else changes.",
                shown=[(f"{getattr(record, 'kind', '')} {record_id}", getattr(record, "text", ""))],
                fields=[("id", record_id)],
                button="Forget this record",
            )
        target = Target.parse(got)
        chapters, newest = await self._article(uid)
        sentence = target.sentence(chapters, newest)
        if posted:
            self._log(request, uid, "forget_fact", await self.amem.forget_fact(uid, sentence))
            return RedirectResponse(
                done_href(user_href(uid), "sentence-forgotten", "article"), status_code=303
            )
        gone = holding(chapters, sentence)
        return self._confirm(
            request,
            uid,
            verb="forget",
            heading="Forget a sentence of the article",
            explain=f"A new article version ({newest + 1}) is written without every sentence "
            f"that holds these words: {len(gone)} sentence{'' if len(gone) == 1 else 's'}, "
            "shown below. The records and summaries they came from keep them.",
            shown=[(f"{name}: removed", s) for name, s in gone],
            fields=target.fields(),
            button="Forget",
        )

    async def edit(self, request: Request) -> Response:
        """GET /ui/edit/{user}?version=&chapter=&n=: the sentence and a box for its new
        words; POST them with the page's token: every occurrence is replaced."""
        uid = self._checked(request)
        posted = request.method == "POST"
        got = await self._posted(request, uid) if posted else dict(request.query_params)
        target = Target.parse(got)
        chapters, newest = await self._article(uid)
        sentence = target.sentence(chapters, newest)
        if posted:
            if "new" not in got:
                raise InputError("the form needs the field 'new' (the replacement)")
            new = got["new"].strip()
            if len(new) > MAX_NEW_CHARS:
                raise InputError(f"new is {len(new)} characters, over {MAX_NEW_CHARS}")
            if new == sentence:
                raise InputError("new is the sentence as it stands: change it, or cancel")
            self._log(request, uid, "edit_fact", await self.amem.edit_fact(uid, sentence, new))
            return RedirectResponse(
                done_href(user_href(uid), "sentence-edited", "article"), status_code=303
            )
        count = sum(text.count(sentence) for text in chapters.values())
        return self._confirm(
            request,
            uid,
            verb="edit",
            heading="Edit a sentence of the article",
            explain=f"A new article version ({newest + 1}) is written with every occurrence "
            f"of this sentence ({count} in the article) replaced by the words below "
            "(empty: the sentence is removed).",
            shown=[(f"{target.chapter}: now", sentence)],
            fields=target.fields(),
            edit=sentence,
            button="Replace",
        )

    async def login(self, _request: Request) -> Response:
        """GET /ui/login: the form that trades the key for an inspector token, kept in
        this browser."""
        keys = self.keys is not None
        return html_response(login_page(keys=keys), script=keys)

    async def logout(self, request: Request) -> Response:
        """GET /ui/logout: the login's token revoked (refused from now on, wherever it was
        copied) and the cookie removed (no memory changes, so GET is right)."""
        if self.keys is not None:  # a file in the folder: off the event loop
            await anyio.to_thread.run_sync(self.keys.log_out, self._token(request))
        gone = f"{UI_COOKIE}=; Path=/ui; Max-Age=0; SameSite=Strict"
        return html_response(logout_page(), headers={"set-cookie": gone})

    async def script(self, _request: Request) -> Response:
        """GET the login page's script (a file of this origin: no inline script anywhere)."""
        return script_response()

    async def home(self, _request: Request) -> Response:
        """GET /ui/: the users page's one address is /ui."""
        return RedirectResponse("/ui", status_code=308)

    async def unknown(self, request: Request) -> Response:
        """Any other path under /ui: 404 as a page."""
        return html_error(NotFoundError(f"no inspector page at {request.url.path}; start at /ui"))
