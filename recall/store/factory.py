"""Which store a memory folder uses: its own SQLite file, or a PostgreSQL server."""

from __future__ import annotations

from pathlib import Path

from ..errors import ConfigError
from ..settings.redact import redact
from .sql_store import SqlStore
from .sqlite import SQLiteStore

__all__ = ["STORE_FILE", "open_store"]

#: The embedded store's file in the memory folder.
STORE_FILE = "recall.sqlite3"


def open_store(folder: Path, store_url: str | None, *, timeout_s: float = 10.0) -> SqlStore:
    """``folder/recall.sqlite3``, or the PostgreSQL database at ``store_url``."""
    if store_url is None:
        return SQLiteStore(Path(folder) / STORE_FILE)
    if not store_url.startswith(("postgresql://", "postgres://")):
        raise ConfigError(
            "store_url must be a postgresql://user@host:port/database URL, got "
            f"{redact(store_url)!r}; "
            "unset it to use the folder's SQLite file"
        )
    from .pg import PostgresStore

    return PostgresStore(store_url, connect_timeout=timeout_s)
