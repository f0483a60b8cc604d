"""Secrets hidden from every message, log line and listing: one pure function per need.

A connection string carries its password in several places, and libpq reads them all:
the userinfo (``postgresql://user:pw@host/db``), the query (``?password=``,
``?sslpassword=``; ``passfile`` names the file that holds one) and the ``key=value`` form
(``host=db password='p w' dbname=recall``). :func:`redact` masks each of them, wherever
it occurs in a text, so that a URL quoted inside a driver's message is masked too.
:func:`scrub` then removes the literal passwords of a known URL from any text (a driver
may quote a piece of the URL in an error of its own). :func:`shown_setting` is what
``recall settings`` and a settings error print for a value: API keys never, URLs masked.
"""

from __future__ import annotations

import re
from urllib.parse import parse_qsl, unquote, urlsplit

__all__ = ["MASK", "SECRET_SETTINGS", "redact", "scrub", "secrets_in", "shown_setting"]

#: What a hidden value is replaced with.
MASK = "***"

#: Settings whose whole value is a secret (``group.field``): printed as ``***`` when set.
SECRET_SETTINGS = frozenset({"server.api_keys"})

# Parameter names whose value is a secret, in a URL query or a key=value DSN: libpq's
# password, sslpassword and passfile, and the usual names of tokens and keys in other URLs.
_KEYS = (
    r"(?:ssl)?password|passfile|passwd|pwd|secret|client_secret|"
    r"(?:access_|auth_|refresh_)?token|api[_-]?key|apikey"
)
# scheme://user:PASSWORD@host: the password runs to the last '@' before the path or query.
# The password runs to the last "@" before the host: libpq allows "?", "#" and "@" in it.
_USERINFO = re.compile(r"(?P<head>[A-Za-z][A-Za-z0-9+.\-]*://[^\s:/?#@]*:)(?P<pw>[^\s/]*)@")
# name=VALUE after the start, whitespace or a query separator; a DSN value may be quoted.
_PARAM = re.compile(
    rf"(?P<head>(?:^|(?<=[\s?&;,(\"']))(?:{_KEYS})\s*=\s*)"
    r"(?P<value>'(?:[^'\\]|\\.)*'?|\"(?:[^\"\\]|\\.)*\"?|[^\s&#]*)",
    re.IGNORECASE,
)
# The same in a query whose parameter name is percent-encoded (libpq decodes names too).
_ENCODED = re.compile(r"(?P<head>(?<=[?&])(?P<name>[^=&#\s]*%[0-9A-Fa-f]{2}[^=&#\s]*)=)[^&#\s]*")
_KEY = re.compile(_KEYS, re.IGNORECASE)


def redact(text: str) -> str:
    """``text`` with every password, token or key in a URL or DSN form replaced by ``***``.

    Pure and idempotent: ``redact(redact(t)) == redact(t)``; text without secrets is
    returned unchanged.
    """
    text = _USERINFO.sub(lambda m: f"{m['head']}{MASK}@", text)
    text = _PARAM.sub(lambda m: m["head"] + MASK if m["value"] else m["head"], text)
    return _ENCODED.sub(
        lambda m: m["head"] + MASK if _KEY.fullmatch(unquote(m["name"])) else m[0], text
    )


def secrets_in(url: str) -> list[str]:
    """The literal secrets a connection URL or DSN holds (as written and percent-decoded).

    For :func:`scrub`: a driver's error may quote a piece of its connection string.
    """
    found: list[str] = [m["pw"] for m in _USERINFO.finditer(url)]
    found += [m["value"].strip("'\"") for m in _PARAM.finditer(url)]
    try:
        query = urlsplit(url).query
    except ValueError:  # not a URL (a DSN): the patterns above saw it all
        query = ""
    found += [v for k, v in parse_qsl(query, keep_blank_values=True) if _KEY.fullmatch(k)]
    secrets = {s for f in found for s in (f, unquote(f)) if len(s) >= 3}
    # The longest first, so that a secret holding a shorter one is replaced whole.
    return sorted(secrets, key=len, reverse=True)


def scrub(text: str, url: str | None = None) -> str:
    """:func:`redact` of ``text``, with the literal secrets of ``url`` removed as well."""
    text = redact(text)
    for secret in secrets_in(url) if url else ():
        text = text.replace(secret, MASK)
    return text


def shown_setting(name: str, value: object) -> object:
    """``value`` of the setting ``name`` (``group.field``) as it may be printed or logged.

    A secret setting is ``***`` once set; any other text is :func:`redact` -ed (a store or
    Chroma URL keeps its host and database, never its password).
    """
    if value is None or value == "":
        return value
    if name in SECRET_SETTINGS:
        return MASK
    if isinstance(value, str):
        return redact(value)
    return value
