"""recall's exceptions, every one of them, and the one place foreign exceptions become ours.

    RecallError
    ├── InputError          bad input from the caller; nothing was written
    │   ├── UnknownUserError    the user holds no memory in this folder
    │   ├── UserExistsError     an import onto a user that already holds memory
    │   ├── DatasetError        a benchmark dataset is missing or malformed
    │   └── MessageError        one chat message of a list is invalid (its index says which)
    ├── StoreError          SQLite or Chroma failed or cannot be reached
    ├── IndexStaleError     the built index was made with another spec: run `recall reindex`
    ├── LLMError            the configured LLM endpoint failed
    ├── ConfigError         settings or an index spec are invalid
    │   ├── EmbedderError       the embedder given to open returned unusable vectors
    │   └── ModelFileError      a model file is not the pinned one: reinstall its package

The server's own errors (a key refused, a foreign origin, a body too large...) live in its
wing, :mod:`recall.server.errors`, exported from ``recall.server``: a library user never
meets them.

Every class here is exported from ``recall`` (``except recall.UnknownUserError``); the
modules that raise them re-export them where they were first defined. The HTTP status of
each: :mod:`recall.server.errors`.

Every message says what to do next. Library code wraps SQLite calls in :func:`mapped` and
Chroma calls in :func:`chroma_errors`, so that callers only ever see ``RecallError``
subclasses. This module imports nothing from recall: every layer may raise these.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = [
    "ConfigError",
    "DatasetError",
    "EmbedderError",
    "IndexStaleError",
    "InputError",
    "LLMError",
    "MessageError",
    "ModelFileError",
    "RecallError",
    "StoreError",
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
