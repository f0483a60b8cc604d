"""The inspector's routes: ``/ui`` (the users a key may see), ``/ui/users/{user}`` (one
user's memory), ``/ui/login`` and ``/ui/logout``, and the login script.

Read-only: every route takes GET (and HEAD) only and calls only the facade's read-only
views. Keys and tenants are the REST API's: a key sees its tenant's users (the operator
key ``*`` every user; with no keys configured, every user, since the server then answers
loopback clients only), and a user outside the key's tenant is refused 403 as REST does.
The key comes in the REST headers or in the login page's cookie, which the Gate accepts
for GET and HEAD under ``/ui`` only (:func:`recall.server.auth.ui_token`).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import Route

from ...models import require_user_id
from ..aio import AsyncMemory
from ..auth import OPERATOR, UI_COOKIE, ApiKeys, check_pinned, key_from_headers, ui_token
from ..errors import NotFoundError
from .answers import html_error, html_response, script_response
from .render import LOGIN_SCRIPT, login_page, logout_page, user_page, users_page
from .view import Params, gather, visible_users

__all__ = ["InspectorUi", "PUBLIC_PATHS"]

#: Answered without a key: the login form and its script, and logging out (a person whose
#: key is wrong or withdrawn must still be able to remove it). None shows any memory.
PUBLIC_PATHS = frozenset({"/ui/login", "/ui/logout", LOGIN_SCRIPT})

_Handler = Callable[[Request], Awaitable[Response]]


class InspectorUi:
    """The inspector's pages over one memory and one key set (see the module docs)."""

    def __init__(self, amem: AsyncMemory, keys: ApiKeys | None, pinned: str | None = None) -> None:
        self.amem = amem
        self.keys = keys
        self.pinned = pinned  # a server started with --user shows that user only

    def routes(self) -> list[Route]:
        """The Starlette routes, GET (and so HEAD) only; any failure answers a page."""
        table: list[tuple[str, _Handler]] = [
            ("/ui", self.users),
            ("/ui/", self.home),
            ("/ui/login", self.login),
            ("/ui/logout", self.logout),
            (LOGIN_SCRIPT, self.script),
            ("/ui/users/{user:path}", self.user),  # a user id may hold "/"
            ("/ui/{rest:path}", self.unknown),
        ]
        return [Route(path, self._wrap(fn), methods=["GET"]) for path, fn in table]

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
        uid = require_user_id(request.path_params["user"])
        if self.keys is not None:
            self.keys.check(key_from_headers(request.headers), uid, ui=self._token(request))
        check_pinned(self.pinned, uid)
        params = Params.parse(request.query_params.multi_items())
        view = await self.amem.run_for(uid, gather, self.amem.memory, uid, params)
        return html_response(user_page(view, auth=self.keys is not None))

    async def login(self, _request: Request) -> Response:
        """GET /ui/login: the form that trades the key for an inspector token, kept in
        this browser."""
        keys = self.keys is not None
        return html_response(login_page(keys=keys), script=keys)

    async def logout(self, _request: Request) -> Response:
        """GET /ui/logout: the cookie removed (it changes no memory, so GET is right)."""
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
