"""The store: the source of truth, every SQL statement recall runs.

Upper layers type against the :class:`Store` protocol (and the :class:`Transaction` it
yields); :class:`SQLiteStore` is the embedded implementation, its schema versioned by
:mod:`recall.store.schema`; :class:`~recall.store.pg.PostgresStore` runs the same queries
on a PostgreSQL server (:func:`open_store` picks one from the settings).
"""

from .base import ArticleRow, Job, Store, Transaction, content_hash
from .factory import STORE_FILE, open_store
from .journal import new_job_id
from .schema import LATEST as SCHEMA_VERSION
from .sqlite import SQLiteStore

__all__ = [
    "ArticleRow",
    "Job",
    "SCHEMA_VERSION",
    "SQLiteStore",
    "STORE_FILE",
    "Store",
    "Transaction",
    "content_hash",
    "new_job_id",
    "open_store",
]
