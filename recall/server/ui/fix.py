"""Corrections from the inspector: forget a record, forget or edit a sentence of the
article, each a confirmation page (GET) and then a form's POST.

- ``GET /ui/forget/{user}?id=ID``: the record that will be deleted
  (:meth:`recall.Memory.forget` with ``ids``); ``GET /ui/forget/{user}?version=V&chapter=C&n=N``:
  the article's sentences :meth:`recall.Memory.forget_fact` will remove (those holding the
  sentence ``N`` of chapter ``C``); ``GET /ui/edit/{user}?version=V&chapter=C&n=N``: the
  sentence and a box for its replacement (:meth:`recall.Memory.edit_fact`, every occurrence).
- ``POST`` to the same address with the page's fields and its ``csrf`` token: the change,
  then ``303`` back to the user page with a notice.

A sentence is named by the article version it was read from: a POST against an article
that has changed since is a 400 naming ``version`` (reload), never a change to words the
person did not see. Keys, tenants, Host and Origin are the rest of the inspector's (the
Gate and :class:`~.routes.InspectorUi`); the ``csrf`` token (:class:`FormTokens`) is an
HMAC, under a secret kept in the memory folder, of the request's inspector token and the
user: a page of another site, which cannot read this one, cannot make it.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import parse_qsl

from ...errors import InputError
from ..errors import ForbiddenError, NotFoundError
from .templates import act_href, article_sentences

__all__ = [
    "Form",
    "FormTokens",
    "MAX_NEW_CHARS",
    "NOTICES",
    "Target",
    "act_href",
    "done_href",
    "holding",
    "number",
    "read_form",
    "record_of",
]

#: The longest replacement an edit takes: a sentence or a few, not a document.
MAX_NEW_CHARS = 2000
_MAX_FIELDS = 12
_MAX_DIGITS = 18
#: What the user page says after each correction (the redirect names one of these keys).
NOTICES = {
    "record-forgotten": "The record was forgotten (deleted from every index).",
    "sentence-forgotten": "The sentence was removed from the article (a new version).",
    "sentence-edited": "The article was edited (a new version).",
}
SECRET_FILE = Path("server") / "inspector-secret"


class FormTokens:
    """The ``csrf`` token of each (inspector login, user) pair: an HMAC under a random
    secret made once per memory folder (``server/inspector-secret``, mode 0600), so every
    worker and replica serving that folder makes and checks the same tokens."""

    def __init__(self, folder: Path) -> None:
        self.folder = Path(folder)
        self._secret: bytes | None = None

    def _key(self) -> bytes:
        if self._secret is None:
            path = self.folder / SECRET_FILE
            path.parent.mkdir(parents=True, exist_ok=True)
            try:
                fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            except FileExistsError:
                secret = path.read_text(encoding="ascii").strip()
            else:
                secret = secrets.token_hex(32)
                with os.fdopen(fd, "w", encoding="ascii") as out:
                    out.write(secret + "\n")
            if len(secret) < 32:  # a file another process is still writing: read again
                secret = path.read_text(encoding="ascii").strip()
            self._secret = secret.encode("ascii")
        return self._secret

    def make(self, identity: str, user_id: str) -> str:
        """The token of ``identity`` (the login's inspector token; ``loopback`` without
        keys) for corrections of ``user_id``."""
        message = f"recall-ui-form\n{identity}\n{user_id}".encode()
        return hmac.new(self._key(), message, hashlib.sha256).hexdigest()

    def check(self, given: str | None, identity: str, user_id: str) -> None:
        """``ForbiddenError`` (403) unless ``given`` is the token of ``identity`` and
        ``user_id``."""
        if not given or not hmac.compare_digest(given, self.make(identity, user_id)):
            raise ForbiddenError(
                "this form's token is missing or wrong (csrf): open the page again from "
                "the inspector and send its form"
            )


@dataclass(frozen=True)
class Form:
    """A POSTed form's fields (each at most once)."""

    fields: dict[str, str]

    def get(self, name: str) -> str | None:
        """The field ``name``, or None."""
        return self.fields.get(name)

    def need(self, name: str) -> str:
        """The field ``name``; ``InputError`` naming it when absent or empty."""
        value = self.fields.get(name, "").strip()
        if not value:
            raise InputError(f"the form needs the field {name!r}")
        return value


def read_form(body: bytes, content_type: str | None) -> Form:
    """The fields of a urlencoded form body; ``InputError`` (400) for anything else."""
    media = (content_type or "").split(";", 1)[0].strip().lower()
    if media != "application/x-www-form-urlencoded":
        raise InputError(
            "send the inspector's form as application/x-www-form-urlencoded (the page's own "
            f"form does), got {content_type or 'no Content-Type'!r}"
        )
    try:
        text = body.decode("utf-8")
        pairs = parse_qsl(text, keep_blank_values=True, max_num_fields=_MAX_FIELDS)
    except (UnicodeDecodeError, ValueError):
        raise InputError("the form is not valid UTF-8 form data, or has too many fields") from None
    fields: dict[str, str] = {}
    for name, value in pairs:
        if name in fields:
            raise InputError(f"give the field {name!r} once, not twice")
        fields[name] = value
    return Form(fields)


def number(name: str, raw: str | None) -> int:
    """``raw`` as a whole number >= 0; ``InputError`` naming ``name`` if it is not one."""
    raw = (raw or "").strip()
    if not (raw.isascii() and raw.isdigit() and len(raw) <= _MAX_DIGITS):
        raise InputError(f"{name} must be a whole number >= 0, got {raw[:24]!r}")
    return int(raw)


@dataclass(frozen=True)
class Target:
    """One sentence of the article: the version it was read from, its chapter, its index."""

    version: int
    chapter: str
    n: int

    @classmethod
    def parse(cls, get: dict[str, str]) -> Target:
        """The sentence ``get`` names (``version``, ``chapter``, ``n``); ``InputError``
        naming the field that is missing or bad."""
        chapter = (get.get("chapter") or "").strip()
        if not chapter:
            raise InputError("name the article's chapter: chapter=Bedrock, Evolutionary or Dynamic")
        return cls(number("version", get.get("version")), chapter, number("n", get.get("n")))

    def fields(self) -> list[tuple[str, str]]:
        """The form's hidden fields naming this sentence."""
        return [("version", str(self.version)), ("chapter", self.chapter), ("n", str(self.n))]

    def sentence(self, chapters: dict[str, str], newest: int) -> str:
        """The sentence in ``chapters`` (the article at version ``newest``); ``InputError``
        for a version that is no longer the newest, an unknown chapter, a bad index."""
        if self.version != newest:
            raise InputError(
                f"version {self.version} of the article is no longer the newest ({newest} "
                "is): reload the user page and choose the sentence again"
            )
        by_name = {name.lower(): text for name, text in chapters.items()}
        text = by_name.get(self.chapter.lower())
        if text is None:
            raise InputError(
                f"chapter must be one of {', '.join(chapters)}, got {self.chapter[:40]!r}"
            )
        sentences = article_sentences(text)
        if self.n >= len(sentences):
            raise InputError(f"n: chapter {self.chapter} has {len(sentences)} sentences")
        return sentences[self.n]


def holding(chapters: dict[str, str], fact: str) -> list[tuple[str, str]]:
    """Each (chapter, sentence) of the article that holds ``fact`` (case and spacing
    ignored): what forgetting it removes."""
    needle = " ".join(fact.split()).casefold()
    return [
        (name, s)
        for name, text in chapters.items()
        for s in article_sentences(text)
        if needle in " ".join(s.split()).casefold()
    ]


def record_of(records: list[object], record_id: str) -> object:
    """The record ``record_id`` among ``records``; ``NotFoundError`` (404) if none."""
    for r in records:
        if getattr(r, "id", None) == record_id:
            return r
    raise NotFoundError(f"no record {record_id[:80]!r} here: it may be forgotten already")


def done_href(user_href: str, notice: str, anchor: str) -> str:
    """Where a correction sends the browser: the user page with ``notice``, at ``anchor``."""
    return f"{user_href}?notice={notice}#{anchor}"
