"""The facade's whole-user operations: erase a user (GDPR), export one, import one.

Each method validates its input and delegates: the rows to the store
(:class:`~recall.store.users.UserStore`), the vectors to :mod:`recall.index.purge`, the
line format to :mod:`recall.store.export`.
"""

from __future__ import annotations

from collections.abc import Iterable

from pydantic import BaseModel, Field

from .. import inputs
from ..errors import UnknownUserError
from ..index.purge import purge_user_vectors
from ..models import require_user_id
from ..store.dialect import Db
from ..store.export import export_lines, parse_export
from ..store.keyed import answer_at_commit
from ..store.records import user_version
from .core import MemoryCore

__all__ = ["ImportResult", "UserDeletion", "UserMethods"]


class UserDeletion(BaseModel):
    """What :meth:`UserMethods.delete_user` removed."""

    user_id: str
    records: int = Field(description="Records of every kind (notes, summaries, passages...).")
    articles: int = Field(description="Long-term article versions.")
    jobs: int = Field(description="Journaled update_memory jobs.")
    vectors: int = Field(description="Vectors, over every recall collection.")

    @property
    def existed(self) -> bool:
        """False when there was nothing of the user to remove."""
        return bool(self.records or self.articles or self.jobs or self.vectors)


class ImportResult(BaseModel):
    """What :meth:`UserMethods.import_user` wrote."""

    user_id: str
    source_user_id: str = Field(description="The user the export was taken from.")
    records: int
    articles: int
    version: int = Field(description="The user's store version after the import.")


class UserMethods(MemoryCore):
    """Erase, export and import a whole user (part of :class:`recall.Memory`)."""

    def _settle(self) -> None:
        # Background update_memory jobs write summaries later: let them land first, so that
        # an export holds them and an erasure is not followed by a late write.
        if getattr(self, "_life", None) is not None:
            self._lifecycle().flush()

    def holds(self, user_id: str) -> bool:
        """Whether ``user_id`` holds memory here (a record or an article, now or once and
        not erased): what tells a mistyped user id from a user with nothing relevant."""
        uid = require_user_id(user_id)
        store = self._store
        return store.version(uid) > 0 or bool(store.records(uid)) or bool(store.articles(uid))

    def delete_user(self, user_id: str) -> UserDeletion:
        """Remove every record, article version, job, BM25 partition and vector of
        ``user_id``. Safe to repeat: a second call removes nothing (and says so).

        The store goes first (it is the source of truth); if the vector store is down the
        call raises ``StoreError`` after it, and calling again removes the vectors.
        """
        uid = require_user_id(user_id)
        self._settle()
        counts = self._store.delete_user(uid)
        self._retriever.forget(uid)  # cached BM25 partitions and vectors of the user
        vectors = purge_user_vectors(self._vectors.client, uid)
        return UserDeletion(
            user_id=uid,
            records=counts.get("records", 0),
            articles=counts.get("lt_articles", 0),
            jobs=counts.get("lt_jobs", 0),
            vectors=vectors,
        )

    def export_user(self, user_id: str) -> list[str]:
        """The user's records and every article version as JSONL lines (each ending in a
        newline; ``"".join(...)`` is the file). Raises ``UnknownUserError`` (an
        ``InputError``) for a user this folder never held."""
        uid = require_user_id(user_id)
        self._settle()
        if not self.holds(uid):
            raise UnknownUserError(f"user {uid!r} holds no memory here")
        return export_lines(uid, self._store.records(uid), self._store.articles(uid))

    def import_user(
        self, lines: str | bytes | Iterable[str | bytes], *, user_id: str | None = None
    ) -> ImportResult:
        """Load an export (its text, or lines such as an open file) as ``user_id``
        (default: the user it was taken from) and index it.

        The target must hold nothing yet (``UserExistsError`` otherwise, writing nothing);
        records are validated like any ``add_many``.
        """
        parsed = parse_export(lines)
        uid = require_user_id(parsed.user_id if user_id is None else user_id)
        records = inputs.records(parsed.items, uid, self.settings)
        articles = parsed.article_rows(uid)

        def result(db: Db) -> ImportResult:  # a keyed write's answer commits with it
            return ImportResult(
                user_id=uid,
                source_user_id=parsed.user_id,
                records=len(records),
                articles=len(articles),
                version=user_version(db, uid),
            )

        with answer_at_commit(result):
            version = self._store.import_user(uid, records, articles)
        self._retriever.forget(uid)
        self._sync.after_write(uid, version, written=records)
        self._prewarm(uid)
        return ImportResult(
            user_id=uid,
            source_user_id=parsed.user_id,
            records=len(records),
            articles=len(articles),
            version=version,
        )
