"""The facade's forget: one call removes a fact (or records) from every tier.

It validates and delegates: what each text becomes is decided by
:mod:`recall.lifecycle.forget`; the records are written through the store and the index
sync (vectors and BM25 follow before the call returns), the new article version through
the corrections' optimistic :func:`~recall.lifecycle.corrections.revise`.
"""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import BaseModel, Field

from .. import inputs
from ..errors import InputError
from ..lifecycle import forget as scrub
from ..models import require_user_id
from .tiers import TierMethods
from .users import UserMethods

__all__ = ["ForgetMethods", "Forgotten", "MIN_FACT_CHARS"]

#: The fewest characters a fact to forget or edit may hold (a service's schemas say it).
MIN_FACT_CHARS = scrub.MIN_FACT_CHARS


class Forgotten(BaseModel):
    """What :meth:`ForgetMethods.forget` changed."""

    user_id: str
    deleted: list[str] = Field(
        default_factory=list,
        description="Records deleted: the ids asked for, and records left with nothing.",
    )
    rewritten: list[str] = Field(
        default_factory=list, description="Records rewritten without the fact's sentences."
    )
    version: int | None = Field(
        None, description="The article version written without the fact (None: no change)."
    )
    scrubbed_versions: list[int] = Field(
        default_factory=list, description="Older article versions scrubbed in place."
    )

    @property
    def found(self) -> bool:
        """False when nothing held the fact or the ids."""
        return bool(self.deleted or self.rewritten or self.version or self.scrubbed_versions)


class ForgetMethods(TierMethods, UserMethods):
    """``forget`` (part of :class:`recall.Memory`)."""

    def forget(
        self, user_id: str, text: str | None = None, *, ids: Sequence[str] | None = None
    ) -> Forgotten:
        """Remove ``text`` (a fact: words, a name, a number) from every tier of the user's
        memory, and delete the records ``ids``; at least one of the two.

        Every record holding ``text`` (case and spacing ignored), whatever its kind
        (short-term summaries, archive records, raw turns, notes), is rewritten without
        the sentences containing it, or deleted when nothing else is left; the article gets
        a new version without them, and older versions are scrubbed in place, so neither
        ``long_term(version=old)`` nor a rollback brings the fact back. Vectors and BM25
        follow before the call returns. Safe to repeat: a second call finds nothing
        (:attr:`Forgotten.found` is False).
        """
        uid = require_user_id(user_id)
        if text is None and ids is None:
            raise InputError("forget needs text (the fact to remove) or ids (records to delete)")
        wanted = None if text is None else scrub.needle(text)
        doomed = [] if ids is None else inputs.record_ids(ids)
        self._settle()  # a queued update_memory must not bring the fact back after us
        result = Forgotten(user_id=uid)
        if doomed:
            result.deleted += self._delete_existing(uid, doomed)
        if wanted is not None:
            self._forget_text(uid, wanted, result)
        return result

    def _delete_existing(self, uid: str, ids: list[str]) -> list[str]:
        deleted, version = self._store.delete(uid, ids)
        if deleted:
            self._sync.after_write(uid, version, deleted=deleted)
            self._prewarm(uid)
        return list(deleted)

    def _forget_text(self, uid: str, wanted: str, result: Forgotten) -> None:
        chapters = self.long_term(uid).chapters().values()
        if any(scrub.scrub_text(chapter, wanted) is not None for chapter in chapters):
            # A new version: its Dynamic passages replace the old ones in the same commit.
            result.version = self._revise(uid, lambda a: scrub.scrub_article(a, wanted)).version
        old = [r for r in self._store.articles(uid) if r.version != result.version]
        rows = scrub.scrub_rows(old, wanted)
        if rows:
            self._store.rewrite_articles(rows)
            result.scrubbed_versions = [r.version for r in rows]
        # The Dynamic passages are the new version's; any other record is scrubbed here.
        records = self._store.records(uid)
        rewritten, deleted = scrub.forget_in_records(records, wanted, self._lifecycle().count)
        if rewritten:
            version = self._store.put(rewritten)[uid]
            self._sync.after_write(uid, version, written=rewritten)
            result.rewritten = [r.id for r in rewritten]
        if deleted:
            result.deleted += self._delete_existing(uid, deleted)
        self._prewarm(uid)
