"""What the inspector shows of one user, gathered in one call, and the query string that
chooses it.

:class:`Params` is the page's query string, checked at the edge (a bad value is an
``InputError``, HTTP 400, before any read; sizes bounded here, below the facade's own
limits); :func:`gather` reads everything one page shows into a :class:`UserView` through
the facade's read-only views, the profile included; the renderer (:mod:`.render`) turns
that into HTML.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any
from urllib.parse import quote, urlencode

from ...errors import InputError, UnknownUserError
from ...memory.inspect import ArticleDiff, ArticleVersion, Explained, RecordPage, record_kinds
from ...models import Profile, Record, require_user_id
from ...text.dates import parse_bound
from ..auth import allows
from ..errors import NotFoundError

if TYPE_CHECKING:
    from ... import LongTerm
    from ...memory import Memory

__all__ = [
    "MAX_LIMIT",
    "MAX_QUERY_CHARS",
    "Params",
    "UserView",
    "gather",
    "user_href",
    "visible_users",
]

#: Records one inspector page lists at most (the facade allows more; a page is for reading).
MAX_LIMIT = 200
#: Longest query the inspector's box takes: a question, not a document.
MAX_QUERY_CHARS = 1000
# More digits than any offset or version will have, fewer than int() chokes on.
_MAX_DIGITS = 18
_MAX_BOUND_CHARS = 40
_SINGLE = ("version", "diff", "since", "until", "offset", "limit", "q")


def _number(name: str, raw: str) -> int:
    # isdigit() alone takes '²' and other digits int() refuses.
    if not (raw.isascii() and raw.isdigit() and len(raw) <= _MAX_DIGITS):
        raise InputError(f"{name} must be a whole number >= 0 such as ?{name}=2, got {raw[:24]!r}")
    return int(raw)


def _bound(name: str, raw: str) -> str:
    if len(raw) > _MAX_BOUND_CHARS:
        raise InputError(f"{name} must be a date such as 2026-03-14, got {len(raw)} characters")
    try:
        parse_bound(raw, name)
    except ValueError as exc:
        raise InputError(str(exc)) from None
    return raw


def _diff(raw: str) -> tuple[int, int | None]:
    old, sep, new = raw.partition("..")
    if not sep:
        return _number("diff", old), None
    return _number("diff", old), _number("diff", new)


def _collect(items: Iterable[tuple[str, str]]) -> tuple[dict[str, str], list[str]]:
    """The single-valued parameters by name (each at most once), and the kinds named."""
    values: dict[str, str] = {}
    kinds: list[str] = []
    for name, value in items:
        if name == "kind":
            if value.strip():
                kinds.append(value.strip())
        elif name in _SINGLE:
            if name in values:
                raise InputError(f"give {name} once, not twice")
            values[name] = value.strip()
    return values, kinds


@dataclass(frozen=True)
class Params:
    """The user page's query string: which article version, which diff, which records,
    which query (each absent or empty value: the default)."""

    version: int | None = None
    diff: tuple[int, int | None] | None = None
    kinds: tuple[str, ...] = ()
    since: str | None = None
    until: str | None = None
    offset: int = 0
    limit: int = 50
    query: str | None = None

    @classmethod
    def parse(cls, items: Iterable[tuple[str, str]]) -> Params:
        """The parameters of ``items`` (the query string's pairs, repeats kept; other
        names ignored); ``InputError`` naming the parameter and what to send for a bad one."""
        values, kinds = _collect(items)
        got: dict[str, Any] = {"kinds": tuple(record_kinds(kinds))}
        for name in ("since", "until"):
            if values.get(name):
                got[name] = _bound(name, values[name])
        for name in ("version", "offset", "limit"):
            if values.get(name):
                got[name] = _number(name, values[name])
        if not 1 <= got.get("limit", 1) <= MAX_LIMIT:
            raise InputError(f"limit must be from 1 to {MAX_LIMIT}, got {got['limit']}")
        if values.get("diff"):
            got["diff"] = _diff(values["diff"])
        query = values.get("q", "")
        if len(query) > MAX_QUERY_CHARS:
            raise InputError(
                f"the query is {len(query)} characters, over the inspector's {MAX_QUERY_CHARS}; "
                "ask the question itself"
            )
        if query:
            got["query"] = query
        return cls(**got)

    def items(self) -> list[tuple[str, str]]:
        """The query string's pairs of these parameters (defaults left out)."""
        out: list[tuple[str, str]] = []
        if self.version is not None:
            out.append(("version", str(self.version)))
        if self.diff is not None:
            old, new = self.diff
            out.append(("diff", f"{old}..{new}" if new is not None else str(old)))
        out += [("kind", k) for k in self.kinds]
        out += [(n, v) for n, v in (("since", self.since), ("until", self.until)) if v]
        if self.offset:
            out.append(("offset", str(self.offset)))
        if self.limit != Params.limit:
            out.append(("limit", str(self.limit)))
        if self.query:
            out.append(("q", self.query))
        return out

    def href(self, user_id: str, **changes: Any) -> str:
        """The user page's address with these parameters, ``changes`` applied."""
        query = urlencode(replace(self, **changes).items())
        return user_href(user_id) + (f"?{query}" if query else "")


def user_href(user_id: str) -> str:
    """The inspector page of ``user_id`` (its id percent-encoded, ``:`` kept)."""
    return "/ui/users/" + quote(user_id, safe=":@")


@dataclass(frozen=True)
class UserView:
    """Everything one inspector page (or a memory report) shows of one user."""

    user_id: str
    params: Params
    article: LongTerm
    versions: list[ArticleVersion]
    short_term: list[Record]
    page: RecordPage
    #: Every kind the user holds, with its number of records (the kind filter's choices).
    kinds: dict[str, int] = field(default_factory=dict)
    diff: ArticleDiff | None = None
    explained: Explained | None = None
    #: What is true of the user now and what was (Memory.profile).
    profile: Profile | None = None


def visible_users(memory: Memory, tenant: str) -> list[tuple[str, int]]:
    """The users ``tenant`` may see (``*``: all), each with its number of records."""
    counts = memory.record_counts()
    return [
        (uid, sum(counts.get(uid, {}).values())) for uid in memory.users() if allows(tenant, uid)
    ]


def gather(memory: Memory, user_id: str, params: Params, *, report: bool = False) -> UserView:
    """Read what the page of ``user_id`` shows (blocking: run it on a worker thread).

    ``report``: every record on one page and, unless ``params`` names one, the difference
    between the last two article versions. ``UnknownUserError`` (404) for a user that
    holds nothing, ``NotFoundError`` (404) for a version past the newest.
    """
    uid = require_user_id(user_id)
    held = memory.index_state(uid).users
    if not held:
        raise UnknownUserError(f"user {uid!r} holds no memory here")
    newest = memory.article_version(uid)
    if params.version is not None and params.version > newest:
        raise NotFoundError(
            f"user {uid!r} has no long-term version {params.version}; newest is {newest}"
        )
    versions = memory.article_versions(uid)
    diff_of = params.diff
    if diff_of is None and report and len(versions) >= 2:
        diff_of = (versions[1].version, versions[0].version)
    if report:
        rows = sorted(memory.records(uid), key=lambda r: (r.created_at, r.id), reverse=True)
        page = RecordPage(records=rows, total=len(rows), offset=0, limit=max(len(rows), 1))
    else:
        page = memory.browse(
            uid,
            kinds=list(params.kinds) or None,
            since=params.since,
            until=params.until,
            offset=params.offset,
            limit=params.limit,
        )
    return UserView(
        user_id=uid,
        params=params,
        article=memory.long_term(uid, params.version),
        versions=versions,
        short_term=memory.short_term(uid),
        page=page,
        kinds=held[0].kinds,
        diff=None if diff_of is None else memory.article_diff(uid, *diff_of),
        explained=None if params.query is None else memory.explain(params.query, user_id=uid),
        profile=memory.profile(uid),
    )
