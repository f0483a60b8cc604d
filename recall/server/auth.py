"""API keys and tenants: which user ids a request may touch.

Each key maps to a tenant. A tenant ``T`` owns exactly the user ids that start with
``T:`` (``acme:bob``, ``acme:alice/1``); a tenant name holds no ``:``, so two tenants
never share a user (``acme`` cannot reach ``acme2:bob``). The tenant ``*`` is an operator:
every user, and the stats. Keys come from ``RECALL_SERVER_API_KEYS`` (``KEY=TENANT``
pairs, comma-separated) and/or a file (``KEY TENANT`` a line, ``#`` comments); only their
SHA-256 digests are kept. With no key configured, the server answers loopback clients only.

A request names its key in a header (:func:`key_from_headers`). A person's browser on the
read-only inspector sends the cookie :data:`UI_COOKIE` instead: a login token made for
the key (:meth:`ApiKeys.ui_token`, fetched once by the login page; :mod:`.ui_login`), which
expires after ``inspector_login_s`` and is refused once logged out, and counts only
for a GET or HEAD under ``/ui`` and a POST to the inspector's two corrections, forget and
edit, each with its confirmation page's form token (:func:`ui_token`). The cookie never
holds the key, and never authorizes ``/v1``, ``/mcp`` or any other write: another service
on the same host that reads it can use this inspector, nothing more.
"""

from __future__ import annotations

import copy
import hashlib
import ipaddress
import re
from collections.abc import Iterable, Mapping
from pathlib import Path
from urllib.parse import unquote

from starlette.requests import cookie_parser

from ..errors import ConfigError
from .errors import AuthError, ForbiddenError
from .settings import ServerSettings
from .ui_login import Logins, key_id

__all__ = [
    "ApiKeys",
    "MIN_KEY_CHARS",
    "OPERATOR",
    "UI_COOKIE",
    "allows",
    "check_pinned",
    "is_loopback",
    "is_ui_correction",
    "is_ui_path",
    "key_from_headers",
    "tenant_of",
    "ui_token",
]

#: The tenant of an operator key: every user, and the stats resources.
OPERATOR = "*"
#: Shortest key accepted: a guessable key is no key.
MIN_KEY_CHARS = 16
_TENANT = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$")
#: The inspector's cookie: the key a person gave /ui/login, sent by the browser to /ui only.
UI_COOKIE = "recall_ui_key"
_UI = "/ui"
_READS = frozenset({"GET", "HEAD"})
_UI_CORRECTIONS = ("/ui/forget/", "/ui/edit/")


def _digest(key: str) -> str:
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


def tenant_of(user_id: str) -> str | None:
    """The tenant owning ``user_id`` (the part before its first ``:``), or None."""
    head, sep, _ = user_id.partition(":")
    return head if sep and _TENANT.match(head) else None


def allows(tenant: str, user_id: str) -> bool:
    """True when ``tenant`` may read and write ``user_id``."""
    return tenant == OPERATOR or tenant_of(user_id) == tenant


def check_pinned(pinned: str | None, user_id: str) -> None:
    """:class:`ForbiddenError` for any user but ``pinned`` on a server started for one user
    (``recall serve --user``): every surface (MCP, REST, ``/ui``) serves that user only."""
    if pinned is not None and user_id != pinned:
        raise ForbiddenError(
            f"this server serves user {pinned!r} only (started with --user {pinned}); "
            f"user {user_id!r} is refused"
        )


def key_from_headers(headers: Mapping[str, str] | None) -> str | None:
    """The API key of a request: ``Authorization: Bearer KEY``, else ``X-API-Key: KEY``."""
    if headers is None:
        return None
    auth = headers.get("authorization") or ""
    scheme, _, value = auth.partition(" ")
    if scheme.lower() == "bearer" and value.strip():
        return value.strip()
    return (headers.get("x-api-key") or "").strip() or None


def is_ui_path(path: str) -> bool:
    """True for the inspector's pages: ``/ui`` and everything under ``/ui/``."""
    return path == _UI or path.startswith(_UI + "/")


def is_ui_correction(path: str) -> bool:
    """True for the inspector's two correction addresses, ``/ui/forget/{user}`` and
    ``/ui/edit/{user}``: the only paths where a POST may carry the cookie (and must carry
    the confirmation page's form token, :mod:`recall.server.ui.fix`)."""
    return path.startswith(_UI_CORRECTIONS) and len(path) > len("/ui/edit/")


def ui_token(headers: Mapping[str, str], method: str, path: str) -> str | None:
    """The inspector token of a request: the :data:`UI_COOKIE` cookie, read for a GET or
    HEAD under ``/ui`` and for a POST to an inspector correction only (a write anywhere
    else, ``/v1`` and ``/mcp`` never read it), and only when the request names no key in
    its headers (a header key wins)."""
    if key_from_headers(headers) is not None or not is_ui_path(path):
        return None
    if method not in _READS and not (method == "POST" and is_ui_correction(path)):
        return None
    raw = cookie_parser(headers.get("cookie", "")).get(UI_COOKIE, "")
    return unquote(raw).strip() or None


def is_loopback(host: str | None) -> bool:
    """True for 127.0.0.0/8, ::1 and ``localhost``."""
    if host is None:
        return False
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


class ApiKeys:
    """The keys a server accepts, each with its tenant (see the module docs)."""

    def __init__(self, pairs: Iterable[tuple[str, str]], *, where: str = "API keys") -> None:
        self._tenants: dict[str, str] = {}
        for key, tenant in pairs:
            if len(key) < MIN_KEY_CHARS or any(c.isspace() or c in ",=" for c in key):
                raise ConfigError(
                    f"{where}: a key must be at least {MIN_KEY_CHARS} characters without "
                    "spaces, ',' or '='; make one with `python -c 'import secrets; "
                    "print(secrets.token_urlsafe(32))'`"
                )
            if tenant != OPERATOR and not _TENANT.match(tenant):
                raise ConfigError(
                    f"{where}: tenant {tenant!r} must be letters, digits, '.', '_' or '-' "
                    "(it owns the user ids that start with 'TENANT:'), or '*' for every user"
                )
            self._tenants[_digest(key)] = tenant
        self._kids = {key_id(d): d for d in self._tenants}
        #: The inspector's logins (:meth:`with_logins`: the folder's, with its lifetime).
        self.logins = Logins()

    def __len__(self) -> int:
        return len(self._tenants)

    @classmethod
    def from_settings(cls, settings: ServerSettings) -> ApiKeys | None:
        """The keys of ``RECALL_SERVER_API_KEYS`` and the key file; None when there are none."""
        pairs: list[tuple[str, str]] = []
        if settings.api_keys:
            for item in settings.api_keys.split(","):
                key, sep, tenant = item.strip().partition("=")
                if not sep:
                    raise ConfigError(
                        "RECALL_SERVER_API_KEYS: write KEY=TENANT pairs, comma-separated"
                    )
                pairs.append((key.strip(), tenant.strip()))
        if settings.api_keys_file is not None:
            pairs += _read_key_file(settings.api_keys_file)
        return cls(pairs) if pairs else None

    def tenant(self, key: str | None, *, ui: str | None = None) -> str:
        """The tenant of ``key``, else of the inspector token ``ui`` (:func:`ui_token`);
        ``AuthError`` when both are missing or unknown."""
        if not key and ui:
            digest = self._login_digest(ui)
            if digest is None:
                raise AuthError(
                    "unknown or stale inspector login (expired, or logged out): log in again "
                    "at /ui/login"
                )
            return self._tenants[digest]
        if not key:
            raise AuthError("this server needs an API key: send 'Authorization: Bearer KEY'")
        tenant = self._tenants.get(_digest(key))
        if tenant is None:
            raise AuthError("unknown API key")
        return tenant

    def with_logins(self, logins: Logins) -> ApiKeys:
        """These keys, their inspector logins kept by ``logins`` (a copy; this one as it was)."""
        keys = copy.copy(self)
        keys.logins = logins
        return keys

    def ui_token(self, key: str | None) -> str:
        """A new inspector token for ``key`` (what /ui/login keeps in the cookie instead of
        the key): good for GET and HEAD under ``/ui`` only, for ``logins.lifetime_s`` or
        until :meth:`log_out`. ``AuthError`` for no key or an unknown one."""
        self.tenant(key)
        assert key is not None
        return self.logins.issue(_digest(key))

    def identity(self, key: str) -> str:
        """Whose inspector forms a request with the header ``key`` sends (one-way)."""
        return "key:" + key_id(_digest(key))

    def log_out(self, ui: str | None) -> bool:
        """Revoke the inspector token ``ui``; False when it was no valid token."""
        if not ui or self._login_digest(ui) is None:
            return False
        self.logins.revoke(ui)
        return True

    def _login_digest(self, ui: str) -> str | None:
        digest = self._kids.get(ui.partition(".")[0])
        return digest if digest is not None and self.logins.valid(ui, digest) else None

    def check(self, key: str | None, user_id: str, *, ui: str | None = None) -> str:
        """``user_id`` if ``key`` (else the inspector token ``ui``) may touch it;
        ``AuthError`` or ``ForbiddenError`` if not."""
        tenant = self.tenant(key, ui=ui)
        if not allows(tenant, user_id):
            raise ForbiddenError(
                f"this API key's tenant {tenant!r} owns only user ids starting with "
                f"'{tenant}:'; {user_id!r} is not one of them"
            )
        return user_id

    def require_operator(self, key: str | None) -> None:
        """Pass for an operator key (tenant ``*``); ``ForbiddenError`` for any other."""
        if self.tenant(key) != OPERATOR:
            raise ForbiddenError("only an operator key (tenant '*') may read the server's stats")


def _read_key_file(path: Path) -> list[tuple[str, str]]:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigError(f"cannot read the API key file {path}: {exc}") from exc
    pairs = []
    for n, raw in enumerate(text.splitlines(), start=1):
        parts = raw.split("#", 1)[0].split()
        if not parts:
            continue
        if len(parts) != 2:
            raise ConfigError(f"{path}:{n}: write 'KEY TENANT' (two words), got {len(parts)}")
        pairs.append((parts[0], parts[1]))
    return pairs
