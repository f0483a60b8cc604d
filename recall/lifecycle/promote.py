"""Promotion: the oldest short-term summaries become the next long-term article version.

One promotion reconstructs the article from its old chapters and the batch of summaries,
then commits in ONE store transaction:

* the next article version, checked optimistically (a writer that lost the race to that
  version, or whose summaries another writer already promoted, retries from a fresh read);
* the summaries turned into kind ``archive``, linked to that version (nothing is deleted);
* the old Dynamic passages swapped for the new version's (kind ``dynamic``);
* the user's store version + 1, so the indexes never show passages of two versions.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from datetime import datetime

from ..errors import InputError, StoreError
from ..models import Record, shown, utcnow
from ..settings import LifecycleSettings
from ..store import ArticleRow, Store
from ..text import split_passages
from .article import Article, LongTerm
from .reconstruct import Reconstructor
from .said import Dated, passage_dates, sources_of, unmark
from .tiers import archive_id, capped_records

__all__ = [
    "Conflict",
    "archive_records",
    "cap_short_term",
    "commit",
    "dynamic_records",
    "promote_all",
    "read_long_term",
]

log = logging.getLogger(__name__)


class Conflict(Exception):
    """Another writer promoted first; re-read and retry."""


def read_long_term(store: Store, user_id: str, version: int | None = None) -> LongTerm:
    """Version ``version`` of the user's article (None: the newest; 0: the empty one)."""
    if version is not None and (isinstance(version, bool) or not isinstance(version, int)):
        raise InputError(f"version must be an integer, got {shown(version)}")
    if version is not None and not 0 <= version < 2**63:  # SQLite's INTEGER range
        raise InputError(f"version must be 0 or more, got {shown(version)}")
    row = store.article(user_id, version)
    if row is not None:
        return LongTerm.from_row(row)
    if version is None or version == 0:
        return LongTerm(user_id=user_id, version=0)
    newest = store.article_version(user_id)
    raise InputError(
        f"user {user_id!r} has no long-term version {version}; versions go from 0 to {newest}"
    )


def dynamic_records(
    user_id: str,
    version: int,
    passages: Sequence[str],
    at: datetime,
    count: Callable[[str], int],
    spans: Sequence[tuple[datetime, datetime]] | None = None,
) -> list[Record]:
    """The Dynamic chapter's passages of ``version`` as records of kind ``dynamic``, each
    dated by its span of statements (:mod:`.said`; ``at`` for all without ``spans``)."""
    spans = spans or [(at, at)] * len(passages)
    return [
        Record(
            id=f"dyn-{version}-{i:04d}",
            user_id=user_id,
            kind="dynamic",
            text=p,
            created_at=last,
            tokens=count(p),
            metadata={
                "chapter_version": version,
                "passage": i,
                "said_from": first.isoformat(),
                "said_to": last.isoformat(),
            },
        )
        for i, (p, (first, last)) in enumerate(zip(passages, spans, strict=True))
    ]


def archive_records(batch: Sequence[Record], version: int, at: datetime) -> list[Record]:
    """Promoted summaries as kind ``archive``, linked to the chapter ``version`` they fed.

    Each gets a new id (``ar-`` + the old one): to the index that is one removal and one
    addition, which every index handles, rather than a kind change under an unchanged text.
    """
    return [
        r.model_copy(
            update={
                "id": archive_id(r.id),
                "kind": "archive",
                "metadata": {
                    **r.metadata,
                    "summary_id": r.id,
                    "chapter_version": version,
                    "promoted_at": at.isoformat(),
                },
            }
        )
        for r in batch
    ]


def commit(
    store: Store,
    uid: str,
    expected: int,
    batch: list[Record],
    article: Article,
    *,
    passage_tokens: int,
    count: Callable[[str], int],
) -> int:
    """Write ``article`` as version ``expected + 1`` fed by ``batch``; returns that version.

    Raises :class:`Conflict` (writing nothing) when the newest version is no longer
    ``expected`` or a summary of ``batch`` is no longer short-term.
    """
    now = utcnow()
    version = expected + 1
    ids = [r.id for r in batch]
    # Cut as if the paragraphs had no day at their head: the day is not passage text.
    passages = split_passages(article.dynamic, passage_tokens, lambda t: count(unmark(t)[1]))
    # Passages keep the dates their statements were said (a correction's new text: now).
    fallback = max((r.created_at for r in batch), default=now)
    sources = sources_of(batch, store.records(uid, kinds=["dynamic"]))
    spans = passage_dates(passages, sources, fallback)
    # A passage record carries its dates in said_from/said_to (hits show them); the day
    # at a paragraph's head would only repeat them and spend the reader's tokens.
    texts = [unmark(p)[1] for p in passages]
    dynamic = dynamic_records(uid, version, texts, now, count, spans)
    archives = archive_records(batch, version, now)
    row = ArticleRow(
        user_id=uid,
        version=version,
        bedrock=article.bedrock,
        evolutionary=article.evolutionary,
        dynamic=article.dynamic,
        updated_at=now,
        promoted=tuple(ids),
    )
    with store.transaction() as tx:
        if tx.count(uid, "short_term", ids) != len(ids) or not tx.insert_article(row):
            raise Conflict
        tx.replace_ids(uid, ids, archives)
        tx.replace_kind(uid, "dynamic", dynamic)
        tx.bump_version(uid)
    log.info("recall: user %s promoted %d summaries -> version %d", uid, len(ids), version)
    return version


def cap_short_term(store: Store, uid: str, cap: int) -> list[Record]:
    """The user's short-term summaries, oldest first, after archiving those beyond ``cap``
    (one transaction; nothing is deleted: see :func:`~recall.lifecycle.tiers.capped_records`)."""
    shorts = store.records(uid, kinds=["short_term"])
    if len(shorts) <= cap:
        return shorts
    capped = capped_records(shorts, cap, utcnow())
    with store.transaction() as tx:
        ids = [r.metadata["summary_id"] for r in capped]
        if tx.count(uid, "short_term", ids) == len(ids):  # else another writer did it
            tx.replace_ids(uid, ids, capped)
            tx.bump_version(uid)
    log.warning(
        "recall: user %s over segment_cap=%d: %d summaries archived unpromoted",
        uid,
        cap,
        len(capped),
    )
    return store.records(uid, kinds=["short_term"])


def promote_all(
    store: Store,
    uid: str,
    reconstructor: Reconstructor,
    limits: LifecycleSettings,
    *,
    passage_tokens: int,
    count: Callable[[str], int],
    on_conflict: Callable[[], None] = lambda: None,
    limit: int | None = None,
) -> tuple[list[tuple[int, list[str]]], bool]:
    """Promote the oldest summaries until the user is within capacity, at most ``limit``
    promotions; past ``limits.segment_cap`` summaries the oldest are archived first.

    Returns (version, promoted summary ids) per promotion, and whether the user is still
    over capacity (``limit`` reached: the caller leaves the rest to the background worker).
    ``on_conflict`` is called each time a promotion lost the race and is redone; after
    ``limits.promote_attempts`` lost races the user is left for later with a
    :class:`StoreError`.
    """
    done: list[tuple[int, list[str]]] = []
    conflicts = 0
    while True:
        shorts = cap_short_term(store, uid, limits.segment_cap)
        if len(shorts) <= limits.short_term_capacity:
            return done, False
        if limit is not None and len(done) >= limit:
            return done, True
        batch = shorts[: limits.promote_count]
        current = read_long_term(store, uid)
        # Each summary with the time it was said: the offline article dates its paragraphs.
        stimuli = [Dated(r.text, r.created_at) for r in batch]
        article = reconstructor.reconstruct(current.article(), stimuli)
        try:
            version = commit(
                store,
                uid,
                current.version,
                batch,
                article,
                passage_tokens=passage_tokens,
                count=count,
            )
        except Conflict:
            conflicts += 1
            on_conflict()
            if conflicts >= limits.promote_attempts:
                raise StoreError(
                    f"promotion for user {uid!r} lost the race {conflicts} times; "
                    "another process keeps writing this user: retry later"
                ) from None
            continue
        done.append((version, [r.id for r in batch]))
