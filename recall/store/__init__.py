"""The store: the source of truth, every SQL statement recall runs.

Upper layers type against the :class:`Store` protocol (and the :class:`Transaction` it
yields). Its one implementation is :class:`SqlStore`, composed of backend-independent
parts (records, index bookkeeping and settings, articles, the job journal, whole users;
idempotency keys, migrations and copying a store are functions over it) that run recall's
SQL through a :class:`Dialect`. SQLite and PostgreSQL are sibling dialects:
:class:`SQLiteStore` is the store over :class:`~recall.store.sqlite.SQLiteDialect` (a file
in the memory folder, its schema versioned by :mod:`recall.store.schema`),
:class:`~recall.store.pg.PostgresStore` the store over
:class:`~recall.store.pg.PostgresDialect`; :func:`open_store` picks one from the settings.

A new backend implements :class:`Dialect` and nothing else (:mod:`recall.store.dialect`
says how): the attribute ``where`` and the methods ``read``, ``write``, ``erase``,
``upsert``, ``ddl``, ``schema_version``, ``set_schema_version``, ``claim``, ``release``,
``vacuum``, ``journal_mode`` and ``close``; its connection hands out a :class:`Db`
(``execute``, ``executemany``) whose errors are :class:`~recall.errors.StoreError`.
``SqlStore(TheDialect(...))`` is then a complete store.
"""

from .base import ArticleRow, Job, Store, Transaction, content_hash
from .dialect import Db, Dialect
from .factory import STORE_FILE, open_store
from .journal import new_job_id
from .schema import LATEST as SCHEMA_VERSION
from .sql_store import SqlStore
from .sqlite import SQLiteStore

__all__ = [
    "ArticleRow",
    "Db",
    "Dialect",
    "Job",
    "SCHEMA_VERSION",
    "SQLiteStore",
    "STORE_FILE",
    "SqlStore",
    "Store",
    "Transaction",
    "content_hash",
    "new_job_id",
    "open_store",
]
