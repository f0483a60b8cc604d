"""Read-only views over REST: a user's records page by page, the article's versions and the
difference between two of them, a query explained (:mod:`recall.memory.inspect`), and the
user's profile.

- ``GET /v1/users/{user}/records?kind=...&since=...&until=...&offset=...&limit=...``: a
  :class:`~recall.memory.inspect.RecordPage`, newest said first;
- ``GET .../long-term/versions``: every version of the article, newest first;
- ``GET .../long-term/diff?old=N&new=M``: what changed per chapter (``new``: default the
  newest);
- ``POST .../explain`` with the body of ``POST .../recall``: deep_recall's hits and the ones
  the relevance floor removed, each with both legs' scores.
- ``GET .../profile``: :meth:`recall.Memory.profile`, each attribute's values oldest first
  (a user who said nothing of the kind: no attributes).

Each route checks the user like every other (the API key's tenant). Query parameters are
checked here, before the memory sees them: an unknown or repeated name, a number that is
not ASCII digits, a date outside what a datetime holds is a 400 naming it, never a 500.
:data:`BROWSE_ENDPOINTS` joins :data:`~recall.server.rest.ENDPOINTS` (so the routes and the
OpenAPI document), and :data:`BROWSE_QUERY` documents the query parameters there.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pydantic import BaseModel
from starlette.requests import Request
from starlette.responses import Response

from ..errors import InputError
from ..memory.inspect import ArticleDiff, Explained, RecordPage
from ..models import Profile, as_utc
from ..text.dates import parse_bound
from . import schemas as s
from .auth import key_from_headers
from .bodies import json_response, parse_json
from .errors import NotFoundError
from .rest_endpoint import Endpoint, require_held

if TYPE_CHECKING:
    from .rest import RestApi

__all__ = ["BROWSE_ENDPOINTS", "BROWSE_QUERY", "BrowseApi", "UiToken", "check_window"]

_U = "/v1/users/{user}"
# More digits than any offset or version will need, fewer than int() chokes on.
_MAX_DIGITS = 18
# An ISO date-time with offset and microseconds is 32 characters.
_MAX_DATE_CHARS = 40


class UiToken(BaseModel):
    """A new inspector login of a key: good for GET and HEAD under ``/ui`` only, for
    ``expires_in`` seconds or until ``/ui/logout``."""

    token: str
    expires_in: int


BROWSE_ENDPOINTS: tuple[Endpoint, ...] = (
    Endpoint("GET", f"{_U}/records", "browse",
             "A page of the user's records, newest said first (by kind and said date)",
             response=RecordPage),
    Endpoint("GET", f"{_U}/long-term/versions", "article_versions",
             "The long-term article's versions, newest first", response=s.ArticleVersions),
    Endpoint("GET", f"{_U}/long-term/diff", "article_diff",
             "What changed in the article from version old to new (?old=N&new=M)",
             response=ArticleDiff),
    Endpoint("POST", f"{_U}/explain", "explain",
             "Deep recall explained: the hits and those the relevance floor removed",
             s.RecallBody, Explained),
    Endpoint("GET", f"{_U}/profile", "profile",
             "What is true of the user now and what was, per attribute, oldest first",
             response=Profile),
    Endpoint("POST", "/v1/ui-token", "ui_token",
             "The inspector token of the request's key (what /ui/login keeps in its cookie)",
             response=UiToken),
)  # fmt: skip


def _param(name: str, description: str, schema: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"name": name, "in": "query", "required": False, "description": description,
            "schema": schema, **extra}  # fmt: skip


_DATE = {"type": "string", "maxLength": _MAX_DATE_CHARS}
_WHOLE = {"type": "integer", "minimum": 0}

#: The query parameters of each GET route, for the OpenAPI document.
BROWSE_QUERY: dict[str, list[dict[str, Any]]] = {
    "browse": [
        _param("kind", "Only these kinds (repeatable; default every kind).",
               {"type": "array", "items": {"type": "string"}}, style="form", explode=True),
        _param("since", "Said on or after this ISO date or date-time.", _DATE),
        _param("until", "Said before this date-time; a bare date keeps its whole day.", _DATE),
        _param("offset", "Records to skip (default 0); a page's next_offset.", _WHOLE),
        _param("limit", "Records per page, 1-500 (default 50).",
               {"type": "integer", "minimum": 1, "maximum": 500}),
    ],
    "article_diff": [
        {**_param("old", "The version to compare from.", _WHOLE), "required": True},
        _param("new", "The version to compare to (default the newest).", _WHOLE),
    ],
}  # fmt: skip


def check_window(since: str | None, until: str | None) -> None:
    """:class:`InputError` unless ``since`` and ``until`` are dates the memory can compare.

    The memory parses them again; checked here, a bad one is a 400 naming the parameter
    before any work starts.
    """
    for name, value, end in (("since", since, False), ("until", until, True)):
        if value is None:
            continue
        if len(value) > _MAX_DATE_CHARS:
            raise InputError(f"{name} must be an ISO 8601 date such as '2026-03-14'")
        try:
            as_utc(parse_bound(value, name, end=end))
        except ValueError as exc:
            raise InputError(str(exc)) from None


def _query(request: Request, names: dict[str, bool]) -> dict[str, list[str]]:
    """The query parameters, each of ``names`` (name: repeatable), or :class:`InputError`."""
    got: dict[str, list[str]] = {}
    for name, value in request.query_params.multi_items():
        if name not in names:
            takes = ", ".join(names) or "none"
            raise InputError(f"unknown query parameter {name!r}; this route takes {takes}")
        got.setdefault(name, []).append(value)
    for name, values in got.items():
        if len(values) > 1 and not names[name]:
            raise InputError(f"send {name} once, got it {len(values)} times")
    return got


def _whole(got: dict[str, list[str]], name: str) -> int | None:
    """Query parameter ``name`` as a whole number, None when absent."""
    if name not in got:
        return None
    raw = got[name][0]
    # isdigit() alone takes '²' and other digits int() refuses.
    if not (raw.isascii() and raw.isdigit() and len(raw) <= _MAX_DIGITS):
        raise InputError(f"{name} must be a whole number such as ?{name}=3, got {raw[:40]!r}")
    return int(raw)


class BrowseApi:
    """The handlers of :data:`BROWSE_ENDPOINTS`, with the checks of ``rest``."""

    def __init__(self, rest: RestApi) -> None:
        self.rest = rest

    async def ui_token(self, request: Request) -> Response:
        """POST /v1/ui-token: the token /ui/login keeps instead of the key (the key is in
        the request's header, checked by the Gate)."""
        if self.rest.keys is None:
            raise NotFoundError("this server has no API keys: the inspector needs no login")
        raw = await request.body()  # no fields; but a body sent is JSON, UTF-8
        if raw.strip():
            parse_json(raw)
        keys = self.rest.keys
        token = keys.ui_token(key_from_headers(request.headers))
        return json_response(UiToken(token=token, expires_in=int(keys.logins.lifetime_s)))

    async def browse(self, request: Request) -> Response:
        """GET /records: Memory.browse."""
        uid = self.rest._user(request)
        names = {"kind": True, "since": False, "until": False, "offset": False, "limit": False}
        got = _query(request, names)
        since, until = (got[n][0] if n in got else None for n in ("since", "until"))
        check_window(since, until)
        offset, limit = _whole(got, "offset"), _whole(got, "limit")
        await require_held(self.rest.amem, uid)
        page = await self.rest.amem.browse(
            uid,
            kinds=got.get("kind"),
            since=since,
            until=until,
            offset=0 if offset is None else offset,
            limit=50 if limit is None else limit,
        )
        return json_response(page)

    async def article_versions(self, request: Request) -> Response:
        """GET /long-term/versions: Memory.article_versions (empty: no article yet)."""
        uid = self.rest._user(request)
        _query(request, {})
        await require_held(self.rest.amem, uid)
        versions = await self.rest.amem.article_versions(uid)
        return json_response(s.ArticleVersions(user_id=uid, versions=versions))

    async def article_diff(self, request: Request) -> Response:
        """GET /long-term/diff: Memory.article_diff (404 for a version that does not exist)."""
        uid = self.rest._user(request)
        got = _query(request, {"old": False, "new": False})
        old = _whole(got, "old")
        if old is None:
            raise InputError("old is required: the version to compare from, such as ?old=1")
        await require_held(self.rest.amem, uid)
        return json_response(await self.rest.amem.article_diff(uid, old, _whole(got, "new")))

    async def explain(self, request: Request) -> Response:
        """POST /explain: Memory.explain, with the body and the top_k bound of /recall."""
        _, built = await self.rest.recall_body(request)
        return json_response(await self.rest.amem.explain(built))

    async def profile(self, request: Request) -> Response:
        """GET /profile: Memory.profile (no attributes: nothing said of the kind yet)."""
        uid = self.rest._user(request)
        _query(request, {})
        await require_held(self.rest.amem, uid)
        return json_response(await self.rest.amem.profile(uid))
