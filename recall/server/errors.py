"""The one place a ``RecallError`` becomes an HTTP status, and the server's own errors.

The classes live in :mod:`recall.errors` with every other (all exported from ``recall``);
they are re-exported here, where the server imports them from.

    RecallError
    ├── AuthError         no API key, or an unknown one            401
    ├── ForbiddenError    a known key, outside its tenant          403
    │   └── OriginError   a browser page of a foreign origin       403
    ├── HostError         a Host header this server does not serve 421
    ├── MediaTypeError    a write whose body is not JSON           415
    ├── BodyTimeoutError  a body not received within its time      408
    ├── NotFoundError     no such record or article version        404
    ├── InProgressError   a write of this Idempotency-Key runs     409
    ├── KeyReusedError    an Idempotency-Key of another request    422 (an InputError too)
    └── TooLargeError     a request body over the limit            413 (an InputError too)

Library errors keep their classes: bad input 400 (a user the folder never held 404, an
import onto a user that holds memory 409), the store or the vector index unreachable or
stale 503, the LLM endpoint 502, a request over its time 504.
"""

from __future__ import annotations

from ..errors import (
    AuthError,
    BodyTimeoutError,
    ConfigError,
    EmbedderError,
    ForbiddenError,
    HostError,
    IndexStaleError,
    InProgressError,
    InputError,
    KeyReusedError,
    LLMError,
    MediaTypeError,
    NotFoundError,
    OriginError,
    StoreError,
    TooLargeError,
    UnknownUserError,
    UserExistsError,
)

__all__ = [
    "AuthError",
    "BodyTimeoutError",
    "ForbiddenError",
    "HostError",
    "InProgressError",
    "KeyReusedError",
    "MediaTypeError",
    "NotFoundError",
    "OriginError",
    "TooLargeError",
    "status_for",
]


# Most specific first: the first class an exception is an instance of decides.
_STATUS: tuple[tuple[type[BaseException], int], ...] = (
    (AuthError, 401),
    (ForbiddenError, 403),
    (TooLargeError, 413),
    (MediaTypeError, 415),
    (HostError, 421),
    (BodyTimeoutError, 408),
    (NotFoundError, 404),
    (InProgressError, 409),
    (KeyReusedError, 422),
    (UnknownUserError, 404),
    (UserExistsError, 409),
    (InputError, 400),
    (StoreError, 503),
    (IndexStaleError, 503),
    (LLMError, 502),
    (EmbedderError, 502),  # your own embedder failed or answered badly: an upstream's fault
    (ConfigError, 500),
    (TimeoutError, 504),
)


def status_for(exc: BaseException) -> int:
    """The HTTP status that fits ``exc`` (500 for anything unforeseen)."""
    for cls, status in _STATUS:
        if isinstance(exc, cls):
            return status
    return 500
