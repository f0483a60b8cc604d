"""The inspector's Jinja2 templates (``templates/*.html``, shipped in the package) and the
filters they use.

The environment escapes every ``{{ }}`` (``autoescape=True``): stored text, user ids and
query strings always render as text. Values are escaped as :func:`html.escape` does (both
quotes too), so an attribute value can never be closed by a stored quote. Markup made by
the templates themselves (macros, blocks) passes through once, unescaped twice.
"""

from __future__ import annotations

import html
from collections.abc import Iterator
from datetime import datetime, time
from functools import cache
from typing import Any
from urllib.parse import quote, urlencode

from jinja2 import Environment, PackageLoader, StrictUndefined
from markupsafe import Markup

from ...text.passages import split_sentences
from .view import user_href

__all__ = ["act_href", "article_sentences", "macro", "render"]

#: Why a hit stands above a higher fused score (Hit.reason), as the row says it.
ABOVE = {
    "current": "the user's current statement",
    "newest": "said after those below",
    "time_window": "inside the asked time",
}


def _finalize(value: Any) -> Any:
    # Escaped here as html.escape does (quotes as &#x27;), then left alone by autoescape.
    if isinstance(value, Markup):
        return value
    return Markup(html.escape(str(value), quote=True))


def _num(value: float | int) -> str:
    return str(value) if isinstance(value, int) else f"{value:.3f}"


def _plural(n: int, noun: str) -> str:
    return f"{n} {noun}" + ("" if n == 1 else "s")


def _diff_class(line: str) -> str:
    if line.startswith(("+++", "---", "@@")):
        return "hunk"
    if line.startswith("+"):
        return "add"
    if line.startswith("-"):
        return "del"
    return "ctx"


def _has_time(at: datetime) -> bool:
    # A record said on a day (created_at="2026-03-14") is stored at midnight: show the day.
    return at.time() != time()


def article_sentences(text: str) -> list[str]:
    """The sentences of one chapter, paragraph by paragraph, as the page numbers them (the
    ``n`` of an edit or forget link)."""
    return [s for para in text.split("\n\n") for s in split_sentences(para)]


def _sentences(text: str) -> Iterator[tuple[int, str]]:
    return iter(enumerate(article_sentences(text)))


def act_href(user_id: str, action: str, **params: Any) -> str:
    """The address of a correction's confirmation page: ``/ui/{action}/{user}?...``."""
    query = urlencode([(k, str(v)) for k, v in params.items()])
    return f"/ui/{action}/" + quote(user_id, safe=":@") + (f"?{query}" if query else "")


@cache
def _env() -> Environment:
    env = Environment(
        loader=PackageLoader("recall.server.ui", "templates"),
        autoescape=True,
        finalize=_finalize,
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=False,
    )
    env.filters.update(
        num=_num,
        plural=_plural,
        diff_class=_diff_class,
        has_time=_has_time,
        sentences=_sentences,
        above=ABOVE.__getitem__,
        user_href=user_href,
        act_href=act_href,
    )
    return env


def render(name: str, **context: Any) -> str:
    """Template ``name`` rendered with ``context`` (whole pages; no trailing newline)."""
    return _env().get_template(name).render(**context).strip()


def macro(name: str, *args: Any) -> str:
    """The macro ``name`` of ``sections.html`` called with ``args`` (one part of a page)."""
    module = _env().get_template("sections.html").make_module()
    return str(getattr(module, name)(*args))
