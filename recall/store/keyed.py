"""A keyed write's answer, stored in the same transaction as the write it answers.

A service that runs a write once per key (the REST server's ``Idempotency-Key``:
:mod:`recall.store.idempotency`) must never find "the write committed" and "its answer is
stored" apart: a process killed between the two left a write that a retry either repeats
(stored twice) or cannot answer. So the answer commits with the write:

* the service runs the write inside :func:`keyed` (a context variable on that thread);
* the write path marks its one effect transaction with :func:`answer_at_commit`, naming
  what the call answers (the ids, the result), computed inside the transaction;
* the store opens that transaction with :func:`settled_write`, which, before it commits,
  writes the answer into the key's reservation, fenced by the reservation's owner token:
  a reservation taken over by another process's retry refuses the commit, so two
  processes can never both store the write.

Outside :func:`keyed` (every plain call of the library) nothing of this runs.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any

from ..errors import StoreError
from .dialect import Db, Dialect

__all__ = ["KeyedWrite", "answer_at_commit", "keyed", "settled_write"]


@dataclass
class KeyedWrite:
    """One write run under a reserved key: who reserved it and how its answer is written."""

    user_id: str
    key: str
    #: The reservation's owner token (:func:`recall.store.owners.new_token`).
    token: str
    status: int
    #: The answer's body (JSON) for the value the write path names at commit.
    answer: Callable[[Any], str]
    #: True once the effect transaction committed with the answer.
    committed: bool = False
    _staged: list[Callable[[Db], Any]] = field(default_factory=list)


_current: ContextVar[KeyedWrite | None] = ContextVar("recall_keyed_write", default=None)


@contextmanager
def keyed(write: KeyedWrite) -> Iterator[KeyedWrite]:
    """Run the block as the keyed write ``write`` (on this thread)."""
    reset = _current.set(write)
    try:
        yield write
    finally:
        _current.reset(reset)


@contextmanager
def answer_at_commit(value: Callable[[Db], Any]) -> Iterator[None]:
    """Mark the next :func:`settled_write` inside the block as the write's effect: it
    commits the answer for ``value(db)`` (called inside that transaction) with itself.

    A no-op outside :func:`keyed`, and once the write's answer was committed.
    """
    write = _current.get()
    if write is None or write.committed:
        yield
        return
    write._staged.append(value)
    try:
        yield
    finally:
        write._staged.clear()


@contextmanager
def settled_write(sql: Dialect) -> Iterator[Db]:
    """``sql.write()``; an answer staged by :func:`answer_at_commit` commits with it."""
    write = _current.get()
    staged = None if write is None or write.committed or not write._staged else write
    with sql.write() as db:
        yield db
        if staged is not None:
            _settle(db, staged, staged._staged[0](db))
    if staged is not None:
        staged.committed = True
        staged._staged.clear()


def _settle(db: Db, write: KeyedWrite, value: Any) -> None:
    """Store the answer in the reservation this write still owns, or refuse the commit."""
    changed = db.execute(
        "UPDATE idempotency SET status = ?, body = ? WHERE user_id = ? AND idem_key = ? "
        "AND status IS NULL AND body = ?",
        (write.status, write.answer(value), write.user_id, write.key, write.token),
    ).rowcount
    if changed != 1:  # raised inside the transaction: the write rolls back with it
        raise StoreError(
            f"the write with key {write.key!r} of user {write.user_id!r} lost its reservation "
            "to a retry of it (this process was taken for dead): nothing was written here; "
            "retry with the same key to get the answer"
        )
