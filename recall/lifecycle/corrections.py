"""Corrections of the long-term article: forget a fact, edit one, roll back to a version.

Each correction is a new article version written like a promotion (:func:`.promote.commit`:
optimistic version check, the Dynamic passages swapped, the store version bumped) but fed
by no summaries. Nothing is rewritten in place: every earlier version stays readable with
``long_term(user, version=N)``, and a rollback is itself a new version, so it can be undone.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from ..errors import InputError, StoreError
from ..jsonlimits import shown
from ..store import Store
from .article import Article, LongTerm
from .forget import norm, without_sentences
from .promote import Conflict, commit, read_long_term

__all__ = ["edit_fact", "forget_fact", "revise", "rollback_to"]

_SPACES = re.compile(r"[ \t]+")


def _fact(value: object, what: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise InputError(f"{what} must be a non-empty string")
    return value


def forget_fact(article: Article, fact: str) -> Article:
    """``article`` without every sentence that contains ``fact`` (case and spacing
    ignored); :class:`InputError` when none does."""
    needle = norm(_fact(fact, "fact"))
    removed = 0
    chapters: dict[str, str] = {}
    for name, text in article.chapters().items():
        paragraphs = []
        for original in text.split("\n\n"):
            para, went = without_sentences(original, needle)
            removed += went
            para = _SPACES.sub(" ", para).strip()
            if para:
                paragraphs.append(para)
        chapters[name.lower()] = "\n\n".join(paragraphs)
    if not removed:
        raise InputError(
            f"no sentence of the article contains {shown(fact)}; read it with "
            "long_term(user_id).render() and pass words it holds"
        )
    return Article(**chapters)


def edit_fact(article: Article, old: str, new: str) -> Article:
    """``article`` with every occurrence of ``old`` replaced by ``new``; InputError when
    ``old`` is not in it."""
    _fact(old, "old")
    if not isinstance(new, str):
        raise InputError(f"new must be a string, got {type(new).__name__}")
    chapters = article.chapters()
    if not any(old in text for text in chapters.values()):
        raise InputError(
            f"{shown(old)} is not in the article (matched exactly); read it with "
            "long_term(user_id).render() and copy the words to change"
        )
    return Article(**{name.lower(): text.replace(old, new) for name, text in chapters.items()})


def rollback_to(store: Store, uid: str, version: int) -> Article:
    """The chapters of ``version`` (0: the empty article), to be written as a new version."""
    old = read_long_term(store, uid, version)
    return Article(**{name.lower(): text for name, text in old.chapters().items()})


def revise(
    store: Store,
    uid: str,
    change: Callable[[Article], Article],
    *,
    passage_tokens: int,
    count: Callable[[str], int],
    attempts: int,
) -> LongTerm:
    """Apply ``change`` to the newest article and commit the result as the next version;
    re-read and retry when another writer got there first. Returns the new version."""
    for _ in range(attempts):
        current = read_long_term(store, uid)
        article = change(current.article())
        try:
            version = commit(
                store, uid, current.version, [], article, passage_tokens=passage_tokens, count=count
            )
        except Conflict:
            continue
        return read_long_term(store, uid, version)
    raise StoreError(
        f"the article of user {uid!r} kept changing under the correction ({attempts} tries); "
        "retry later"
    )
