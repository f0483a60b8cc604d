"""recall's exceptions, and the one place foreign exceptions become ours.

    RecallError
    ├── InputError        bad input from the caller; nothing was written
    ├── StoreError        SQLite or Chroma failed or cannot be reached
    ├── IndexStaleError   the built index was made with another spec: run `recall reindex`
    ├── LLMError          the configured LLM endpoint failed
    └── ConfigError       settings or an index spec are invalid

Every message says what to do next. Library code that calls SQLite or Chroma wraps the
call in :func:`mapped` so that callers only ever see ``RecallError`` subclasses.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = [
    "ConfigError",
    "IndexStaleError",
    "InputError",
    "LLMError",
    "RecallError",
    "StoreError",
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


def _is_chroma_error(exc: BaseException) -> bool:
    # chromadb raises its own ChromaError family, but also plain ValueError/Exception from the
    # Rust bindings and httpx errors in client mode; we recognise all by the raising module.
    module = type(exc).__module__ or ""
    return module.startswith(("chromadb", "httpx", "httpcore")) or "chroma" in str(exc).lower()


@contextmanager
def mapped(what: str, *, hint: str = "") -> Iterator[None]:
    """Turn SQLite and Chroma exceptions raised inside the block into :class:`StoreError`.

    ``what`` names the operation ("writing the store"), ``hint`` says what to do next.
    """
    try:
        yield
    except RecallError:
        raise
    except sqlite3.Error as exc:
        raise StoreError(
            f"SQLite failed while {what}: {exc}. "
            + (hint or "Check that the memory folder is writable and not on a network share.")
        ) from exc
    except Exception as exc:
        if _is_chroma_error(exc) or isinstance(exc, OSError):
            raise StoreError(
                f"Chroma failed while {what}: {type(exc).__name__}: {exc}. "
                + (hint or "Run `recall check`, or `recall reindex` to rebuild the vector index.")
            ) from exc
        raise
