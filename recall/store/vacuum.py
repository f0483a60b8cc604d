"""After an erasure, what the database files still hold of the deleted rows, removed.

``delete_user`` removes a user's rows for every reader at commit, but bytes can outlive
rows. SQLite erases with ``secure_delete`` and truncates its write-ahead log already;
``VACUUM`` then rebuilds the file without its free pages. PostgreSQL's DELETE only marks
the rows dead, and a plain ``VACUUM`` only makes their space reusable: the text stays
readable in the table and index files (the test reads them) until ``VACUUM FULL`` rewrites
each table into a new file, which locks the table for the rewrite. What PostgreSQL's WAL,
its archive and replicas keep is beyond a client's reach: docs/server.md's "Erasure on a
server store" says what stays where. Each function returns the lines the CLI prints.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from ..errors import mapped

__all__ = [
    "PG_MAY_VACUUM_STATISTICS",
    "PG_NOT_OWNED",
    "PG_VACUUM",
    "vacuum_sqlite",
    "vacuum_sqlite_file",
]

#: PostgreSQL: the statement run on each table that holds a user's rows.
PG_VACUUM = "VACUUM (FULL, ANALYZE) {table}"
#: PostgreSQL: whether this role may vacuum ``pg_statistic`` (a superuser, or its owner).
PG_MAY_VACUUM_STATISTICS = (
    "SELECT pg_has_role(current_user, c.relowner, 'USAGE') OR (SELECT rolsuper FROM "
    "pg_roles WHERE rolname = current_user) FROM pg_class c "
    "WHERE c.oid = 'pg_catalog.pg_statistic'::regclass"
)
#: PostgreSQL: which of the tables named (an array) this role may not vacuum.
PG_NOT_OWNED = (
    "SELECT c.relname FROM pg_class c WHERE c.relname = ANY(?) AND c.relkind = 'r' "
    "AND c.relnamespace = to_regnamespace(current_schema()) "
    "AND NOT pg_has_role(current_user, c.relowner, 'USAGE') "
    "AND NOT (SELECT rolsuper FROM pg_roles WHERE rolname = current_user)"
)


def _size(path: Path) -> int:
    return sum(p.stat().st_size for p in (path, Path(f"{path}-wal")) if p.is_file())


def vacuum_sqlite(db: sqlite3.Connection, path: Path) -> list[str]:
    """VACUUM the open SQLite database ``db`` (the file ``path``), then fold its write-ahead
    log in and truncate it. ``db`` must be in autocommit mode, outside a transaction."""
    before = _size(path)
    with mapped(f"vacuuming {path}", hint="another process holds it: retry when it is idle."):
        db.execute("VACUUM")
        busy, frames, _ = db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
    lines = [f"VACUUM {path}: {before:,} -> {_size(path):,} bytes, free pages dropped"]
    if frames == -1:  # a rollback journal (Chroma's file): removed at every commit
        pass
    elif busy:
        lines.append(
            "  the write-ahead log is in use by another process: it is truncated at the next "
            "checkpoint that finds no reader"
        )
    else:
        lines.append("  write-ahead log checkpointed and truncated")
    return lines


def vacuum_sqlite_file(path: Path, *, timeout_s: float = 5.0) -> list[str]:
    """:func:`vacuum_sqlite` on the file ``path`` (the embedded Chroma's ``chroma.sqlite3``),
    waiting at most ``timeout_s`` for another process's lock: what Chroma's own ``chroma
    vacuum`` runs, with the log truncated too."""
    with mapped(f"opening {path}"):
        db = sqlite3.connect(path, timeout=timeout_s, isolation_level=None)
    try:
        return vacuum_sqlite(db, path)
    finally:
        db.close()
