"""The facade's account of itself: which users it holds, how far their index is, the
newest article version, models loaded ahead, and writes remembered by key.

What a service built on :class:`recall.Memory` needs to know about the memory without
reaching into its store or its index: the server's ``stats`` and ``index_check`` tools, the
inspector's user list, a REST version check and the ``Idempotency-Key`` header all read it
here, as any third party would.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, Field

from ..errors import RecallError
from ..models import require_user_id
from ..store import idempotency
from ..store.keyed import KeyedWrite, keyed
from ..store.owners import drop
from .core import MemoryCore

__all__ = ["FailedJob", "IndexState", "KeyClaim", "StateMethods", "UserIndexState"]

log = logging.getLogger(__name__)


class UserIndexState(BaseModel):
    """One user's records and how far the vector index reflects them."""

    user_id: str
    records: int
    kinds: dict[str, int] = Field(description="Records per kind.")
    version: int = Field(description="The store's version of this user (one per write).")
    index_version: int | None = Field(description="The store version the index reflects.")

    @property
    def lagging(self) -> bool:
        """Whether writes of this user are not yet in the vector index."""
        return self.index_version != self.version


class IndexState(BaseModel):
    """The index spec of the memory and, per user, its records and index lag."""

    spec: str
    fingerprint: str
    users: list[UserIndexState]


class FailedJob(BaseModel):
    """A background ``update_memory`` call that gave up after its tries (kept, journaled)."""

    job_id: str
    user_id: str
    created_at: datetime
    attempts: int
    error: str = Field(description="The last try's error.")


class KeyClaim(BaseModel):
    """What :meth:`StateMethods.claim_key` found for a write's key."""

    state: Literal["new", "done", "running", "mismatch"] = Field(
        description="new: reserved, run the write; done: answered before (status, body); "
        "running: the first request still writes; mismatch: the key named another request."
    )
    status: int = Field(0, description="The remembered answer's HTTP status (done).")
    body: str = Field("", description="The remembered answer (done).")
    replayed: bool = Field(
        False, description="done: an answer remembered from before, not this call's write."
    )


class StateMethods(MemoryCore):
    """Users, index state, article version, warm-up and keyed writes of :class:`Memory`."""

    def users(self) -> list[str]:
        """The ids of the users that hold memory here."""
        return list(self._store.users())

    def record_counts(self) -> dict[str, dict[str, int]]:
        """Records per user and kind, in one read (what a listing of users needs, without
        :meth:`index_state`'s two reads per user)."""
        return self._store.counts()

    def index_state(self, user_id: str | None = None) -> IndexState:
        """Per user (``user_id``: that user alone, if it holds memory): records per kind,
        the store's version and the version the vector index reflects."""
        only = None if user_id is None else require_user_id(user_id)
        counts = self._store.counts()
        rows = []
        for uid in self._store.users():
            if only is not None and uid != only:
                continue
            kinds = counts.get(uid, {})
            rows.append(
                UserIndexState(
                    user_id=uid,
                    records=sum(kinds.values()),
                    kinds={k: kinds[k] for k in sorted(kinds)},
                    version=self._store.version(uid),
                    index_version=self._store.index_version(self._sync.key, uid),
                )
            )
        return IndexState(spec=self.spec.name, fingerprint=self.spec.fingerprint, users=rows)

    def article_version(self, user_id: str) -> int:
        """The newest version of the user's long-term article (0: none yet)."""
        return self._store.article_version(require_user_id(user_id))

    def warm_up(self) -> None:
        """Load every model a request would otherwise load on first use: the embedders
        (both of a composite spec), jieba's dictionary and the stemmer, tiktoken, the
        lifecycle. A server calls it before it opens its port."""
        embedder = self.embedder()
        embedder.embed_documents(["warm up"])
        embedder.embed_query("warm up")
        embedder.embed_query("预热")  # a CJK query routes to the multilingual model
        self._retriever.analyzer.tokens("预热 warm up")
        self._lifecycle().should_summarize([{"role": "user", "content": "warm up"}])

    def failed_jobs(self) -> list[FailedJob]:
        """Background ``update_memory`` calls that gave up after every try: none on a
        healthy memory (an operator's check), each with its last error."""
        return [
            FailedJob(
                job_id=j.job_id,
                user_id=j.user_id,
                created_at=j.created_at,
                attempts=j.attempts,
                error=str((j.payload or {}).get("error", "")),
            )
            for j in self._store.failed_jobs()
        ]

    # --- writes remembered by key (a service's Idempotency-Key) --------------------------
    # The rows live in the store, so every process on a folder or a PostgreSQL database
    # sees them, a restart keeps them, and they go with delete_user.

    def claim_key(self, user_id: str, key: str, fingerprint: str) -> KeyClaim:
        """Reserve ``key`` of ``user_id`` for the request ``fingerprint``, or say why not
        (the answer remembered for it, still running, or used for another request)."""
        got = idempotency.begin(self._store, require_user_id(user_id), key, fingerprint)
        return KeyClaim(state=got.state, status=got.status, body=got.body, replayed=True)

    def finish_key(self, user_id: str, key: str, status: int, body: str) -> None:
        """Remember the answer of the write that reserved ``key``."""
        idempotency.finish(self._store, require_user_id(user_id), key, status, body)

    def release_key(self, user_id: str, key: str) -> None:
        """Free a reservation whose write failed before writing: a retry runs again."""
        idempotency.release(self._store, require_user_id(user_id), key)

    def write_once(
        self,
        user_id: str,
        key: str,
        fingerprint: str,
        write: Callable[[], Any],
        answer: Callable[[Any], str],
        status: int = 201,
    ) -> KeyClaim:
        """Run ``write`` once per ``user_id`` and ``key`` (the request ``fingerprint``).

        ``write`` is one of this facade's writes (``add_many``, ``update_memory``,
        ``import_user``); ``answer`` turns what it returns into the answer remembered with
        ``status``. That answer commits in the same transaction as the write, so a process
        killed mid-write left either both (a retry gets the answer) or neither (a retry
        runs the write, at once: the dead owner's reservation is taken over). Returns the
        answer (``done``; ``replayed`` when remembered from before), or says the key is
        ``running`` elsewhere or named another request (``mismatch``). A ``write`` that
        fails before its commit frees the key; one that fails after it keeps the answer
        committed with it.
        """
        uid = require_user_id(user_id)
        got = idempotency.begin(self._store, uid, key, fingerprint)
        if got.state != "new":
            return KeyClaim(state=got.state, status=got.status, body=got.body, replayed=True)
        run = KeyedWrite(uid, key, got.token, status, answer)
        try:
            with keyed(run):
                body = answer(write())
        except BaseException:
            if not run.committed:
                try:
                    idempotency.release(self._store, uid, key, got.token)
                except RecallError:  # a dead owner's reservation: taken over by the retry
                    log.warning("recall: could not free the key %r of user %r", key, uid)
            raise
        finally:
            drop(got.token)
        idempotency.finish(self._store, uid, key, status, body, got.token, committed=run.committed)
        return KeyClaim(state="done", status=status, body=body)
