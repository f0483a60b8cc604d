"""The ``Idempotency-Key`` of the REST API's POST writes (notes, memories, import).

A write sent with the header runs once per user and key: its answer is remembered in the
store, committed with the write itself (:meth:`recall.Memory.write_once`), and a retry
with the same key gets that answer, writing nothing, even when the first request answered
504 because the write outlived the request timeout, or the process was killed mid-write.
This module owns the header's name and syntax (:func:`idempotency_key`), the ids a keyed
note gets (:func:`note_ids`) and the run-once protocol (:func:`run_once`).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any

from pydantic import BaseModel
from starlette.requests import Request
from starlette.responses import Response

from ..errors import InputError
from .aio import AsyncMemory
from .errors import InProgressError, KeyReusedError

__all__ = ["IDEMPOTENCY_HEADER", "idempotency_key", "note_ids", "run_once"]

#: The request header that makes a POST write safe to retry (see the module docs).
IDEMPOTENCY_HEADER = "Idempotency-Key"
_MAX_KEY = 255


def idempotency_key(request: Request) -> str | None:
    """The request's ``Idempotency-Key``, None without one, :class:`InputError` if bad."""
    key = request.headers.get(IDEMPOTENCY_HEADER)
    if key is None:
        return None
    if not (0 < len(key) <= _MAX_KEY and key.isascii() and key.isprintable()):
        raise InputError(
            f"{IDEMPOTENCY_HEADER} must be 1 to {_MAX_KEY} printable ASCII characters, such "
            "as a UUID; send a new one with every write"
        )
    return key


def _fingerprint(request_id: str) -> str:
    """The digest naming one request (its route and canonical body)."""
    return hashlib.sha256(request_id.encode("utf-8", "surrogatepass")).hexdigest()


def note_ids(key: str, request_id: str, count: int) -> list[str]:
    """The ids of ``count`` notes sent with ``key`` and no id of their own."""
    # Derived from the key: were the write to land while its answer was lost (a crash
    # between the two), the retry would replace the same records instead of adding copies.
    # And from the request: a key used again for other notes once its answer expired (a
    # client whose key counter restarted) must not replace the notes of days ago.
    seed = _fingerprint(request_id)
    return [hashlib.sha256(f"{key}\0{seed}\0{i}".encode()).hexdigest()[:32] for i in range(count)]


async def run_once(
    amem: AsyncMemory,
    uid: str,
    key: str,
    request_id: str,
    write: Callable[[], Any],
    status: int = 201,
    shape: Callable[[Any], BaseModel] | None = None,
) -> Response:
    """Run ``write`` (on a worker thread) once per user and ``key``.

    ``request_id`` identifies the request (its route and canonical body): a key sent
    again with another request is refused (422), with the same one while the first
    still runs answered 409, after it the first answer comes back. ``write`` returns the
    memory's own answer; ``shape`` makes it the response (default: it is one already).
    The answer commits with the write (:meth:`recall.Memory.write_once`): a retry after
    a crash mid-write gets it, or runs the write if it never committed.
    """

    def answer(value: Any) -> str:
        return (value if shape is None else shape(value)).model_dump_json()

    claim = await amem.write_once(uid, key, _fingerprint(request_id), write, answer, status)
    if claim.state == "done":
        replayed = {"idempotent-replayed": "true"} if claim.replayed else {}
        return Response(
            claim.body, status_code=claim.status, media_type="application/json", headers=replayed
        )
    if claim.state == "running":
        raise InProgressError(
            f"a write with {IDEMPOTENCY_HEADER} {key!r} is still running; retry in a few "
            "seconds with the same key to get its answer"
        )
    raise KeyReusedError(
        f"{IDEMPOTENCY_HEADER} {key!r} was already used for a different request of "
        f"user {uid!r}; send a new key with every new write"
    )
