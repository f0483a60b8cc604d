"""recall's exceptions, every one of them, and the one place foreign exceptions become ours.

    RecallError
    ├── InputError          bad input from the caller; nothing was written
    │   ├── UnknownUserError    the user holds no memory in this folder
    │   ├── UserExistsError     an import onto a user that already holds memory
    │   ├── DatasetError        a benchmark dataset is missing or malformed
    │   ├── MessageError        one chat message of a list is invalid (its index says which)
    │   ├── MediaTypeError      server: a write whose body is not JSON
    │   ├── KeyReusedError      server: an Idempotency-Key of another request
    │   └── TooLargeError       server: a request body over the limit
    ├── StoreError          SQLite or Chroma failed or cannot be reached
    ├── IndexStaleError     the built index was made with another spec: run `recall reindex`
    ├── LLMError            the configured LLM endpoint failed
    ├── ConfigError         settings or an index spec are invalid
    │   ├── EmbedderError       the embedder given to open returned unusable vectors
    │   └── ModelFileError      a model file is not the pinned one: reinstall its package
    ├── AuthError           server: no API key, or an unknown one
    ├── ForbiddenError      server: a known key, outside its tenant
    │   └── OriginError         a browser page of a foreign origin
    ├── HostError           server: a Host header this server does not serve
    ├── BodyTimeoutError    server: a body not received within its time
    ├── NotFoundError       server: no such record or article version
    └── InProgressError     server: a write of this Idempotency-Key still runs

Every class is exported from ``recall`` (``except recall.UnknownUserError``); the modules
that raise them re-export them where they were first defined. The HTTP status of each:
:mod:`recall.server.errors`.

Every message says what to do next. Library code wraps SQLite calls in :func:`mapped` and
Chroma calls in :func:`chroma_errors`, so that callers only ever see ``RecallError``
subclasses. This module imports nothing from recall: every layer may raise these.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = [
    "AuthError",
    "BodyTimeoutError",
    "ConfigError",
    "DatasetError",
    "EmbedderError",
    "ForbiddenError",
    "HostError",
    "InProgressError",
    "IndexStaleError",
    "InputError",
    "KeyReusedError",
    "LLMError",
    "MediaTypeError",
    "MessageError",
    "ModelFileError",
    "NotFoundError",
    "OriginError",
    "RecallError",
    "StoreError",
    "TooLargeError",
    "UnknownUserError",
    "UserExistsError",
    "chroma_errors",
    "mapped",
]


class RecallError(Exception):
    """Base of every error recall raises."""


class InputError(RecallError, ValueError):
    """The caller passed something recall cannot accept; nothing was changed."""


class StoreError(RecallError):
    """The SQLite store or the Chroma vector store failed or is unreachable."""


class IndexStaleError(RecallError):
    """The index on disk was built with a different index spec than the one in use."""


class LLMError(RecallError):
    """The configured OpenAI-compatible endpoint failed."""


class ConfigError(RecallError):
    """Settings or an index spec are invalid."""


class EmbedderError(ConfigError):
    """The embedder given to ``recall.open(embedder=...)`` returned vectors recall cannot
    use: not one per text, another dimension than its first, or NaN/infinite values."""


class ModelFileError(ConfigError):
    """A packaged model file is missing or is not the one recall pins (its sha256 differs).

    The message names the package and the version to reinstall.
    """


class UnknownUserError(InputError):
    """The user holds no memory in this folder (HTTP 404 in the server)."""


class UserExistsError(InputError):
    """An import targets a user that already holds memory (HTTP 409 in the server)."""


class DatasetError(InputError):
    """A dataset file is missing or does not have the expected shape."""


class MessageError(InputError):
    """One message of a list is invalid: ``index`` says which, ``detail`` what is wrong.

    Callers that know where the message came from (a line of a file) relabel it by
    ``index``; everyone else reads ``message 3: ...``.
    """

    def __init__(self, index: int, detail: str) -> None:
        super().__init__(f"message {index}: {detail}")
        self.index = index
        self.detail = detail


# The server's own errors; recall.server.errors maps each to its HTTP status.


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


@contextmanager
def mapped(what: str, *, hint: str = "") -> Iterator[None]:
    """Turn the store's SQLite and filesystem exceptions inside the block into StoreError.

    ``what`` names the operation ("writing the store"), ``hint`` says what to do next.
    """
    try:
        yield
    except RecallError:
        raise
    except (sqlite3.Error, OSError) as exc:
        raise StoreError(
            f"SQLite failed while {what}: {exc}. "
            + (hint or "Check that the memory folder is writable and not on a network share.")
        ) from exc


@contextmanager
def chroma_errors(what: str, *, hint: str = "") -> Iterator[None]:
    """Turn every exception of a Chroma client call inside the block into StoreError.

    The block must hold Chroma calls only: chromadb raises its ``ChromaError`` family,
    builtin exceptions from its Rust bindings and httpx errors in client mode, so the
    block, not the exception's type or text, is what says the error is Chroma's.
    """
    try:
        yield
    except RecallError:
        raise
    except Exception as exc:
        raise StoreError(
            f"Chroma failed while {what}: {type(exc).__name__}: {exc}. "
            + (hint or "Run `recall check`, or `recall reindex` to rebuild the vector index.")
        ) from exc
