"""The store: the source of truth, every SQL statement recall runs.

Upper layers type against the :class:`Store` protocol (and the :class:`Transaction` it
yields); :class:`SQLiteStore` is the embedded implementation, its schema versioned by
:mod:`recall.store.schema`.
"""

from .base import ArticleRow, Job, Store, Transaction, content_hash
from .journal import new_job_id
from .schema import LATEST as SCHEMA_VERSION
from .sqlite import SQLiteStore

__all__ = [
    "ArticleRow",
    "Job",
    "SCHEMA_VERSION",
    "SQLiteStore",
    "Store",
    "Transaction",
    "content_hash",
    "new_job_id",
]
