"""The ``Idempotency-Key`` of the REST API's POST writes (notes, memories, import).

A write sent with the header runs once per user and key: its answer is remembered in the
store (:meth:`recall.Memory.claim_key`) and a retry with the same key gets that answer,
writing nothing, even when the first request answered 504 because the write outlived the
request timeout. This module owns the header's name and syntax (:func:`idempotency_key`),
the ids a keyed note gets (:func:`note_ids`) and the run-once protocol (:func:`run_once`).
"""

from __future__ import annotations

import hashlib
import logging
import threading
from collections.abc import Callable

from pydantic import BaseModel
from starlette.requests import Request
from starlette.responses import Response

from .. import KeyClaim
from ..errors import InputError, RecallError
from .aio import AsyncMemory
from .errors import InProgressError, KeyReusedError

__all__ = ["IDEMPOTENCY_HEADER", "idempotency_key", "note_ids", "run_once"]

# The REST API's logger, as before these helpers left recall.server.rest.
log = logging.getLogger("recall.server.rest")
#: The request header that makes a POST write safe to retry (see the module docs).
IDEMPOTENCY_HEADER = "Idempotency-Key"
_MAX_KEY = 255
# (user, key) of the keyed writes running in this process (their worker threads add and
# remove them), so that a slow write's reservation is never taken over as stale.
_running: set[tuple[str, str]] = set()
_running_lock = threading.Lock()


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
    write: Callable[[], BaseModel],
    status: int = 201,
) -> Response:
    """Run ``write`` (on a worker thread) once per user and ``key``.

    ``request_id`` identifies the request (its route and canonical body): a key sent
    again with another request is refused (422), with the same one while the first
    still runs answered 409, after it the first answer comes back.
    """
    memory = amem.memory
    fingerprint = _fingerprint(request_id)
    claim = await amem.claim_key(uid, key, fingerprint)
    if claim.state == "new" and (uid, key) in _running:
        # A reservation goes stale by its age; one whose write still runs here is not.
        claim = KeyClaim(state="running")
    if claim.state == "done":
        return Response(
            claim.body,
            status_code=claim.status,
            media_type="application/json",
            headers={"idempotent-replayed": "true"},
        )
    if claim.state == "running":
        raise InProgressError(
            f"a write with {IDEMPOTENCY_HEADER} {key!r} is still running; retry in a few "
            "seconds with the same key to get its answer"
        )
    if claim.state == "mismatch":
        raise KeyReusedError(
            f"{IDEMPOTENCY_HEADER} {key!r} was already used for a different request of "
            f"user {uid!r}; send a new key with every new write"
        )

    def remembered() -> str:
        # The answer is remembered on this thread, right after the write: a client that
        # timed out (504) and retries with the key gets it, though it never saw it.
        with _running_lock:
            _running.add((uid, key))
        try:
            body = write().model_dump_json()
        except InputError:
            # Refused before anything was written: the key is free for a corrected retry.
            try:
                memory.release_key(uid, key)
            except RecallError:  # the reservation goes stale and is taken over later
                log.warning("recall server: could not release %s %r", IDEMPOTENCY_HEADER, key)
            raise
        # Any other failure may follow a commit (update_memory stores its summary before a
        # promotion that can fail): the reservation stays, so a retry answers 409 and
        # cannot store the summary twice; it is taken over only once stale (STALE_S).
        finally:
            with _running_lock:
                _running.discard((uid, key))
        memory.finish_key(uid, key, status, body)
        return body

    body = await amem.run_for(uid, remembered)
    return Response(body, status_code=status, media_type="application/json")
