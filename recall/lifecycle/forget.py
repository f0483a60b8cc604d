"""Forgetting a fact everywhere: what each tier looks like without it (pure functions).

``Memory.forget(user_id, text)`` removes a fact from every tier; this module decides what
each piece of text becomes, the facade writes the result through its indexed write path:

- a record (a short-term summary, an archive record, a raw turn, a note, any kind) whose
  text contains the fact is **rewritten** without the sentences that contain it, so the
  rest of a summary stays; a record left with nothing, or whose match spans sentences, is
  **deleted**;
- the long-term article gets a new version without those sentences
  (:func:`scrub_article`), and every **older version** is
  scrubbed in place the same way: a fact still readable with ``long_term(version=old)``
  would not be forgotten, and a later rollback must not bring it back.

Matching is :func:`needle`'s: case and runs of spaces are ignored.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import replace

from ..errors import InputError
from ..jsonlimits import shown
from ..models import Record
from ..store.base import ArticleRow
from .article import Article
from .sentences import split_whole_sentences

__all__ = [
    "MIN_FACT_CHARS",
    "forget_in_records",
    "needle",
    "norm",
    "scrub_article",
    "scrub_rows",
    "scrub_text",
    "without_sentences",
]

#: The shortest fact forget accepts: one letter would take every sentence holding it.
MIN_FACT_CHARS = 2

_SPACES = re.compile(r"[ \t]+")
_CHAPTERS = ("bedrock", "evolutionary", "dynamic")


def norm(text: str) -> str:
    """``text`` as facts are matched in it: runs of white space one space, case folded."""
    return " ".join(text.split()).casefold()


def without_sentences(paragraph: str, wanted: str) -> tuple[str, int]:
    """``paragraph`` less its sentences that contain ``wanted`` (a :func:`needle`), and how
    many went; the white space they leave is the caller's to tidy."""
    para, removed = paragraph, 0
    for sentence in split_whole_sentences(paragraph):
        if wanted in norm(sentence):
            para = para.replace(sentence, "", 1)
            removed += 1
    return para, removed


def needle(fact: object) -> str:
    """``fact`` as forget matches it (case and spacing ignored); InputError when it is not
    a string of at least :data:`MIN_FACT_CHARS` characters."""
    if not isinstance(fact, str):
        raise InputError(f"the text to forget must be a string, got {type(fact).__name__}")
    matched = norm(fact)
    if len(matched) < MIN_FACT_CHARS:
        raise InputError(
            f"the text to forget must hold at least {MIN_FACT_CHARS} characters, got "
            f"{shown(fact)}: pass the words of the fact (a name, a number, a phrase)"
        )
    return matched


def scrub_text(text: str, wanted: str) -> str | None:
    """``text`` without the sentences containing ``wanted`` (a :func:`needle`): None when
    it does not hold it, ``""`` when nothing would be left or when the match spans
    sentences (the whole text must go)."""
    if wanted not in norm(text):
        return None
    removed = 0
    paragraphs = []
    for original in text.split("\n\n"):
        para, went = without_sentences(original, wanted)
        removed += went
        para = "\n".join(_SPACES.sub(" ", line).strip() for line in para.split("\n"))
        para = "\n".join(line for line in para.split("\n") if line)
        if para:
            paragraphs.append(para)
    if not removed or any(wanted in norm(p) for p in paragraphs):
        # The fact straddles sentences: its paragraphs go whole.
        paragraphs = [p for p in paragraphs if wanted not in norm(p)]
    out = "\n\n".join(paragraphs)
    if wanted in norm(out):
        return ""  # it straddles paragraphs: keep none of the text
    return out


def scrub_article(article: Article, wanted: str) -> Article:
    """``article`` with :func:`scrub_text` applied to every chapter."""
    chapters = {}
    for name, text in article.chapters().items():
        scrubbed = scrub_text(text, wanted)
        chapters[name.lower()] = text if scrubbed is None else scrubbed
    return Article(**chapters)


def forget_in_records(
    records: Iterable[Record], wanted: str, count: Callable[[str], int] | None = None
) -> tuple[list[Record], list[str]]:
    """The records holding ``wanted``: those to rewrite (same id, kind, dates, metadata;
    ``tokens`` recounted with ``count`` when given) and the ids of those to delete."""
    rewritten: list[Record] = []
    deleted: list[str] = []
    for record in records:
        text = scrub_text(record.text, wanted)
        if text is None:
            continue
        if not text.strip():
            deleted.append(record.id)
            continue
        tokens = record.tokens if count is None else count(text)
        rewritten.append(record.model_copy(update={"text": text, "tokens": tokens}))
    return rewritten, deleted


def scrub_rows(rows: Iterable[ArticleRow], wanted: str) -> list[ArticleRow]:
    """The article versions among ``rows`` that hold ``wanted``, without its sentences."""
    out = []
    for row in rows:
        texts = [scrub_text(getattr(row, name), wanted) for name in _CHAPTERS]
        if any(t is not None for t in texts):
            b, e, d = (
                getattr(row, n) if t is None else t for n, t in zip(_CHAPTERS, texts, strict=True)
            )
            out.append(replace(row, bedrock=b, evolutionary=e, dynamic=d))
    return out
