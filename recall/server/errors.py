"""The one place a ``RecallError`` becomes an HTTP status, and the server's own errors.

The server's own classes are defined here, in the service's wing, and exported from
``recall.server`` (the library's live in :mod:`recall.errors`, exported from ``recall``):

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
    ConfigError,
    EmbedderError,
    IndexStaleError,
    InputError,
    LLMError,
    RecallError,
    StoreError,
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


class AuthError(RecallError):
    """The request carries no API key, or one the server does not know (HTTP 401)."""


class ForbiddenError(RecallError):
    """The API key is valid but may not touch this user or operation (HTTP 403)."""


class OriginError(ForbiddenError):
    """A browser request from a page of an origin this server does not serve (HTTP 403)."""


class HostError(RecallError):
    """The ``Host`` header names no address this server answers to (HTTP 421): what a
    DNS-rebinding page sends."""


class MediaTypeError(InputError):
    """A write whose ``Content-Type`` is not JSON (HTTP 415): what a cross-site form or
    ``text/plain`` request sends."""


class BodyTimeoutError(RecallError):
    """The request body did not arrive in full within the server's time (HTTP 408)."""


class NotFoundError(RecallError):
    """The record or article version a request names does not exist (HTTP 404)."""


class InProgressError(RecallError):
    """A write with this ``Idempotency-Key`` is still running (HTTP 409): retry shortly."""


class KeyReusedError(InputError):
    """An ``Idempotency-Key`` sent again with a different request (HTTP 422)."""


class TooLargeError(InputError):
    """The request body is over the server's limit (HTTP 413)."""


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
